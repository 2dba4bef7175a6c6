import { Effect } from "effect"
import { PDFDocument, rgb } from "pdf-lib"
import * as PdfFonts from "../kernel/PdfFonts.ts"
import * as HeavyWork from "../kernel/offload/HeavyWork.ts"
import { ApiError } from "@ledger/api"

type PDFFont = PdfFonts.Face

/**
 * The consent document as a PDF (pdf-lib, as sales' documents are): the frozen text, and once
 * signed by typed name, the signature block with the signer, the time and the SHA-256 of the
 * exact text signed. Set in the engine's Unicode font (kernel/PdfFonts.ts): the text signed is
 * printed as written, whatever its language.
 */

const pageWidth = 612
const pageHeight = 792
const margin = 56
const size = 10
const lineHeight = 14

const printable = PdfFonts.printable

/**
 * Lines that fit `width`: broken at spaces, and inside a run wider than a line (Japanese and
 * Chinese text has no spaces between words) between characters.
 */
const wrap = (text: string, font: PDFFont, width: number): Array<string> => {
  const lines: Array<string> = []
  const fits = (candidate: string) => font.widthOfTextAtSize(candidate, size) <= width
  for (const paragraph of text.split("\n")) {
    let line = ""
    for (const word of printable(paragraph).split(" ")) {
      const candidate = line === "" ? word : `${line} ${word}`
      if (fits(candidate)) {
        line = candidate
        continue
      }
      if (line !== "") lines.push(line)
      line = ""
      for (const character of word) {
        if (line !== "" && !fits(line + character)) {
          lines.push(line)
          line = ""
        }
        line += character
      }
    }
    lines.push(line)
  }
  return lines
}

export interface Signature {
  readonly signedBy: string
  readonly signedAt: string
  readonly textSha256: string
  readonly acceptedProviders: ReadonlyArray<string>
  readonly validUntil: string | null
}

const draw = async (input: {
  readonly title: string
  readonly text: string
  readonly createdAt: string
  readonly signature: Signature | null
}): Promise<Uint8Array> => {
  const pdf = await PDFDocument.create({ updateMetadata: false })
  const created = new Date(input.createdAt)
  pdf.setTitle(printable(input.title))
  pdf.setProducer("Ledger")
  pdf.setCreator("Ledger")
  pdf.setCreationDate(created)
  pdf.setModificationDate(created)
  const { regular, bold } = await PdfFonts.embed(pdf)
  let page = pdf.addPage([pageWidth, pageHeight])
  let y = pageHeight - margin
  const draw = (line: string, font: PDFFont = regular) => {
    if (y < margin) {
      page = pdf.addPage([pageWidth, pageHeight])
      y = pageHeight - margin
    }
    font.drawText(page, line, { x: margin, y, size, color: rgb(0.1, 0.1, 0.1) })
    y -= lineHeight
  }
  for (const line of wrap(input.text, regular, pageWidth - 2 * margin)) draw(line)
  if (input.signature !== null) {
    y -= lineHeight
    draw("SIGNATURE", bold)
    const { signature } = input
    for (
      const line of [
        `Signed by: ${signature.signedBy}`,
        `Signed at: ${signature.signedAt}`,
        `Accepted providers: ${signature.acceptedProviders.join(", ")}`,
        `Valid until: ${signature.validUntil ?? "-"}`,
        `SHA-256 of the text signed: ${signature.textSha256}`
      ]
    ) draw(printable(line))
  }
  return await pdf.save()
}

/** Rendered in one job, off the request's thread when the server has a pool (ADR 2320). */
export const renderJob = HeavyWork.job("pdf.consent", draw)

export const render = (input: {
  readonly title: string
  readonly text: string
  readonly createdAt: string
  readonly signature: Signature | null
}): Effect.Effect<Uint8Array, ApiError.LedgerError> =>
  HeavyWork.run(renderJob, input).pipe(Effect.mapError(HeavyWork.renderRefusal))

/** Whether bytes are a PDF: its signature, and pdf-lib can read its structure. */
export const isPdf = (bytes: Uint8Array): Effect.Effect<boolean> =>
  new TextDecoder("latin1").decode(bytes.subarray(0, 5)) !== "%PDF-"
    ? Effect.succeed(false)
    : Effect.promise(() =>
      PDFDocument.load(bytes, { ignoreEncryption: true, updateMetadata: false }).then(
        (document) => {
          try {
            return document.getPageCount() > 0
          } catch {
            return false
          }
        },
        () => false
      )
    )
