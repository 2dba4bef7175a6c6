import { Effect } from "effect"
import { PDFDocument, type PDFImage, rgb } from "pdf-lib"
import type { Profile } from "@ledger/api"
import * as PdfFonts from "../kernel/PdfFonts.ts"
import * as HeavyWork from "../kernel/offload/HeavyWork.ts"
import { ApiError } from "@ledger/api"

/**
 * A sample document drawn with the profile (pdf-lib, as sales draws its PDFs): the logo (PNG;
 * an SVG logo is named, since pdf-lib draws no SVG), the names and address, the brand colour on
 * the title and rules, sample lines, payment instructions and the footer. Nothing is posted.
 * Set in the engine's Unicode font (kernel/PdfFonts.ts), so every character of the profile prints.
 */

export type Kind = "invoice" | "estimate" | "sales_receipt" | "credit_memo"

const titles: Record<Kind, string> = { invoice: "INVOICE", estimate: "ESTIMATE", sales_receipt: "SALES RECEIPT", credit_memo: "CREDIT MEMO" }

/** One printed line: the font's characters, at most `max` of them. */
const printable = (text: string, max: number): string => Array.from(PdfFonts.printable(text)).slice(0, max).join("")

const colorOf = (hex: string | null) =>
  hex === null ? rgb(0.1, 0.1, 0.1) : rgb(Number.parseInt(hex.slice(1, 3), 16) / 255, Number.parseInt(hex.slice(3, 5), 16) / 255, Number.parseInt(hex.slice(5, 7), 16) / 255)

const draw = async (input: {
  readonly kind: Kind
  readonly profile: Profile.Records.Profile
  readonly companyName: string
  readonly logoPng: Uint8Array | null
  readonly at: string
}): Promise<Uint8Array> => {
  const pdf = await PDFDocument.create({ updateMetadata: false })
  const created = new Date(input.at)
  pdf.setTitle(`${titles[input.kind]} preview`)
  pdf.setProducer("Ledger")
  pdf.setCreationDate(created)
  pdf.setModificationDate(created)
  const page = pdf.addPage([612, 792])
  const { regular: font, bold } = await PdfFonts.embed(pdf)
  const brand = colorOf(input.profile.brand_color)
  const p = input.profile
  let y = 742
  const line = (text: string, size = 10, useBold = false, x = 50) => {
    (useBold ? bold : font).drawText(page, printable(text, 110), { x, y, size, color: rgb(0.1, 0.1, 0.1) })
    y -= size + 4
  }
  const image: PDFImage | null = input.logoPng === null ? null : await pdf.embedPng(input.logoPng).catch(() => null)
  if (image !== null) {
    const scale = Math.min(120 / image.width, 60 / image.height, 1)
    page.drawImage(image, { x: 442, y: 712, width: image.width * scale, height: image.height * scale })
  }
  bold.drawText(page, titles[input.kind], { x: 50, y, size: 20, color: brand })
  y -= 30
  line(p.legal_name ?? input.companyName, 12, true)
  if (p.dba !== null) line(`DBA ${p.dba}`)
  for (const part of [p.address_line1, p.address_line2, [p.city, p.region, p.postal_code].filter((x) => x !== null).join(" "), p.country]) {
    if (part !== null && part !== "") line(part)
  }
  for (const part of [p.phone, p.email, p.website, p.show_ein && p.ein !== null ? `EIN ${p.ein}` : null, p.sales_tax_id === null ? null : `Sales tax ID ${p.sales_tax_id}`]) {
    if (part !== null) line(part)
  }
  y -= 10
  page.drawRectangle({ x: 50, y, width: 512, height: 2, color: brand })
  y -= 20
  line("Sample line: consulting services            1 x 1,000.00            1,000.00")
  line("Total                                                                      1,000.00", 11, true)
  y -= 10
  for (const text of (p.payment_instructions ?? "").split("\n").filter((t) => t !== "")) line(text, 9)
  y = 60
  for (const text of (p.footer_text ?? "").split("\n").filter((t) => t !== "").slice(0, 12)) {
    font.drawText(page, printable(text, 120), { x: 50, y, size: 8, color: rgb(0.35, 0.35, 0.35) })
    y -= 10
  }
  return pdf.save({ useObjectStreams: false })
}

/** Rendered in one job, off the request's thread when the server has a pool (ADR 2320). */
export const renderJob = HeavyWork.job("pdf.preview", draw)

export const render = (input: {
  readonly kind: Kind
  readonly profile: Profile.Records.Profile
  readonly companyName: string
  readonly logoPng: Uint8Array | null
  readonly at: string
}): Effect.Effect<Uint8Array, ApiError.LedgerError> =>
  HeavyWork.run(renderJob, input).pipe(Effect.mapError(HeavyWork.renderRefusal))
