import { Effect } from "effect"
import { PDFDocument, StandardFonts, rgb } from "pdf-lib"

/**
 * Receipts that arrive as an HTML message (an online shop's confirmation) and no file: the HTML is
 * kept as the original, its text is read like a PDF's, and a PDF snapshot of that text is drawn
 * with pdf-lib so the receipt can be filed and printed like any other (`variant=snapshot`). The
 * HTML itself is never rendered: no script runs and nothing it links to is fetched.
 */

const entities: Readonly<Record<string, string>> = { amp: "&", lt: "<", gt: ">", quot: "\"", apos: "'", nbsp: " ", euro: "€", pound: "£" }

/** The text of an HTML document: blocks and rows become lines, tags and hidden parts are dropped. */
export const toText = (html: string): string =>
  html
    .replace(/<(script|style|head|template|noscript)[\s\S]*?<\/\1\s*>/giu, " ")
    .replace(/<!--[\s\S]*?-->/gu, " ")
    .replace(/<(br|\/p|\/div|\/tr|\/h[1-6]|\/li|\/table|hr)[^>]*>/giu, "\n")
    .replace(/<\/t[dh]\s*>/giu, " ")
    .replace(/<[^>]*>/gu, " ")
    .replace(/&(#x[0-9a-f]+|#\d+|[a-z]+);/giu, (whole, name: string) =>
      name.startsWith("#x") ? String.fromCodePoint(Number.parseInt(name.slice(2), 16) % 0x110000)
      : name.startsWith("#") ? String.fromCodePoint(Number(name.slice(1)) % 0x110000)
      : entities[name.toLowerCase()] ?? whole)
    .split("\n")
    .map((line) => line.replace(/\s+/gu, " ").trim())
    .filter((line) => line !== "")
    .join("\n")

const printable = (text: string): string => text.replace(/[^\u0020-\u007e\u00a0-\u00ff]/gu, "?")

/** Lines of at most `width` characters, broken at spaces where possible. */
const wrap = (line: string, width: number): Array<string> => {
  const out: Array<string> = []
  let rest = line
  while (rest.length > width) {
    const cut = rest.lastIndexOf(" ", width) > width / 2 ? rest.lastIndexOf(" ", width) : width
    out.push(rest.slice(0, cut))
    rest = rest.slice(cut).trimStart()
  }
  out.push(rest)
  return out
}

export const snapshot = (input: { readonly title: string; readonly text: string; readonly at: string }): Effect.Effect<Uint8Array> =>
  Effect.promise(async () => {
    const pdf = await PDFDocument.create({ updateMetadata: false })
    const created = new Date(input.at)
    pdf.setTitle(printable(input.title).slice(0, 200))
    pdf.setProducer("Ledger")
    pdf.setCreationDate(created)
    pdf.setModificationDate(created)
    const font = await pdf.embedFont(StandardFonts.Helvetica)
    const lines = [input.title, "", ...input.text.split("\n")].flatMap((line) => wrap(printable(line), 95)).slice(0, 2000)
    for (let start = 0; start < lines.length; start += 60) {
      const page = pdf.addPage([612, 792])
      lines.slice(start, start + 60).forEach((line, index) => {
        page.drawText(line, { x: 50, y: 742 - index * 12, size: 9, font, color: rgb(0.1, 0.1, 0.1) })
      })
    }
    return pdf.save({ useObjectStreams: false })
  })
