import { type Amounts, amountCodes, Record, recordLength, writeAmounts } from "./Fields.ts"

/**
 * The six records of an IRS Publication 1220 (FIRE) file, positions as the publication gives
 * them: T (transmitter), A (payer), B (payee), C (end of payer), K (state totals, for the
 * Combined Federal/State Filing Program), F (end of transmission). Each encoder writes exactly
 * 750 bytes; positions 749-750 stay blank (the publication allows blanks or CR/LF there).
 */

export interface Transmitter {
  readonly paymentYear: number
  readonly priorYearData: boolean
  readonly tin: string
  readonly controlCode: string
  readonly test: boolean
  readonly foreignEntity: boolean
  readonly name: string
  readonly nameContinued?: string
  readonly companyName: string
  readonly companyNameContinued?: string
  readonly address: string
  readonly city: string
  readonly state: string
  readonly zip: string
  readonly payeeCount: number
  readonly contactName: string
  readonly contactPhone: string
  readonly contactEmail: string
  readonly sequence: number
  /** Software vendor: `V` a vendor's software, `I` in-house. */
  readonly vendorIndicator: "V" | "I"
  readonly vendor?: {
    readonly name: string
    readonly address: string
    readonly city: string
    readonly state: string
    readonly zip: string
    readonly contactName: string
    readonly contactPhone: string
    readonly foreignEntity: boolean
  }
}

export const transmitter = (t: Transmitter): string => {
  const record = new Record()
    .alpha(1, 1, "T").numeric(2, 4, t.paymentYear).alpha(6, 1, t.priorYearData ? "P" : "")
    .alpha(7, 9, t.tin).alpha(16, 5, t.controlCode).alpha(28, 1, t.test ? "T" : "").alpha(29, 1, t.foreignEntity ? "1" : "")
    .alpha(30, 40, t.name).alpha(70, 40, t.nameContinued).alpha(110, 40, t.companyName).alpha(150, 40, t.companyNameContinued)
    .alpha(190, 40, t.address).alpha(230, 40, t.city).alpha(270, 2, t.state).digits(272, 9, t.zip)
    .numeric(296, 8, t.payeeCount).alpha(304, 40, t.contactName).digits(344, 15, t.contactPhone).alpha(359, 50, t.contactEmail)
    .numeric(500, 8, t.sequence).alpha(518, 1, t.vendorIndicator)
  const v = t.vendor
  if (v !== undefined) {
    record.alpha(519, 40, v.name).alpha(559, 40, v.address).alpha(599, 40, v.city).alpha(639, 2, v.state).digits(641, 9, v.zip)
      .alpha(650, 40, v.contactName).digits(690, 15, v.contactPhone).alpha(740, 1, v.foreignEntity ? "1" : "")
  }
  return record.toString()
}

export interface Payer {
  readonly paymentYear: number
  readonly combinedFederalState: boolean
  readonly tin: string
  readonly nameControl: string
  readonly lastFiling: boolean
  /** `NE` 1099-NEC, `A` 1099-MISC, ... */
  readonly typeOfReturn: string
  readonly amountCodes: string
  readonly foreignEntity: boolean
  readonly name: string
  readonly name2?: string
  /** The second name line is a transfer agent's name. */
  readonly transferAgent: boolean
  readonly address: string
  readonly city: string
  readonly state: string
  readonly zip: string
  readonly phone: string
  readonly sequence: number
}

export const payer = (a: Payer): string =>
  new Record()
    .alpha(1, 1, "A").numeric(2, 4, a.paymentYear).alpha(6, 1, a.combinedFederalState ? "1" : "")
    .alpha(12, 9, a.tin).alpha(21, 4, a.nameControl).alpha(25, 1, a.lastFiling ? "1" : "")
    .alpha(26, 2, a.typeOfReturn).alpha(28, 18, a.amountCodes).alpha(52, 1, a.foreignEntity ? "1" : "")
    .alpha(53, 40, a.name).alpha(93, 40, a.name2).alpha(133, 1, a.transferAgent ? "1" : "0")
    .alpha(134, 40, a.address).alpha(174, 40, a.city).alpha(214, 2, a.state).digits(216, 9, a.zip).digits(225, 15, a.phone)
    .numeric(500, 8, a.sequence).toString()

export interface Payee {
  readonly paymentYear: number
  /** Blank for an original; `G` a one-transaction correction (or the first of two), `C` the second of two. */
  readonly corrected: "" | "G" | "C"
  readonly nameControl: string
  /** `1` EIN, `2` SSN, ITIN or ATIN, blank unknown. */
  readonly typeOfTin: "1" | "2" | ""
  readonly tin: string
  readonly accountNumber?: string
  readonly officeCode?: string
  readonly amounts: Amounts
  readonly foreignCountry: boolean
  readonly name: string
  readonly name2?: string
  readonly address: string
  readonly city: string
  readonly state: string
  readonly zip: string
  readonly sequence: number
  readonly secondTinNotice: boolean
  readonly directSales: boolean
  /** 1099-MISC only (position 548). */
  readonly fatca?: boolean
  readonly specialData?: string
  readonly stateTaxWithheld: number
  readonly localTaxWithheld: number
  /** The Combined Federal/State Filing Program's state code, 0 when not used. */
  readonly combinedFederalStateCode: number
}

