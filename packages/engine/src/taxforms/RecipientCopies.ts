import { Clock, Effect } from "effect"
import Papa from "papaparse"
import { PDFDocument, rgb } from "pdf-lib"
import { TaxForms } from "@ledger/api"
import { requireCompanyId } from "../kernel/CompanyContext.ts"
import * as Handler from "../kernel/Handler.ts"
import * as PdfFonts from "../kernel/PdfFonts.ts"
import { Csv } from "../reports/index.ts"
import * as FilingStore from "./FilingStore.ts"
import * as FormsStore from "./FormsStore.ts"
import { amountCodes } from "./fire/Fields.ts"
import * as fire from "./fire/Records.ts"

/**
 * Copy B for each recipient of a filing, one page each, read back from the filing's masked
 * content: exactly what was filed, with the recipient's TIN truncated to its last four digits as
 * the IRS allows on recipient statements, and the payer's TIN in full, read from the sealed filed
 * file: a filer may never truncate its own TIN (Treas. Reg. 301.6109-4; ADR 1310). Set in the engine's Unicode font
 * (kernel/PdfFonts.ts), so a recipient's name prints as it was entered.
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
      payer = [fire.field(record, 53, 40), fire.field(record, 134, 40), `${fire.field(record, 174, 40)}, ${fire.field(record, 214, 2)} ${fire.field(record, 216, 9)}`, `Telephone ${fire.field(record, 225, 15)}`]
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

const fromCsv = (content: string, payer: ReadonlyArray<string>): Array<Copy> => {
  const rows = Papa.parse<Record<string, string>>(content, { header: true, skipEmptyLines: true }).data
  return rows.map((row) => ({
    form: row.Form ?? "",
    corrected: (row.Corrected ?? "") !== "",
    payer,
    name: row["Recipient Name"] ?? "",
    address: [row.Address ?? "", `${row.City ?? ""}, ${row.State ?? ""} ${row.ZIP ?? ""}`],
    tin: `***-**-${(row["Recipient TIN"] ?? "").slice(-4)}`,
    account: row["Account Number"] ?? "",
    boxes: Object.entries(row).flatMap(([key, value]) => key.startsWith("Box ") && value !== "" && value !== "0.00" ? [[key, Math.round(Number(value) * 100)] as const] : [])
  }))
}

/** The payer's TIN as filed: the A record's (Publication 1220 positions 12-20) or the CSV's column. */
export const payerTinOf = (format: string, full: string): string => {
  if (format === "csv") return Papa.parse<Record<string, string>>(full, { header: true, skipEmptyLines: true }).data[0]?.["Payer TIN"] ?? ""
  const a = fire.split(full).find((record) => record[0] === "A")
  return a === undefined ? "" : fire.field(a, 12, 9)
}

/** Nine digits written the way the payer's kind of TIN is written (12-3456789 or 123-45-6789). */
export const payerTinShown = (tin: string, tinType: unknown): string => {
  const digits = tin.replace(/\D/g, "")
  if (digits.length !== 9) return tin
  return tinType === "EIN" ? `${digits.slice(0, 2)}-${digits.slice(2)}` : `${digits.slice(0, 3)}-${digits.slice(3, 5)}-${digits.slice(5)}`
}

/** The CSV holds no payer name or address: Copy B takes them from the payer record. */
const payerLines = (row: Record<string, unknown> | undefined): Array<string> => {
  const payer = FormsStore.payer(row)
  return [payer.name ?? "", payer.address1 ?? "", `${payer.city ?? ""}, ${payer.state ?? ""} ${payer.zip ?? ""}`, `Telephone ${payer.phone ?? ""}`]
}

/**
 * The copies as one PDF, dated by the Effect clock: pdf-lib would stamp its creation and
 * modification dates from the wall clock, which no test clock governs.
 */
const render = (year: number, copies: ReadonlyArray<Copy>) =>
  Effect.flatMap(Clock.currentTimeMillis, (now) => Effect.promise(async () => {
    const pdf = await PDFDocument.create({ updateMetadata: false })
    pdf.setProducer("Ledger")
    pdf.setCreator("Ledger")
    pdf.setCreationDate(new Date(now))
    pdf.setModificationDate(new Date(now))
    const { regular, bold } = await PdfFonts.embed(pdf)
    for (const copy of copies) {
      const page = pdf.addPage([612, 396])
      let y = 360
      const write = (text: string, size = 10, font = regular) => {
        font.drawText(page, text, { x: 40, y, size, color: rgb(0.1, 0.1, 0.1) })
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
  }))

export const handlers = [
  Handler.make(TaxForms.Filings.getRecipientCopies, ({ path, query }) =>
    Effect.gen(function*() {
      const company = yield* requireCompanyId
      const row = yield* FilingStore.load(company, path.id)
      const full = yield* FormsStore.open(String(row.file_sealed), FilingStore.fileBinding(company, String(row.preview_sha256)))
      const payerRow = yield* FormsStore.payerRow(company)
      const payerTin = `PAYER'S TIN ${payerTinShown(payerTinOf(String(row.file_format), full), payerRow?.tin_type)}`
      const all = row.file_format === "csv"
        ? fromCsv(String(row.content_masked), [...payerLines(payerRow), payerTin])
        : fromFire(String(row.content_masked)).map((copy) => ({ ...copy, payer: [...copy.payer, payerTin] }))
      const copies = query.contact_id === undefined ? all : all.filter((copy) => copy.account === String(query.contact_id))
      const bytes = yield* render(Number(row.year), copies)
      let binary = ""
      for (const byte of bytes) binary += String.fromCharCode(byte)
      return { body: { filename: `1099-copy-b-${String(row.year)}-filing-${path.id}.pdf`, content_type: "application/pdf" as const, size_bytes: bytes.byteLength, content_base64: btoa(binary) } }
    }))
]
