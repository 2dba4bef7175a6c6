import Papa from "papaparse"
import type { Banking } from "@ledger/api"
import { type DecimalSeparator, parseCents } from "../../kernel/values/Money.ts"
import { type DateOrder, detectOrder, orderOfFormat, parseDate } from "./Dates.ts"
import { type Columns, columnsOf, detectDecimal, type Row } from "./CsvColumns.ts"
import { headerRowIndex, normalize } from "./CsvHeader.ts"
import { type StatementInfo, type StatementLine, type StatementReader, UnreadableStatement } from "./Statement.ts"

export { normalize } from "./CsvHeader.ts"

/**
 * Reads a bank's CSV export with a profile (docs/decisions/0401): which row is the header, which
 * columns hold the date, the amount (one signed column, or money out and money in apart, or an
 * amount and a direction column), the payee, the memo and the bank's id. What the profile leaves
 * out is found from the file: the separator, the header row below a preamble, columns by their
 * header names in English, German, French, Dutch, Spanish, Portuguese, Czech and Hungarian, the
 * date layout from the values, the decimal comma. Rows come from papaparse one batch at a time
 * (it pauses between batches), so a large file is never held as rows all at once.
 */

type Profile = Banking.Records.CsvProfile

const batchRows = 200
const detectionRows = 40

const directionOut = new Set(["debit", "dr", "outflow", "out", "kiadas", "withdrawal", "af", "d"])
const directionIn = new Set(["credit", "cr", "inflow", "in", "bevetel", "deposit", "bij", "c"])
const balanceRow = /^(saldo|s a l d o|balance|solde|opening balance|closing balance|saldo anterior|saldo do dia)\b/iu

const clean = (text: string | undefined): string | null => {
  if (text === undefined) return null
  const value = text.replace(/\s+/gu, " ").trim()
  return value === "" ? null : value
}

/** The separator: the candidate that splits the most of the first lines into the same number of fields. */
export const detectDelimiter = (text: string): "," | ";" | "\t" | "|" => {
  const lines = text.slice(0, 20_000).split(/\r\n|\r|\n/u).filter((line) => line.trim() !== "").slice(0, 25)
  let best: { delimiter: "," | ";" | "\t" | "|"; score: number } = { delimiter: ",", score: -1 }
  for (const delimiter of [";", "\t", "|", ","] as const) {
    const counts = new Map<number, number>()
    for (const line of lines) {
      let count = 0
      let quoted = false
      for (const character of line) {
        if (character === "\"") quoted = !quoted
        else if (character === delimiter && !quoted) count++
      }
      if (count > 0) counts.set(count, (counts.get(count) ?? 0) + 1)
    }
    let score = 0
    for (const [fields, lineCount] of counts) score = Math.max(score, lineCount * 1_000 + fields)
    if (score > best.score) best = { delimiter, score }
  }
  return best.delimiter
}

/** Rows of the file, pulled a batch at a time; papaparse pauses between batches. */
const rowSource = (text: string, delimiter: string) => {
  let batch: Array<Row> = []
  let done = false
  let line = 1
  let parser: Papa.Parser | null = null
  let started = false
  const start = () => {
    started = true
    Papa.parse<Array<string>>(text, {
      delimiter,
      skipEmptyLines: false,
      step: (result, handle) => {
        parser = handle
        const fields = result.data
        batch.push({ fields, line })
        for (const field of fields) line += (field.match(/\r\n|\r|\n/gu)?.length ?? 0)
        line++
        if (batch.length >= batchRows) handle.pause()
      },
      complete: () => {
        done = true
      }
    })
  }
  return (): Array<Row> | null => {
    if (!started) start()
    else if (batch.length === 0 && !done) parser?.resume()
    if (batch.length === 0 && done) return null
    const out = batch
    batch = []
    return out
  }
}

/** How the file's rows are read, decided from its first rows (`detect`). */
interface Layout {
  readonly profile: Profile
  readonly columns: Columns
  readonly decimal: DecimalSeparator | undefined
  readonly order: DateOrder
  readonly debitTypes: ReadonlySet<string> | null
}

const isBlank = (row: Row) => row.fields.every((field) => field.trim() === "")

/** The first rows decide the header, the columns, the decimal mark and the date order; answers the rows after the header. */
const detect = (pull: () => Array<Row> | null, profile: Profile, delimiter: string) => {
  let buffered: Array<Row> = []
  while (buffered.length < detectionRows + (profile.skip_rows ?? 0)) {
    const rows = pull()
    if (rows === null) break
    buffered.push(...rows)
  }
  buffered = buffered.slice(profile.skip_rows ?? 0)
  let header: ReadonlyArray<string> | null = null
  let headerLine = buffered.find((row) => !isBlank(row))?.line ?? 1
  const headerIndex = headerRowIndex(buffered.map((row) => row.fields), profile)
  if (headerIndex >= 0) {
    header = buffered[headerIndex]!.fields
    headerLine = buffered[headerIndex]!.line
    buffered = buffered.slice(headerIndex + 1)
  }
  const columns = columnsOf(profile, header, headerLine)
  const decimal = profile.decimal_separator ??
    detectDecimal(buffered, [columns.amount, columns.debit, columns.credit])
  const order: DateOrder = profile.date_format !== undefined
    ? orderOfFormat(profile.date_format)
    : detectOrder(
      buffered.map((row) => row.fields[columns.date] ?? ""),
      decimal === "," || delimiter === ";" ? "dmy" : "mdy"
    )
  const debitTypes = profile.debit_types === undefined ? null : new Set(profile.debit_types.map(normalize))
  const layout: Layout = { profile, columns, decimal, order, debitTypes }
  return { layout, rows: buffered }
}

