import { Effect } from "effect"
import Papa from "papaparse"
import { PDFDocument, rgb, StandardFonts } from "pdf-lib"
import { TaxForms } from "@ledger/api"
import { requireCompanyId } from "../kernel/CompanyContext.ts"
import * as Handler from "../kernel/Handler.ts"
import { Csv } from "../reports/index.ts"
import * as FilingStore from "./FilingStore.ts"
import { amountCodes } from "./fire/Fields.ts"
import * as fire from "./fire/Records.ts"

/**
 * Copy B for each recipient of a filing, one page each, read back from the filing's masked
 * content: exactly what was filed, with the recipient's TIN truncated to its last four digits as
 * the IRS allows on recipient statements (ADR 1310).
 */

interface Copy {
  readonly form: string
  readonly corrected: boolean
  readonly payer: ReadonlyArray<string>
  readonly name: string
  readonly address: ReadonlyArray<string>
  readonly tin: string
  readonly account: string
  readonly boxes: ReadonlyArray<readonly [string, number]>
}

const necBoxes: Record<string, string> = { "1": "1 Nonemployee compensation", "4": "4 Federal income tax withheld" }
const miscBoxes: Record<string, string> = { "1": "1 Rents", "2": "2 Royalties", "3": "3 Other income", "4": "4 Federal income tax withheld", "6": "6 Medical and health care payments", C: "10 Gross proceeds paid to an attorney" }

const fromFire = (content: string): Array<Copy> => {
  const copies: Array<Copy> = []
  let payer: Array<string> = []
  let nec = true
  for (const record of fire.split(content)) {
    if (record[0] === "A") {
      nec = fire.field(record, 26, 2) === "NE"
      payer = [fire.field(record, 53, 40), fire.field(record, 134, 40), `${fire.field(record, 174, 40)}, ${fire.field(record, 214, 2)} ${fire.field(record, 216, 9)}`, `TIN ${fire.field(record, 12, 9)}`]
    }
    if (record[0] !== "B") continue
    const labels = nec ? necBoxes : miscBoxes
    const payee = fire.readPayee(record)
    copies.push({
      form: nec ? "1099-NEC" : "1099-MISC",
      corrected: payee.corrected !== "",
      payer,
      name: payee.name,
      address: [payee.address, `${payee.city}, ${payee.state} ${payee.zip}`],
      tin: `***-**-${payee.tin.slice(-4)}`,
      account: payee.accountNumber ?? "",
      boxes: amountCodes.flatMap((code) => {
        const cents = payee.amounts[code] ?? 0
        return labels[code] === undefined || cents === 0 ? [] : [[labels[code]!, cents] as const]
      })
    })
  }
  return copies
}

const fromCsv = (content: string): Array<Copy> => {
  const rows = Papa.parse<Record<string, string>>(content, { header: true, skipEmptyLines: true }).data
  return rows.map((row) => ({
    form: row.Form ?? "",
    corrected: (row.Corrected ?? "") !== "",
    payer: [`TIN ${row["Payer TIN"] ?? ""}`],
    name: row["Recipient Name"] ?? "",
    address: [row.Address ?? "", `${row.City ?? ""}, ${row.State ?? ""} ${row.ZIP ?? ""}`],
    tin: `***-**-${(row["Recipient TIN"] ?? "").slice(-4)}`,
    account: row["Account Number"] ?? "",
    boxes: Object.entries(row).flatMap(([key, value]) => key.startsWith("Box ") && value !== "" && value !== "0.00" ? [[key, Math.round(Number(value) * 100)] as const] : [])
  }))
}

const render = (year: number, copies: ReadonlyArray<Copy>) =>
  Effect.promise(async () => {
    const pdf = await PDFDocument.create()
    const regular = await pdf.embedFont(StandardFonts.Helvetica)
    const bold = await pdf.embedFont(StandardFonts.HelveticaBold)
    for (const copy of copies) {
      const page = pdf.addPage([612, 396])
      let y = 360
      const write = (text: string, size = 10, font = regular) => {
        page.drawText(text.replace(/[^\x20-\x7E]/g, " "), { x: 40, y, size, font, color: rgb(0.1, 0.1, 0.1) })
        y -= size + 6
      }
      write(`Form ${copy.form}  ${year}${copy.corrected ? "  CORRECTED" : ""}`, 14, bold)
      write("Copy B For Recipient. This is important tax information and is being furnished to the IRS.", 8)
      write("PAYER", 9, bold)
      for (const line of copy.payer) write(line)
      write("RECIPIENT", 9, bold)
      for (const line of [copy.name, ...copy.address, `TIN ${copy.tin}`, `Account number ${copy.account}`]) write(line)
      write("AMOUNTS", 9, bold)
      for (const [label, cents] of copy.boxes) write(`Box ${label}: $${Csv.amount(cents)}`)
    }
    return pdf.save()
  })

export const handlers = [
  Handler.make(TaxForms.Filings.getRecipientCopies, ({ path, query }) =>
    Effect.gen(function*() {
      const company = yield* requireCompanyId
      const row = yield* FilingStore.load(company, path.id)
      const all = row.file_format === "csv" ? fromCsv(String(row.content_masked)) : fromFire(String(row.content_masked))
      const copies = query.contact_id === undefined ? all : all.filter((copy) => copy.account === String(query.contact_id))
      const bytes = yield* render(Number(row.year), copies)
      let binary = ""
      for (const byte of bytes) binary += String.fromCharCode(byte)
      return { body: { filename: `1099-copy-b-${String(row.year)}-filing-${path.id}.pdf`, content_type: "application/pdf" as const, size_bytes: bytes.byteLength, content_base64: btoa(binary) } }
    }))
]
