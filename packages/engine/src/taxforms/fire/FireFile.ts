import { type Amounts, amountCodes, recordLength, sum, usedCodes } from "./Fields.ts"
import * as Records from "./Records.ts"

/**
 * A whole Publication 1220 file: T, then for each payer (one per type of return) A, its B records,
 * C, its K records, then F; record sequence numbers run 1, 2, 3... through the file, and every
 * C record's totals are its B records' amounts added code by code. `check` reads a file back and
 * lists what breaks these rules.
 */

export interface PayerGroup {
  readonly payer: Omit<Records.Payer, "sequence" | "amountCodes" | "paymentYear">
  readonly payees: ReadonlyArray<Omit<Records.Payee, "sequence" | "paymentYear">>
  /** Combined Federal/State Filing Program: a K record per state code. */
  readonly states?: ReadonlyArray<{ readonly code: number; readonly stateTaxWithheld: number; readonly localTaxWithheld: number }>
}

export interface Input {
  readonly transmitter: Omit<Records.Transmitter, "sequence" | "payeeCount" | "paymentYear">
  readonly paymentYear: number
  readonly payers: ReadonlyArray<PayerGroup>
}

export const build = (input: Input): string => {
  const records: Array<string> = []
  let sequence = 1
  const payeeCount = input.payers.reduce((count, group) => count + group.payees.length, 0)
  records.push(Records.transmitter({ ...input.transmitter, paymentYear: input.paymentYear, payeeCount, sequence: sequence++ }))
  for (const group of input.payers) {
    const amounts = group.payees.map((payee) => payee.amounts)
    records.push(Records.payer({ ...group.payer, paymentYear: input.paymentYear, amountCodes: usedCodes(amounts), sequence: sequence++ }))
    for (const payee of group.payees) records.push(Records.payee({ ...payee, paymentYear: input.paymentYear, sequence: sequence++ }))
    records.push(Records.endOfPayer({ payeeCount: group.payees.length, totals: sum(amounts), sequence: sequence++ }))
    for (const state of group.states ?? []) {
      const inState = group.payees.filter((payee) => payee.combinedFederalStateCode === state.code)
      records.push(Records.stateTotals({
        payeeCount: inState.length,
        totals: sum(inState.map((payee) => payee.amounts)),
        sequence: sequence++,
        stateTaxWithheld: state.stateTaxWithheld,
        localTaxWithheld: state.localTaxWithheld,
        combinedFederalStateCode: state.code
      }))
    }
  }
  records.push(Records.endOfTransmission({ payerCount: input.payers.length, payeeCount, sequence: sequence++ }))
  return records.join("")
}

const amountsOf = (record: string, position: number, width: number): Amounts =>
  Object.fromEntries(amountCodes.map((code, index) => [code, Number(record.slice(position - 1 + index * width, position - 1 + (index + 1) * width))]))

/** What is wrong with a file, or nothing: lengths, order, sequence numbers, counts and control totals. */
export const check = (file: string): Array<string> => {
  const problems: Array<string> = []
  if (file.length % recordLength !== 0) problems.push(`the file is ${file.length} bytes, not a multiple of ${recordLength}`)
  const records = Records.split(file)
  const types = records.map((record) => record[0]).join("")
  if (!/^T(AB*CK*)+F$/.test(types)) problems.push(`the records are ${types}, not T, then A B... C K... per payer, then F`)
  records.forEach((record, index) => {
    if (record.length !== recordLength) problems.push(`record ${index + 1} is ${record.length} bytes`)
    if (Number(Records.field(record, 500, 8)) !== index + 1) problems.push(`record ${index + 1} carries sequence ${Records.field(record, 500, 8)}`)
  })
  let payees: Array<Amounts> = []
  let all = 0
  for (const record of records) {
    if (record[0] === "A") payees = []
    if (record[0] === "B") payees.push(amountsOf(record, 55, 12))
    if (record[0] === "C") {
      all += payees.length
      if (Number(Records.field(record, 2, 8)) !== payees.length) problems.push(`a C record counts ${Records.field(record, 2, 8)} payees, not ${payees.length}`)
      const totals = amountsOf(record, 16, 18)
      const expected = sum(payees)
      for (const code of amountCodes) {
        if ((totals[code] ?? 0) !== (expected[code] ?? 0)) problems.push(`a C record's total ${code} is ${totals[code]}, not ${expected[code] ?? 0}`)
      }
    }
    if (record[0] === "F" && Number(Records.field(record, 50, 8)) !== all) problems.push(`the F record counts ${Records.field(record, 50, 8)} payees, not ${all}`)
  }
  return problems
}
