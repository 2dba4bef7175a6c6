import { Effect } from "effect"
import { PDFDocument, type PDFFont, type PDFPage, rgb, StandardFonts } from "pdf-lib"

/**
 * PDFs of invoices, credits, bills, receipts and estimates, drawn with pdf-lib (pure JavaScript:
 * runs wherever the engine runs). The layout is one that customers recognise: who from and to,
 * dates, a table of lines, subtotal, one tax line per jurisdiction, total, paid and balance due.
 */
export interface PdfLine {
  readonly description: string
  readonly quantity: string | null
  readonly unitPriceCents: number | null
  readonly amountCents: number
}

export interface PdfInput {
  readonly title: string
  readonly number: string
  readonly companyName: string
  readonly contactLabel: string
  readonly contactName: string
  readonly contactEmail: string | null
  readonly dates: ReadonlyArray<readonly [string, string]>
  readonly lines: ReadonlyArray<PdfLine>
  readonly subtotalCents: number
  readonly taxLines: ReadonlyArray<{ readonly label: string; readonly cents: number }>
  readonly totalCents: number
  readonly paidCents: number | null
  readonly balanceCents: number | null
  readonly memo: string | null
  readonly status: string | null
  /** The request time, so the file records when it was made without reading the clock here. */
  readonly createdAt: string
}

/** 1234567 -> "12,345.67" (cents are exact: no floating point on the way). */
export const money = (cents: number): string => {
  const negative = cents < 0
  const digits = String(Math.abs(cents)).padStart(3, "0")
  const whole = digits.slice(0, -2).replace(/\B(?=(\d{3})+(?!\d))/g, ",")
  return `${negative ? "-" : ""}${whole}.${digits.slice(-2)}`
}

/** The standard fonts speak WinAnsi: anything else is shown as '?', never a crash. */
const printable = (text: string): string =>
  text.replace(/[\r\n\t]+/g, " ").replace(/[^\u0020-\u007e\u00a0-\u00ff]/g, "?")

const pageWidth = 612
const pageHeight = 792
const margin = 50

export const render = (input: PdfInput): Effect.Effect<Uint8Array> =>
  Effect.promise(async () => {
    const pdf = await PDFDocument.create({ updateMetadata: false })
    const created = new Date(input.createdAt)
    pdf.setTitle(printable(`${input.title} ${input.number}`))
    pdf.setProducer("Ledger")
    pdf.setCreator("Ledger")
    pdf.setCreationDate(created)
    pdf.setModificationDate(created)
    const regular = await pdf.embedFont(StandardFonts.Helvetica)
    const bold = await pdf.embedFont(StandardFonts.HelveticaBold)
    let page: PDFPage = pdf.addPage([pageWidth, pageHeight])
    let y = pageHeight - margin

    const text = (value: string, x: number, options: { font?: PDFFont; size?: number; right?: boolean } = {}) => {
      const font = options.font ?? regular
      const size = options.size ?? 10
      const shown = printable(value)
      const width = font.widthOfTextAtSize(shown, size)
      page.drawText(shown, { x: options.right === true ? x - width : x, y, size, font, color: rgb(0.1, 0.1, 0.1) })
    }
    const newLine = (height = 14) => {
      y -= height
      if (y < margin + 40) {
        page = pdf.addPage([pageWidth, pageHeight])
        y = pageHeight - margin
      }
    }
    const clip = (value: string, width: number, font: PDFFont, size: number) => {
      const shown = printable(value)
      if (font.widthOfTextAtSize(shown, size) <= width) return shown
      let cut = shown
      while (cut.length > 1 && font.widthOfTextAtSize(`${cut}...`, size) > width) cut = cut.slice(0, -1)
      return `${cut}...`
    }

    text(input.companyName, margin, { font: bold, size: 16 })
    text(`${input.title.toUpperCase()} ${input.number}`, pageWidth - margin, { font: bold, size: 16, right: true })
    newLine(24)
    if (input.status !== null) {
      text(`Status: ${input.status}`, pageWidth - margin, { right: true })
    }
    text(`${input.contactLabel}:`, margin, { font: bold })
    newLine()
    text(input.contactName, margin)
    if (input.contactEmail !== null) {
      newLine()
      text(input.contactEmail, margin)
    }
    for (const [label, value] of input.dates) {
      newLine()
      text(`${label}: ${value}`, pageWidth - margin, { right: true })
    }
    newLine(28)

    const columns = { description: margin, quantity: 360, unitPrice: 460, amount: pageWidth - margin }
    text("Description", columns.description, { font: bold })
    text("Qty", columns.quantity, { font: bold, right: true })
    text("Unit price", columns.unitPrice, { font: bold, right: true })
    text("Amount", columns.amount, { font: bold, right: true })
    newLine(6)
    page.drawLine({ start: { x: margin, y }, end: { x: pageWidth - margin, y }, thickness: 0.5 })
    newLine(12)
    for (const line of input.lines) {
      text(clip(line.description, 260, regular, 10), columns.description)
      if (line.quantity !== null) text(line.quantity, columns.quantity, { right: true })
      if (line.unitPriceCents !== null) text(money(line.unitPriceCents), columns.unitPrice, { right: true })
      text(money(line.amountCents), columns.amount, { right: true })
      newLine()
    }
    newLine(6)
    const total = (label: string, cents: number, font: PDFFont = regular) => {
      text(label, columns.unitPrice, { font, right: true })
      text(money(cents), columns.amount, { font, right: true })
      newLine()
    }
    total("Subtotal", input.subtotalCents)
    for (const tax of input.taxLines) total(tax.label, tax.cents)
    total("Total", input.totalCents, bold)
    if (input.paidCents !== null) total("Paid", input.paidCents)
    if (input.balanceCents !== null) total("Balance due", input.balanceCents, bold)
    if (input.memo !== null && input.memo !== "") {
      newLine(10)
      text(clip(input.memo, pageWidth - 2 * margin, regular, 10), margin)
    }
    return pdf.save()
  })

