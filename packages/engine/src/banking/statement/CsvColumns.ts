import type { Banking } from "@ledger/api"
import type { DecimalSeparator } from "../../kernel/values/Money.ts"
import { findByWords, headerWords, normalize } from "./CsvHeader.ts"
import { UnreadableStatement } from "./Statement.ts"

/**
 * Which columns of a bank's CSV export hold what (Csv.ts): the profile's names or positions, else
 * found by their header words; and the decimal mark of the amounts, from their values.
 */

type Profile = Banking.Records.CsvProfile
type Column = string | number

/** A row of the file: its fields and the file line it starts on. */
export interface Row {
  readonly fields: ReadonlyArray<string>
  readonly line: number
}

export interface Columns {
  date: number
  amount?: number
  debit?: number
  credit?: number
  type?: number
  payee?: number
  memo: Array<number>
  id?: number
  checkNumber?: number
}

const resolve = (column: Column | undefined, header: ReadonlyArray<string> | null, role: string): number | undefined => {
  if (column === undefined) return undefined
  if (typeof column === "number") return column
  if (header === null) throw new UnreadableStatement(`the profile names the ${role} column "${column}" but the file has no header row`, 1)
  const index = header.findIndex((cell) => normalize(cell) === normalize(column))
  if (index < 0) throw new UnreadableStatement(`the header row has no column "${column}" (the profile's ${role} column)`, 1)
  return index
}

export const columnsOf = (profile: Profile, header: ReadonlyArray<string> | null, headerLine: number): Columns => {
  const taken = new Set<number>()
  const pick = (value: Column | undefined, role: string, words: ReadonlyArray<string> | null): number | undefined => {
    const explicit = resolve(value, header, role)
    const index = explicit ?? (header === null || words === null ? undefined : findByWords(header, words, taken))
    if (index !== undefined) taken.add(index)
    return index
  }
  const date = pick(profile.date_column, "date", headerWords.date)
  const explicitSplit = profile.debit_column !== undefined || profile.credit_column !== undefined
  const amount = pick(profile.amount_column, "amount", explicitSplit ? null : headerWords.amount)
  const debit = amount === undefined ? pick(profile.debit_column, "debit", headerWords.debit) : undefined
  const credit = amount === undefined ? pick(profile.credit_column, "credit", headerWords.credit) : undefined
  const id = pick(profile.id_column, "id", headerWords.id)
  const checkNumber = pick(profile.check_number_column, "check number", headerWords.checkNumber)
  const type = pick(profile.type_column, "type", profile.debit_types === undefined && header !== null ? headerWords.type : null)
  const payee = pick(profile.payee_column, "payee", headerWords.payee)
  const memo = profile.memo_columns !== undefined
    ? profile.memo_columns.map((column) => resolve(column, header, "memo")!)
    : [pick(undefined, "memo", headerWords.memo)].filter((index): index is number => index !== undefined)
  if (date === undefined) {
    throw new UnreadableStatement(
      header === null
        ? "the file has no header row naming its columns: give a csv_profile with date_column and the amount columns"
        : "no date column was found in the header row: name it in the csv_profile's date_column",
      headerLine
    )
  }
  if (amount === undefined && debit === undefined && credit === undefined) {
    throw new UnreadableStatement("no amount column was found: name amount_column, or debit_column and credit_column, in the csv_profile", headerLine)
  }
  return {
    date,
    ...(amount === undefined ? {} : { amount }),
    ...(debit === undefined ? {} : { debit }),
    ...(credit === undefined ? {} : { credit }),
    ...(type === undefined ? {} : { type }),
    ...(payee === undefined ? {} : { payee }),
    memo,
    ...(id === undefined ? {} : { id }),
    ...(checkNumber === undefined ? {} : { checkNumber })
  }
}

/** The decimal mark of the amount columns, from their values. */
export const detectDecimal = (rows: ReadonlyArray<Row>, columns: ReadonlyArray<number | undefined>): DecimalSeparator | undefined => {
  let comma = 0
  let dot = 0
  for (const row of rows) {
    for (const column of columns) {
      if (column === undefined) continue
      const value = (row.fields[column] ?? "").trim()
      if (/,\d{1,2}(?:\D*)$/u.test(value) && !/\.\d{1,2}(?:\D*)$/u.test(value)) comma++
      else if (/\.\d{1,2}(?:\D*)$/u.test(value)) dot++
    }
  }
  if (comma > dot) return ","
  if (dot > comma) return "."
  return undefined
}