export const payee = (b: Payee): string => {
  const record = new Record()
    .alpha(1, 1, "B").numeric(2, 4, b.paymentYear).alpha(6, 1, b.corrected).alpha(7, 4, b.nameControl)
    .alpha(11, 1, b.typeOfTin).alpha(12, 9, b.tin).alpha(21, 20, b.accountNumber).alpha(41, 4, b.officeCode)
  writeAmounts(record, 55, 12, b.amounts)
  return record
    .alpha(287, 1, b.foreignCountry ? "1" : "").alpha(288, 40, b.name).alpha(328, 40, b.name2)
    .alpha(368, 40, b.address).alpha(448, 40, b.city).alpha(488, 2, b.state).digits(490, 9, b.zip)
    .numeric(500, 8, b.sequence).alpha(544, 1, b.secondTinNotice ? "2" : "").alpha(547, 1, b.directSales ? "1" : "")
    .alpha(548, 1, b.fatca === true ? "1" : "").alpha(663, 60, b.specialData)
    .numeric(723, 12, b.stateTaxWithheld).numeric(735, 12, b.localTaxWithheld)
    .alpha(747, 2, b.combinedFederalStateCode === 0 ? "" : String(b.combinedFederalStateCode).padStart(2, "0"))
    .toString()
}

export interface Totals {
  readonly payeeCount: number
  readonly totals: Amounts
  readonly sequence: number
}

export const endOfPayer = (c: Totals): string =>
  writeAmounts(new Record().alpha(1, 1, "C").numeric(2, 8, c.payeeCount), 16, 18, c.totals).numeric(500, 8, c.sequence).toString()

export interface StateTotals extends Totals {
  readonly stateTaxWithheld: number
  readonly localTaxWithheld: number
  readonly combinedFederalStateCode: number
}

export const stateTotals = (k: StateTotals): string =>
  writeAmounts(new Record().alpha(1, 1, "K").numeric(2, 8, k.payeeCount), 16, 18, k.totals).numeric(500, 8, k.sequence)
    .numeric(707, 18, k.stateTaxWithheld).numeric(725, 18, k.localTaxWithheld).numeric(747, 2, k.combinedFederalStateCode)
    .toString()

export interface EndOfTransmission {
  readonly payerCount: number
  readonly payeeCount: number
  readonly sequence: number
}

export const endOfTransmission = (f: EndOfTransmission): string =>
  new Record().alpha(1, 1, "F").numeric(2, 8, f.payerCount).numeric(10, 21, 0).numeric(50, 8, f.payeeCount)
    .numeric(500, 8, f.sequence).toString()

/** The records of a file (750 bytes each, nothing between them, or CR/LF in positions 749-750). */
export const split = (file: string): Array<string> => {
  const records: Array<string> = []
  for (let at = 0; at < file.length; at += recordLength) records.push(file.slice(at, at + recordLength))
  return records
}

/** A field of a record by 1-based position, trimmed. */
export const field = (record: string, position: number, length: number): string => record.slice(position - 1, position - 1 + length).trim()

const flag = (record: string, position: number, on: string) => record[position - 1] === on

/** A B record read back into its fields (recipient copies; the round-trip tests). */
export const readPayee = (record: string): Payee => ({
  paymentYear: Number(field(record, 2, 4)),
  corrected: field(record, 6, 1) as Payee["corrected"],
  nameControl: field(record, 7, 4),
  typeOfTin: field(record, 11, 1) as Payee["typeOfTin"],
  tin: field(record, 12, 9),
  accountNumber: field(record, 21, 20),
  officeCode: field(record, 41, 4),
  amounts: Object.fromEntries(amountCodes.map((code, index) => [code, Number(record.slice(54 + index * 12, 66 + index * 12))])),
  foreignCountry: flag(record, 287, "1"),
  name: field(record, 288, 40),
  name2: field(record, 328, 40),
  address: field(record, 368, 40),
  city: field(record, 448, 40),
  state: field(record, 488, 2),
  zip: field(record, 490, 9),
  sequence: Number(field(record, 500, 8)),
  secondTinNotice: flag(record, 544, "2"),
  directSales: flag(record, 547, "1"),
  fatca: flag(record, 548, "1"),
  specialData: field(record, 663, 60),
  stateTaxWithheld: Number(field(record, 723, 12)),
  localTaxWithheld: Number(field(record, 735, 12)),
  combinedFederalStateCode: Number(field(record, 747, 2) || "0")
})
