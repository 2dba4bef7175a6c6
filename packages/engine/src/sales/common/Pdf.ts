import { Effect } from "effect"
import { PDFDocument, type PDFImage, rgb } from "pdf-lib"
import * as PdfFonts from "../../kernel/PdfFonts.ts"
import { type Canvas, canvas, margin, pageWidth, type PDFFont } from "./PdfCanvas.ts"
import * as HeavyWork from "../../kernel/offload/HeavyWork.ts"
import { ApiError } from "@ledger/api"

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

/** Letterhead parts are bounded here too, whatever the profile's own limits. */
const detailsMax = 8
const textLinesMax = 12

type Color = ReturnType<typeof rgb>

/** The logo, the company's name and details, the title and number, and the brand's rule. */
const drawHeading = (c: Canvas, input: PdfInput, logo: PDFImage | null, brand: Color) => {
  const { regular, bold } = c.fonts
  const letterhead = input.letterhead
  // The logo, top left, at most 160 x 60 points.
  if (logo !== null) {
    const scale = Math.min(160 / logo.width, 60 / logo.height, 1)
    const height = logo.height * scale
    c.page().drawImage(logo, { x: margin, y: c.y() - height + 12, width: logo.width * scale, height })
    c.down(height + 8)
  }
  c.text(c.clip(letterhead?.name ?? input.companyName, 300, bold, 16), margin, { font: bold, size: 16 })
  c.text(`${input.title.toUpperCase()} ${input.number}`, pageWidth - margin, { font: bold, size: 16, right: true, color: brand })
  for (const detail of (letterhead?.details ?? []).slice(0, detailsMax)) {
    c.newLine(12)
    c.text(c.clip(detail, 300, regular, 9), margin, { size: 9, color: grey })
  }
  if (letterhead !== null) {
    c.newLine(10)
    c.page().drawRectangle({ x: margin, y: c.y(), width: pageWidth - 2 * margin, height: 1.5, color: brand })
  }
}

/** The status, who the document is to or from, and its dates. */
const drawParties = (c: Canvas, input: PdfInput) => {
  c.newLine(24)
  if (input.status !== null) {
    c.text(`Status: ${input.status}`, pageWidth - margin, { right: true })
  }
  c.text(`${input.contactLabel}:`, margin, { font: c.fonts.bold })
  c.newLine()
  c.text(c.clip(input.contactName, 300, c.fonts.regular, 10), margin)
  if (input.contactEmail !== null) {
    c.newLine()
    c.text(input.contactEmail, margin)
  }
  for (const [label, value] of input.dates) {
    c.newLine()
    c.text(`${label}: ${value}`, pageWidth - margin, { right: true })
  }
  c.newLine(28)
}

const columns = { description: margin, quantity: 360, unitPrice: 460, amount: pageWidth - margin }

/** The table of lines, then subtotal, tax per jurisdiction, total, paid and balance due. */
const drawLines = (c: Canvas, input: PdfInput, rule: Color) => {
  const { regular, bold } = c.fonts
  c.text("Description", columns.description, { font: bold })
  c.text("Qty", columns.quantity, { font: bold, right: true })
  c.text("Unit price", columns.unitPrice, { font: bold, right: true })
  c.text("Amount", columns.amount, { font: bold, right: true })
  c.newLine(6)
  c.page().drawLine({ start: { x: margin, y: c.y() }, end: { x: pageWidth - margin, y: c.y() }, thickness: 0.5, color: rule })
  c.newLine(12)
  for (const line of input.lines) {
    c.text(c.clip(line.description, 260, regular, 10), columns.description)
    if (line.quantity !== null) c.text(line.quantity, columns.quantity, { right: true })
    if (line.unitPriceCents !== null) c.text(money(line.unitPriceCents), columns.unitPrice, { right: true })
    c.text(money(line.amountCents), columns.amount, { right: true })
    c.newLine()
  }
  c.newLine(6)
  const total = (label: string, cents: number, font: PDFFont = regular) => {
    c.text(label, columns.unitPrice, { font, right: true })
    c.text(money(cents), columns.amount, { font, right: true })
    c.newLine()
  }
  total("Subtotal", input.subtotalCents)
  for (const tax of input.taxLines) total(tax.label, tax.cents)
  total("Total", input.totalCents, bold)
  if (input.paidCents !== null) total("Paid", input.paidCents)
  if (input.balanceCents !== null) total("Balance due", input.balanceCents, bold)
}

/** The memo, the payment instructions, and the footer on every page (bottom up from the margin). */
const drawClosing = (c: Canvas, input: PdfInput, footer: ReadonlyArray<string>) => {
  const regular = c.fonts.regular
  if (input.memo !== null && input.memo !== "") {
    c.newLine(10)
    c.text(c.clip(input.memo, pageWidth - 2 * margin, regular, 10), margin)
  }
  const instructions = (input.letterhead?.paymentInstructions ?? []).slice(0, textLinesMax)
  if (instructions.length > 0) {
    c.newLine(24)
    c.text("Payment instructions", margin, { font: c.fonts.bold, size: 9 })
    for (const instruction of instructions) {
      c.newLine(12)
      c.text(c.clip(instruction, pageWidth - 2 * margin, regular, 9), margin, { size: 9 })
    }
  }
  for (const each of c.pages) {
    footer.forEach((line, index) => {
      const shown = c.clip(line, pageWidth - 2 * margin, regular, 8)
      regular.drawText(each, shown, { x: margin, y: margin + (footer.length - 1 - index) * 10, size: 8, color: grey })
    })
  }
}

const draw = async (input: PdfInput): Promise<Uint8Array> => {
  const pdf = await PDFDocument.create({ updateMetadata: false })
  const created = new Date(input.createdAt)
  pdf.setTitle(PdfFonts.printable(`${input.title} ${input.number}`))
  pdf.setProducer("Ledger")
  pdf.setCreator("Ledger")
  pdf.setCreationDate(created)
  pdf.setModificationDate(created)
  const fonts = await PdfFonts.embed(pdf)
  const letterhead = input.letterhead
  const brand = colorOf(letterhead?.brandColor ?? null)
  const footer = (letterhead?.footer ?? []).slice(0, textLinesMax)
  const c = canvas(pdf, fonts, { bottom: margin + 30 + footer.length * 10, ink })
  // A PNG pdf-lib cannot read is left out, not fatal.
  const logo: PDFImage | null = letterhead?.logoPng == null ? null : await pdf.embedPng(letterhead.logoPng).catch(() => null)
  drawHeading(c, input, logo, brand)
  drawParties(c, input)
  drawLines(c, input, letterhead === null ? ink : brand)
  drawClosing(c, input, footer)
  return pdf.save()
}

/** Rendered in one job, off the request's thread when the server has a pool (ADR 2320). */
export const renderJob = HeavyWork.job("pdf.sales_document", draw)

export const render = (input: PdfInput): Effect.Effect<Uint8Array, ApiError.LedgerError> =>
  HeavyWork.run(renderJob, input).pipe(Effect.mapError(HeavyWork.renderRefusal))
