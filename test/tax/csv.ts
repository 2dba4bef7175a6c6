/** A small RFC 4180 reader for the tests: quoted fields, doubled quotes, CRLF or LF. */
export const rows = (text: string): Array<Array<string>> => {
  const out: Array<Array<string>> = []
  let row: Array<string> = []
  let cell = ""
  let quoted = false
  for (let index = 0; index < text.length; index++) {
    const char = text[index]!
    if (quoted) {
      if (char === "\"" && text[index + 1] === "\"") {
        cell += "\""
        index++
      } else if (char === "\"") quoted = false
      else cell += char
    } else if (char === "\"") quoted = true
    else if (char === ",") {
      row.push(cell)
      cell = ""
    } else if (char === "\n" || char === "\r") {
      if (char === "\r" && text[index + 1] === "\n") index++
      row.push(cell)
      out.push(row)
      row = []
      cell = ""
    } else cell += char
  }
  if (cell !== "" || row.length > 0) out.push([...row, cell])
  return out.filter((cells) => !(cells.length === 1 && cells[0] === ""))
}

/** Rows as objects keyed by the header row. */
export const records = (text: string): Array<Record<string, string>> => {
  const [header, ...body] = rows(text)
  return body.map((cells) => Object.fromEntries(header!.map((name, index) => [name, cells[index] ?? ""])))
}
