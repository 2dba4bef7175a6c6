import type { Banking } from "@ledger/api"
import { parseDate } from "./Dates.ts"

/**
 * Which row of a bank's CSV is its header, and which column holds what by the header's words
 * (docs/decisions/0401): the profile's own column names when it gives them, else the built-in words
 * in English, German, French, Dutch, Spanish, Portuguese, Czech and Hungarian.
 */

type Profile = Banking.Records.CsvProfile

/** Header words per role, normalized (lower case, no accents). Earlier words win. */
export const headerWords = {
  date: [
    "date", "datum", "data", "fecha", "posted date", "posting date", "booking date", "buchungstag", "transaction date",
    "date processed", "journaldate", "created", "date de valeur", "date de l'operation", "tranzakcio datuma",
    "datum provedeni", "datum verrichting", "belegdatum", "buchungsdatum", "transaction date"
  ],
  amount: [
    "amount", "betrag", "bedrag", "montant", "valor", "importe", "netamount", "buchungsbetrag", "amount (eur)",
    "betrag (eur)", "tranzakcio osszege", "zauctovana castka", "amount czk", "montant de l'operation", "net", "gross"
  ],
  debit: ["debit", "withdrawal", "withdrawals", "paid out", "debet", "debit amount", "money out", "outflow", "uitgaven"],
  credit: ["credit", "deposit", "deposits", "paid in", "credit amount", "money in", "inflow", "inkomsten"],
  payee: [
    "payee", "name", "merchant name", "description", "naam tegenpartij", "naam", "empfanger", "partner name",
    "beguenstigter/zahlungspflichtiger", "auftraggeber/empfanger", "counteraccount name", "libelle", "details", "desc",
    "handelaar", "partner neve", "nazev protiuctu", "transaktionsbeschreibung", "description 1", "historico"
  ],
  memo: [
    "memo", "notes", "note", "verwendungszweck", "omschrijving", "payment reference", "reference", "buchungstext",
    "detail de l'ecriture", "message for payee", "kozlemeny", "zprava", "original description", "description 2",
    "comments", "reason", "umsatzart"
  ],
  id: ["id", "transaction id", "fitid", "transaction reference", "n° de transaction", "volgnr", "row"],
  checkNumber: ["check number", "checknumber", "check #", "check no", "num", "cheque number"],
  type: ["transaction type", "bevetel/kiadas", "type"]
} as const

export const normalize = (text: string): string =>
  text.normalize("NFD").replace(/[\u0300-\u036f]/gu, "").replace(/\s+/gu, " ").trim().toLowerCase()

const notAmount = /credit|debit|original|fremd|local|foreign|saldo|balance|kosten|fee|transfer/u

export const findByWords = (header: ReadonlyArray<string>, words: ReadonlyArray<string>, taken: Set<number>): number | undefined => {
  const normalized = header.map(normalize)
  const loose = words === headerWords.amount
    ? (cell: string) => !notAmount.test(cell)
    : () => true
  for (const word of words) {
    const index = normalized.findIndex((cell, position) => cell === word && !taken.has(position))
    if (index >= 0) return index
  }
  for (const word of words) {
    if (word.length < 4) continue
    const index = normalized.findIndex((cell, position) => cell.includes(word) && !taken.has(position) && loose(cell))
    if (index >= 0) return index
  }
  return undefined
}

const isHeaderRow = (fields: ReadonlyArray<string>): boolean => {
  const taken = new Set<number>()
  const date = findByWords(fields, headerWords.date, taken)
  if (date === undefined || parseDate(fields[date] ?? "") !== null) return false
  return findByWords(fields, headerWords.amount, taken) !== undefined ||
    (findByWords(fields, headerWords.debit, taken) !== undefined && findByWords(fields, headerWords.credit, taken) !== undefined)
}

/** The columns a profile names by their header text (not by position). */
const namedColumns = (profile: Profile): ReadonlyArray<string> =>
  [
    profile.date_column,
    profile.amount_column,
    profile.debit_column,
    profile.credit_column,
    profile.id_column,
    profile.check_number_column,
    profile.type_column,
    profile.payee_column,
    ...(profile.memo_columns ?? [])
  ].filter((column): column is string => typeof column === "string")

const holdsAll = (fields: ReadonlyArray<string>, names: ReadonlyArray<string>): boolean => {
  const cells = new Set(fields.map(normalize))
  return names.every((name) => cells.has(normalize(name)))
}

/**
 * The index of the header row among the first rows (their fields), or -1 for none. `header: true`:
 * the first non-blank row; `header: false`: none. Otherwise a profile that names its columns by
 * their header text says what the header holds, in whatever words the bank chose: the first row
 * holding every named column (ADR 0401 addendum); without such names, the built-in words find it.
 */
export const headerRowIndex = (rows: ReadonlyArray<ReadonlyArray<string>>, profile: Profile): number => {
  if (profile.header === false) return -1
  if (profile.header === true) return rows.findIndex((fields) => fields.some((field) => field.trim() !== ""))
  const named = namedColumns(profile)
  return named.length > 0
    ? rows.findIndex((fields) => holdsAll(fields, named))
    : rows.findIndex((fields) => isHeaderRow(fields))
}
