/**
 * Files as files (docs/decisions/0015-files-are-files.md): a GET whose answer is read as bytes, not
 * as JSON or text, so a PDF keeps every byte; with the filename of its Content-Disposition.
 */
export interface FileAnswer {
  readonly status: number
  readonly headers: Headers
  readonly bytes: Uint8Array
  /** The bytes as UTF-8 text (a CSV). */
  readonly text: string
  readonly contentType: string | null
  /** The plain `filename` of the Content-Disposition, or null. */
  readonly filename: string | null
}

export const getFile = async (
  fetch: (request: Request) => Promise<Response>,
  path: string,
  token: string,
  headers: Record<string, string> = {}
): Promise<FileAnswer> => {
  const response = await fetch(new Request(`http://ledger.test${path}`, { headers: { authorization: `Bearer ${token}`, ...headers } }))
  const bytes = new Uint8Array(await response.arrayBuffer())
  const disposition = response.headers.get("content-disposition") ?? ""
  return {
    status: response.status,
    headers: response.headers,
    bytes,
    text: new TextDecoder().decode(bytes),
    contentType: response.headers.get("content-type"),
    filename: /filename="([^"]*)"/.exec(disposition)?.[1] ?? null
  }
}

/** A PDF's bytes start with `%PDF-`. */
export const isPdf = (bytes: Uint8Array): boolean => new TextDecoder("latin1").decode(bytes.subarray(0, 5)) === "%PDF-"

/** The text of a PDF sent as base64 (a file envelope's `content_base64`), whitespace runs as one space. */
export const pdfTextOfBase64 = async (base64: string): Promise<string> => {
  const { extractText, getDocumentProxy } = await import("unpdf")
  const bytes = new Uint8Array(Buffer.from(base64, "base64"))
  if (Buffer.from(bytes.subarray(0, 5)).toString("latin1") !== "%PDF-") throw new Error("not a PDF")
  return (await extractText(await getDocumentProxy(bytes), { mergePages: true })).text.replace(/\s+/gu, " ")
}

/**
 * A PDF file from its objects' bodies, numbered from 1 in order (object 1 is the catalog), with
 * the cross-reference table and trailer a reader needs: how the tests and benches build hostile
 * PDFs (deflate bombs, thousands of pages) byte for byte. `comment` goes on the line after the
 * header (a seed makes each file's bytes its own).
 */
export const pdfOfObjects = (bodies: ReadonlyArray<Uint8Array>, comment?: string): Uint8Array => {
  const parts: Array<Buffer> = [Buffer.from(comment === undefined ? "%PDF-1.4\n" : `%PDF-1.4\n% ${comment}\n`)]
  const offsets: Array<number> = []
  let at = parts[0]!.length
  bodies.forEach((body, index) => {
    const object = Buffer.concat([Buffer.from(`${index + 1} 0 obj\n`), body, Buffer.from("\nendobj\n")])
    offsets.push(at)
    at += object.length
    parts.push(object)
  })
  const xref = ["xref", `0 ${bodies.length + 1}`, "0000000000 65535 f ", ...offsets.map((offset) => `${String(offset).padStart(10, "0")} 00000 n `)]
  parts.push(Buffer.from(`${xref.join("\n")}\ntrailer\n<< /Size ${bodies.length + 1} /Root 1 0 R >>\nstartxref\n${at}\n%%EOF\n`))
  return new Uint8Array(Buffer.concat(parts))
}
