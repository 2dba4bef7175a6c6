import { Effect } from "effect"
import { PDFDocument, type PDFImage, type PDFPage, rgb } from "pdf-lib"
import * as PdfFonts from "../kernel/PdfFonts.ts"

type PDFFont = PdfFonts.Face

/**
 * PDFs of invoices, credits, bills, receipts and estimates, drawn with pdf-lib (pure JavaScript:
 * runs wherever the engine runs) in the engine's Unicode font (kernel/PdfFonts.ts). The layout is
 * one that customers recognise: who from and to, dates, a table of lines, subtotal, one tax line
 * per jurisdiction, total, paid and balance due. Documents the company sends carry its
 * letterhead from the company profile: logo, names, address, brand colour, payment
 * instructions and the footer on every page.
 */
export interface PdfLine {
  readonly description: string
  readonly quantity: string | null
  readonly unitPriceCents: number | null
  readonly amountCents: number
}

/** The company as the document presents it (the profile's letterhead, or just its name). */
export interface Letterhead {
  readonly name: string
  /** DBA, address, phone, email, website, tax ids: one short line each. */
  readonly details: ReadonlyArray<string>
  /** "#RRGGBB" (checked for contrast on white when saved), or null for the default ink. */
  readonly brandColor: string | null
  readonly logoPng: Uint8Array | null
  readonly paymentInstructions: ReadonlyArray<string>
  readonly footer: ReadonlyArray<string>
}

export interface PdfInput {
  readonly title: string
  readonly number: string
  readonly companyName: string
  /** The profile's letterhead for documents the company issues; null for ones it receives (bills). */
  readonly letterhead: Letterhead | null
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

const ink = rgb(0.1, 0.1, 0.1)
const grey = rgb(0.35, 0.35, 0.35)

/** "#RRGGBB" as a pdf-lib colour; anything else is the default ink. */
export const colorOf = (hex: string | null) =>
  hex === null || !/^#[0-9a-f]{6}$/iu.test(hex)
    ? ink
    : rgb(Number.parseInt(hex.slice(1, 3), 16) / 255, Number.parseInt(hex.slice(3, 5), 16) / 255, Number.parseInt(hex.slice(5, 7), 16) / 255)

const pageWidth = 612
const pageHeight = 792
const margin = 50
/** Letterhead parts are bounded here too, whatever the profile's own limits. */
const detailsMax = 8
const textLinesMax = 12

export const render = (input: PdfInput): Effect.Effect<Uint8Array> =>
  Effect.promise(async () => {
    const pdf = await PDFDocument.create({ updateMetadata: false })
    const created = new Date(input.createdAt)
    pdf.setTitle(PdfFonts.printable(`${input.title} ${input.number}`))
    pdf.setProducer("Ledger")
    pdf.setCreator("Ledger")
    pdf.setCreationDate(created)
    pdf.setModificationDate(created)
    const { regular, bold } = await PdfFonts.embed(pdf)
    const letterhead = input.letterhead
    const brand = colorOf(letterhead?.brandColor ?? null)
    const footer = (letterhead?.footer ?? []).slice(0, textLinesMax)
    const bottom = margin + 30 + footer.length * 10
    const pages: Array<PDFPage> = []
    const addPage = () => {
      const added = pdf.addPage([pageWidth, pageHeight])
      pages.push(added)
      return added
    }
    let page: PDFPage = addPage()
    let y = pageHeight - margin

    const text = (value: string, x: number, options: { font?: PDFFont; size?: number; right?: boolean; color?: ReturnType<typeof rgb> } = {}) => {
      const font = options.font ?? regular
      const size = options.size ?? 10
      const shown = PdfFonts.printable(value)
      const width = font.widthOfTextAtSize(shown, size)
      font.drawText(page, shown, { x: options.right === true ? x - width : x, y, size, color: options.color ?? ink })
    }
    const newLine = (height = 14) => {
      y -= height
      if (y < bottom) {
        page = addPage()
        y = pageHeight - margin
      }
    }
    const clip = (value: string, width: number, font: PDFFont, size: number) => {
      const shown = PdfFonts.printable(value)
      if (font.widthOfTextAtSize(shown, size) <= width) return shown
      let cut = shown
      while (cut.length > 1 && font.widthOfTextAtSize(`${cut}...`, size) > width) cut = Array.from(cut).slice(0, -1).join("")
      return `${cut}...`
    }

    // The logo, top left, at most 160 x 60 points; a PNG pdf-lib cannot read is left out, not fatal.
    const logo: PDFImage | null = letterhead?.logoPng == null ? null : await pdf.embedPng(letterhead.logoPng).catch(() => null)
    if (logo !== null) {
      const scale = Math.min(160 / logo.width, 60 / logo.height, 1)
      const height = logo.height * scale
      page.drawImage(logo, { x: margin, y: y - height + 12, width: logo.width * scale, height })
      y -= height + 8
    }
    text(clip(letterhead?.name ?? input.companyName, 300, bold, 16), margin, { font: bold, size: 16 })
    text(`${input.title.toUpperCase()} ${input.number}`, pageWidth - margin, { font: bold, size: 16, right: true, color: brand })
    for (const detail of (letterhead?.details ?? []).slice(0, detailsMax)) {
      newLine(12)
      text(clip(detail, 300, regular, 9), margin, { size: 9, color: grey })
    }
    if (letterhead !== null) {
      newLine(10)
      page.drawRectangle({ x: margin, y, width: pageWidth - 2 * margin, height: 1.5, color: brand })
    }
    newLine(24)
    if (input.status !== null) {
      text(`Status: ${input.status}`, pageWidth - margin, { right: true })
    }
    text(`${input.contactLabel}:`, margin, { font: bold })
    newLine()
    text(clip(input.contactName, 300, regular, 10), margin)
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
    page.drawLine({ start: { x: margin, y }, end: { x: pageWidth - margin, y }, thickness: 0.5, color: letterhead === null ? ink : brand })
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
    const instructions = (letterhead?.paymentInstructions ?? []).slice(0, textLinesMax)
    if (instructions.length > 0) {
      newLine(24)
      text("Payment instructions", margin, { font: bold, size: 9 })
      for (const instruction of instructions) {
        newLine(12)
        text(clip(instruction, pageWidth - 2 * margin, regular, 9), margin, { size: 9 })
      }
    }
    // The footer on every page, bottom up from the margin.
    for (const each of pages) {
      footer.forEach((line, index) => {
        const shown = clip(line, pageWidth - 2 * margin, regular, 8)
        regular.drawText(each, shown, { x: margin, y: margin + (footer.length - 1 - index) * 10, size: 8, color: grey })
      })
    }
    return pdf.save()
  })