/** A row's signed amount in cents; null when its amount cells are empty. */
const amountOf = (layout: Layout, row: Row): number | null => {
  const { columns, decimal, debitTypes } = layout
  const cell = (column: number | undefined) => (column === undefined ? "" : (row.fields[column] ?? "").trim())
  const parse = (value: string, what: string): number => {
    const cents = parseCents(value, decimal)
    if (cents === null) throw new UnreadableStatement(`the ${what} "${value}" is not an amount`, row.line)
    return cents
  }
  let cents: number
  if (columns.amount !== undefined) {
    const value = cell(columns.amount)
    if (value === "") return null
    cents = parse(value, "amount")
  } else {
    const out = cell(columns.debit)
    const into = cell(columns.credit)
    if (out === "" && into === "") return null
    // Money out may be written signed or not; its direction is the column's.
    cents = (into === "" ? 0 : Math.abs(parse(into, "credit"))) - (out === "" ? 0 : Math.abs(parse(out, "debit")))
  }
  if (columns.type !== undefined) {
    const kind = normalize(cell(columns.type))
    const isOut = debitTypes !== null ? debitTypes.has(kind) : directionOut.has(kind)
    const isIn = debitTypes !== null ? !isOut : directionIn.has(kind)
    if (isOut) cents = -Math.abs(cents)
    else if (isIn) cents = Math.abs(cents)
  }
  return layout.profile.invert_amounts === true ? -cents : cents
}

/** A row into a line; null for rows that are not transactions (blank, pending, balances), or a continuation. */
const lineOf = (layout: Layout, row: Row): StatementLine | "continuation" | null => {
  const { columns } = layout
  if (isBlank(row)) return null
  const dateText = (row.fields[columns.date] ?? "").trim()
  if (dateText === "") {
    const amount = columns.amount === undefined ? null : (row.fields[columns.amount] ?? "").trim()
    return amount === null || amount === "" ? "continuation" : null
  }
  if (/^(pending|in behandeling|vorgemerkt|en attente)$/iu.test(dateText)) return null
  const payee = columns.payee === undefined ? null : clean(row.fields[columns.payee])
  if (payee !== null && balanceRow.test(payee)) return null
  const date = parseDate(dateText, layout.order)
  if (date === null) {
    // A single-cell row below the transactions (a total, a footer) is not a transaction.
    if (row.fields.filter((field) => field.trim() !== "").length <= 1) return null
    throw new UnreadableStatement(`"${dateText}" is not a date`, row.line)
  }
  const amountCents = amountOf(layout, row)
  if (amountCents === null) throw new UnreadableStatement("the row has a date but no amount", row.line)
  const memo = columns.memo.map((column) => clean(row.fields[column])).filter((value): value is string => value !== null)
  return {
    line: row.line,
    date,
    amountCents,
    payee: payee ?? memo[0] ?? null,
    memo: memo.length === 0 ? null : memo.join(" "),
    checkNumber: columns.checkNumber === undefined ? null : clean(row.fields[columns.checkNumber]),
    statementId: columns.id === undefined ? null : clean(row.fields[columns.id]),
    statement: 0
  }
}

export const read = (text: string, profile: Profile = {}): StatementReader => {
  const delimiter = profile.delimiter ?? detectDelimiter(text)
  const pull = rowSource(text, delimiter)
  const statement: StatementInfo = {
    index: 0,
    accountId: null,
    accountType: null,
    currency: null,
    transactions: 0,
    ledgerBalanceCents: null,
    ledgerBalanceDate: null
  }
  const { layout, rows } = detect(pull, profile, delimiter)
  let queue: Array<Row> = rows
  let held: { line: StatementLine; memo: Array<string> } | null = null
  let finished = false

  const release = (): StatementLine | null => {
    if (held === null) return null
    const { line, memo } = held
    held = null
    if (memo.length === 0) return line
    return { ...line, memo: [line.memo, ...memo].filter((part) => part !== null).join(" ") }
  }

  const next = (): StatementLine | null => {
    for (;;) {
      if (queue.length === 0 && !finished) {
        const pulled = pull()
        if (pulled === null) finished = true
        else queue = pulled
      }
      const row = queue.shift()
      if (row === undefined) return release()
      const line = lineOf(layout, row)
      if (line === null) continue
      if (line === "continuation") {
        // Some banks continue a transaction's description on the rows below it.
        if (held !== null) {
          held.memo.push(...row.fields.map((field) => clean(field)).filter((value): value is string => value !== null))
        }
        continue
      }
      statement.transactions++
      const ready = release()
      held = { line, memo: [] }
      if (ready !== null) return ready
    }
  }

  return { next, statements: () => [statement] }
}
