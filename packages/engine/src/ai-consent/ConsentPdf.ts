import { Effect } from "effect"
import { PDFDocument, type PDFFont, rgb, StandardFonts } from "pdf-lib"

/**
 * The consent document as a PDF (pdf-lib, as sales' documents are): the frozen text, and once
 * signed by typed name, the signature block with the signer, the time and the SHA-256 of the
 * exact text signed.
 */

const pageWidth = 612
const pageHeight = 792
const margin = 56
const size = 10
const lineHeight = 14

/** WinAnsi only: the standard fonts cannot draw anything else. */
const printable = (text: string): string => text.replace(/[^\x20-\x7E\xA0-\xFF]/gu, "?")

const wrap = (text: string, font: PDFFont, width: number): Array<string> => {
  const lines: Array<string> = []
  for (const paragraph of text.split("\n")) {
    let line = ""
    for (const word of printable(paragraph).split(" ")) {
      const candidate = line === "" ? word : `${line} ${word}`
      if (font.widthOfTextAtSize(candidate, size) > width && line !== "") {
        lines.push(line)
        line = word
      } else line = candidate
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

export const render = (input: {
  readonly title: string
  readonly text: string
  readonly createdAt: string
  readonly signature: Signature | null
}): Effect.Effect<Uint8Array> =>
  Effect.promise(async () => {
    const pdf = await PDFDocument.create({ updateMetadata: false })
    const created = new Date(input.createdAt)
    pdf.setTitle(printable(input.title))
    pdf.setProducer("Ledger")
    pdf.setCreator("Ledger")
    pdf.setCreationDate(created)
    pdf.setModificationDate(created)
    const regular = await pdf.embedFont(StandardFonts.Helvetica)
    const bold = await pdf.embedFont(StandardFonts.HelveticaBold)
    let page = pdf.addPage([pageWidth, pageHeight])
    let y = pageHeight - margin
    const draw = (line: string, font: PDFFont = regular) => {
      if (y < margin) {
        page = pdf.addPage([pageWidth, pageHeight])
        y = pageHeight - margin
      }
      page.drawText(line, { x: margin, y, size, font, color: rgb(0.1, 0.1, 0.1) })
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
  })

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
