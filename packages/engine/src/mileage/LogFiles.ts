import { Effect } from "effect"
import { Base64 } from "effect/encoding"
import { PDFDocument, type PDFPage } from "pdf-lib"
import type { Mileage } from "@ledger/api"
import * as PdfFonts from "../kernel/PdfFonts.ts"

type PDFFont = PdfFonts.Face
import { Csv } from "../reports/index.ts"

/**
 * The mileage log in the form an auditor accepts (IRS Publication 463, chapter 5: a record made at
 * or near the time, with the date, the places, the business purpose and the miles; plus the
 * odometer at the start and end of the year): CSV (RFC 4180, the reports' writer) and PDF, set in
 * the engine's Unicode font (kernel/PdfFonts.ts) so places and purposes print as written.
 */
export interface LogInput {
  readonly companyName: string
  readonly year: number
  readonly trips: ReadonlyArray<Mileage.Trips.Trip>
  readonly vehicles: ReadonlyMap<number, string>
  readonly odometer: ReadonlyArray<{ readonly vehicle_name: string; readonly start_miles: number | null; readonly end_miles: number | null }>
  readonly createdAt: string
}

export const header = ["Date", "Vehicle", "From", "To", "Purpose", "Kind", "Miles one way", "Round trip", "Miles", "Trip id", "Replaces trip"]

const cells = (input: LogInput, trip: Mileage.Trips.Trip) => [
  trip.trip_date,
  input.vehicles.get(trip.vehicle_id) ?? String(trip.vehicle_id),
  trip.from_place,
  trip.to_place,
  trip.purpose ?? "",
  trip.kind,
  trip.miles.toFixed(1),
  trip.round_trip ? "yes" : "no",
  trip.total_miles.toFixed(1),
  String(trip.id),
  trip.replaces_trip_id === null ? "" : String(trip.replaces_trip_id)
]

export const csv = (input: LogInput) => ({
  format: "csv" as const,
  filename: `mileage-log-${input.year}.csv`,
  content_type: "text/csv",
  content: Csv.render(header, input.trips.map((trip) => cells(input, trip)))
})

const printable = PdfFonts.printable
const columnsX = [40, 100, 170, 270, 370, 500, 540]
const fit = (font: PDFFont, text: string, width: number, size: number): string => {
  // Hardly any glyph is narrower than a tenth of the size, so longer text cannot fit: cut it first.
  let shown = Array.from(printable(text)).slice(0, Math.ceil(width / (size / 10)))
  while (shown.length > 1 && font.widthOfTextAtSize(shown.join(""), size) > width) shown = shown.slice(0, -1)
  return shown.join("")
}

const drawRow = (page: PDFPage, font: PDFFont, y: number, values: ReadonlyArray<string>, size = 8) =>
  values.forEach((value, index) => {
    const width = (columnsX[index + 1] ?? 580) - columnsX[index]! - 4
    font.drawText(page, fit(font, value, width, size), { x: columnsX[index]!, y, size })
  })

export const pdf = (input: LogInput) =>
  Effect.promise(async () => {
    const document = await PDFDocument.create({ updateMetadata: false })
    const created = new Date(input.createdAt)
    document.setTitle(`Mileage log ${input.year}`)
    document.setProducer("Ledger")
    document.setCreationDate(created)
    document.setModificationDate(created)
    const { regular: font, bold } = await PdfFonts.embed(document)
    let page = document.addPage([612, 792])
    let y = 750
    bold.drawText(page, `Mileage log ${input.year} - ${input.companyName}`, { x: 40, y, size: 14 })
    y -= 18
    for (const reading of input.odometer) {
      font.drawText(page, `${reading.vehicle_name}: odometer start ${reading.start_miles ?? "-"}, end ${reading.end_miles ?? "-"}`, { x: 40, y, size: 9 })
      y -= 12
    }
    y -= 8
    const titles = ["Date", "Vehicle", "From", "To", "Purpose", "Kind", "Miles"]
    drawRow(page, bold, y, titles, 9)
    y -= 14
    for (const trip of input.trips) {
      if (y < 50) {
        page = document.addPage([612, 792])
        y = 750
        drawRow(page, bold, y, titles, 9)
        y -= 14
      }
      const row = cells(input, trip)
      drawRow(page, font, y, [row[0]!, row[1]!, row[2]!, row[3]!, row[4]!, row[5]!, row[8]!])
      y -= 12
    }
    const business = input.trips.filter((trip) => trip.kind === "business").reduce((sum, trip) => sum + trip.total_tenths, 0)
    const total = input.trips.reduce((sum, trip) => sum + trip.total_tenths, 0)
    if (y < 60) {
      page = document.addPage([612, 792])
      y = 750
    }
    bold.drawText(page, `Business miles ${(business / 10).toFixed(1)} of ${(total / 10).toFixed(1)} logged`, { x: 40, y: y - 10, size: 10 })
    const bytes = await document.save()
    return {
      format: "pdf" as const,
      filename: `mileage-log-${input.year}.pdf`,
      content_type: "application/pdf",
      size_bytes: bytes.length,
      content_base64: Base64.encode(bytes)
    }
  })
