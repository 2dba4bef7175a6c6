import { Effect } from "effect"
import { PDFDocument, rgb } from "pdf-lib"
import * as PdfFonts from "../kernel/PdfFonts.ts"
import * as HeavyWork from "../kernel/offload/HeavyWork.ts"
import { ApiError } from "@ledger/api"

/**
 * Receipts that arrive as an HTML message (an online shop's confirmation) and no file: the HTML is
 * kept as the original, its text is read like a PDF's, and a PDF snapshot of that text is drawn
 * with pdf-lib so the receipt can be filed and printed like any other (`variant=snapshot`). The
 * HTML itself is never rendered: no script runs and nothing it links to is fetched. The snapshot is
 * set in the engine's Unicode font (kernel/PdfFonts.ts), so a shop's € and kana print as sent.
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

const printable = PdfFonts.printable

/**
 * Lines of at most `width` columns, broken at spaces where possible. A wide character (CJK,
 * full-width forms) counts two columns, as it is about twice as wide as a Latin letter.
 */
const wide = /[\u1100-\u115f\u2e80-\ua4cf\uac00-\ud7a3\uf900-\ufaff\ufe30-\ufe4f\uff00-\uff60\uffe0-\uffe6]/u
const wrap = (line: string, width: number): Array<string> => {
  const out: Array<string> = []
  let current: Array<string> = []
  let columns = 0
  let lastSpace = -1
  for (const character of line) {
    const size = wide.test(character) ? 2 : 1
    if (columns + size > width && current.length > 0) {
      const cut = lastSpace > current.length / 2 ? lastSpace : current.length
      out.push(current.slice(0, cut).join("").trimEnd())
      current = current.slice(cut)
      while (current[0] === " ") current.shift()
      columns = current.reduce((sum, each) => sum + (wide.test(each) ? 2 : 1), 0)
      lastSpace = current.lastIndexOf(" ")
    }
    if (character === " ") lastSpace = current.length
    current.push(character)
    columns += size
  }
  out.push(current.join(""))
  return out
}

const draw = async (input: { readonly title: string; readonly text: string; readonly at: string }): Promise<Uint8Array> => {
  const pdf = await PDFDocument.create({ updateMetadata: false })
  const created = new Date(input.at)
  pdf.setTitle(Array.from(printable(input.title)).slice(0, 200).join(""))
  pdf.setProducer("Ledger")
  pdf.setCreationDate(created)
  pdf.setModificationDate(created)
  const font = await PdfFonts.embedRegular(pdf)
  const lines = [input.title, "", ...input.text.split("\n")].flatMap((line) => wrap(printable(line), 95)).slice(0, 2000)
  for (let start = 0; start < lines.length; start += 60) {
    const page = pdf.addPage([612, 792])
    lines.slice(start, start + 60).forEach((line, index) => {
      font.drawText(page, line, { x: 50, y: 742 - index * 12, size: 9, color: rgb(0.1, 0.1, 0.1) })
    })
  }
  return pdf.save({ useObjectStreams: false })
}

/** Rendered in one job, off the request's thread when the server has a pool (ADR 2320). */
export const snapshotJob = HeavyWork.job("pdf.receipt_snapshot", draw)

export const snapshot = (input: { readonly title: string; readonly text: string; readonly at: string }): Effect.Effect<Uint8Array, ApiError.LedgerError> =>
  HeavyWork.run(snapshotJob, input).pipe(Effect.mapError(HeavyWork.renderRefusal))
