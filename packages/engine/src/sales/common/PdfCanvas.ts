import type { PDFDocument, PDFPage, rgb } from "pdf-lib"
import * as PdfFonts from "../../kernel/PdfFonts.ts"

export type PDFFont = PdfFonts.Face

/** US Letter, in points, with the same margin on every side. */
export const pageWidth = 612
const pageHeight = 792
export const margin = 50

export interface TextOptions {
  readonly font?: PDFFont
  readonly size?: number
  readonly right?: boolean
  readonly color?: ReturnType<typeof rgb>
}

/**
 * A writing position over a PDF's pages, top down (Pdf.ts draws documents with it): text at the
 * current line, a new line that starts a new page below `bottom` (kept clear for the footer), and
 * text clipped to a width with "...".
 */
export interface Canvas {
  readonly fonts: { readonly regular: PDFFont; readonly bold: PDFFont }
  readonly pages: ReadonlyArray<PDFPage>
  readonly page: () => PDFPage
  readonly y: () => number
  /** Moves down without starting a page (the logo, drawn on the first page only). */
  readonly down: (height: number) => void
  readonly newLine: (height?: number) => void
  readonly text: (value: string, x: number, options?: TextOptions) => void
  readonly clip: (value: string, width: number, font: PDFFont, size: number) => string
}

export const canvas = (
  pdf: PDFDocument,
  fonts: { readonly regular: PDFFont; readonly bold: PDFFont },
  options: { readonly bottom: number; readonly ink: ReturnType<typeof rgb> }
): Canvas => {
  const pages: Array<PDFPage> = []
  const addPage = () => {
    const added = pdf.addPage([pageWidth, pageHeight])
    pages.push(added)
    return added
  }
  let page: PDFPage = addPage()
  let y = pageHeight - margin
  return {
    fonts,
    pages,
    page: () => page,
    y: () => y,
    down: (height) => {
      y -= height
    },
    newLine: (height = 14) => {
      y -= height
      if (y < options.bottom) {
        page = addPage()
        y = pageHeight - margin
      }
    },
    text: (value, x, textOptions = {}) => {
      const font = textOptions.font ?? fonts.regular
      const size = textOptions.size ?? 10
      const shown = PdfFonts.printable(value)
      const width = font.widthOfTextAtSize(shown, size)
      font.drawText(page, shown, { x: textOptions.right === true ? x - width : x, y, size, color: textOptions.color ?? options.ink })
    },
    clip: (value, width, font, size) => {
      const shown = PdfFonts.printable(value)
      if (font.widthOfTextAtSize(shown, size) <= width) return shown
      let cut = shown
      while (cut.length > 1 && font.widthOfTextAtSize(`${cut}...`, size) > width) cut = Array.from(cut).slice(0, -1).join("")
      return `${cut}...`
    }
  }
}
