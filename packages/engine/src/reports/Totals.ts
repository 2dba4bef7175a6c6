import { Effect } from "effect"
import { SqlClient } from "effect/sql"
import * as Row from "../Row.ts"
import * as ReportDates from "./ReportDates.ts"

/**
 * The sums every report is built from: an account's debits and credits over ranges of dates.
 *
 * Whole-company figures come from the monthly totals (migration 0005) for whole months and from
 * the ledger's daily totals for the loose days at the ends of a range: never the journal. Loose
 * days are read by (company, day) for a whole chart (one index range, about 15,000 rows for 1,000
 * accounts and half a month) and by the primary key (company, account, day) for a few accounts.
 * One class (or a column per class) cannot come from totals, which do not keep classes: those sums
 * read journal lines through their (company, account, date) index.
 *
 * Every report asks for all its ranges in ONE statement, so its figures come from one snapshot
 * even outside a transaction.
 */

export interface Totals {
  readonly debitCents: number
  readonly creditCents: number
}

export const zero: Totals = { debitCents: 0, creditCents: 0 }

export const plus = (left: Totals, right: Totals): Totals => ({
  debitCents: left.debitCents + right.debitCents,
  creditCents: left.creditCents + right.creditCents
})

/** Debits minus credits. */
export const net = (totals: Totals): number => totals.debitCents - totals.creditCents

/** An inclusive range of days; `from` null means since the beginning. */
export interface Range {
  readonly from: string | null
  readonly to: string
}

/** Which lines a report sums: all of them, one class's (null: lines without a class), or each class apart. */
export type Selection =
  | { readonly _tag: "All" }
  | { readonly _tag: "Class"; readonly classId: number | null }
  | { readonly _tag: "ByClass" }

export const all: Selection = { _tag: "All" }

/** A column of figures: `all`, or with ByClass a class id, or `none` for lines without a class. */
export type ColumnKey = string
export const allColumn: ColumnKey = "all"
export const noClassColumn: ColumnKey = "none"
export const classColumn = (classId: number | null): ColumnKey => classId === null ? noClassColumn : String(classId)

/** The accounts a sum covers: some, by id, or every account of the company (no id list to send). */
export type Accounts = ReadonlyArray<number> | "every"

/** Per column, per account id: one Totals per requested range, in the order asked. */
export type Sums = ReadonlyMap<ColumnKey, ReadonlyMap<number, ReadonlyArray<Totals>>>

const totalsOf = (row: Record<string, unknown>, count: number): ReadonlyArray<Totals> =>
  Array.from({ length: count }, (_, index) => ({
    debitCents: Row.int(row[`d${index}`] ?? 0),
    creditCents: Row.int(row[`c${index}`] ?? 0)
  }))

/** The debits and credits of each account over each range, for the selected lines. */
export const rangeSums = Effect.fn("Totals.rangeSums")(function*(
  companyId: string,
  accounts: Accounts,
  ranges: ReadonlyArray<Range>,
  selection: Selection
) {
  if ((accounts !== "every" && accounts.length === 0) || ranges.length === 0) return new Map() as Sums
  return selection._tag === "All"
    ? yield* fromTotals(companyId, accounts, ranges)
    : yield* fromLines(companyId, accounts, ranges, selection)
})

const accountCondition = (sql: SqlClient.SqlClient, accounts: Accounts) =>
  accounts === "every" ? sql`` : sql`AND account_id IN ${sql.in(accounts)}`

const fromTotals = Effect.fn("Totals.fromTotals")(function*(
  companyId: string,
  accounts: Accounts,
  ranges: ReadonlyArray<Range>
) {
  const sql = yield* SqlClient.SqlClient
  const splits = ranges.map(ReportDates.split)
  const falseFragment = sql.literal("false")
  const added = (split: ReportDates.Split) => {
    const clauses = [
      ...(split.months === null ? [] : [split.months.from === null
        ? sql`(monthly AND at <= ${split.months.to})`
        : sql`(monthly AND at BETWEEN ${split.months.from} AND ${split.months.to})`]),
      ...split.days.map((days) => sql`(NOT monthly AND at BETWEEN ${days.from} AND ${days.to})`)
    ]
    return clauses.length === 0 ? falseFragment : sql.or(clauses)
  }
  // The days taken out of a month read whole, when there are any (most ranges have none).
  const less = (split: ReportDates.Split, column: "debit_cents" | "credit_cents") => {
    if (split.daysOut.length === 0) return sql``
    const taken = sql.or(split.daysOut.map((days) => sql`(NOT monthly AND at BETWEEN ${days.from} AND ${days.to})`))
    return sql`- coalesce(sum(${sql(column)}) FILTER (WHERE ${taken}), 0)`
  }
  const columns = splits.map((split, index) => {
    const plus = added(split)
    return sql`coalesce(sum(debit_cents) FILTER (WHERE ${plus}), 0) ${less(split, "debit_cents")} AS ${sql(`d${index}`)},
      coalesce(sum(credit_cents) FILTER (WHERE ${plus}), 0) ${less(split, "credit_cents")} AS ${sql(`c${index}`)}`
  })
  const monthRanges = splits.flatMap((split) => split.months === null ? [] : [split.months])
  const dayRanges = splits.flatMap((split) => [...split.days, ...split.daysOut])
  const parts = [
    ...(monthRanges.length === 0 ? [] : [(() => {
      const latest = monthRanges.reduce((max, range) => range.to > max ? range.to : max, monthRanges[0]!.to)
      const earliest = monthRanges.some((range) => range.from === null)
        ? null
        : monthRanges.reduce((min, range) => range.from! < min ? range.from! : min, monthRanges[0]!.from!)
      return sql`SELECT account_id, true AS monthly, month AS at, debit_cents, credit_cents
        FROM account_monthly_totals
        WHERE company_id = ${companyId} ${accountCondition(sql, accounts)}
          AND month <= ${latest} ${earliest === null ? sql`` : sql`AND month >= ${earliest}`}`
    })()]),
    ...(dayRanges.length === 0 ? [] : [sql`SELECT account_id, false AS monthly, day AS at, debit_cents, credit_cents
        FROM account_daily_totals
        WHERE company_id = ${companyId} ${accountCondition(sql, accounts)}
          AND ${sql.or(dayRanges.map((days) => sql`day BETWEEN ${days.from} AND ${days.to}`))}`])
  ]
  if (parts.length === 0) return new Map() as Sums
  const rows = yield* sql<Record<string, unknown>>`SELECT account_id, ${sql.csv(columns)}
    FROM (${sql.join(" UNION ALL ", false)(parts)}) AS totals
    GROUP BY account_id`.pipe(Effect.orDie)
  const byAccount = new Map<number, ReadonlyArray<Totals>>()
  for (const row of rows) byAccount.set(Row.int(row.account_id), totalsOf(row, ranges.length))
  return new Map([[allColumn, byAccount]]) as Sums
})

const classCondition = (sql: SqlClient.SqlClient, selection: Selection) =>
  selection._tag !== "Class" ? sql`` : selection.classId === null ? sql`AND class_id IS NULL` : sql`AND class_id = ${selection.classId}`

const fromLines = Effect.fn("Totals.fromLines")(function*(
  companyId: string,
  accounts: Accounts,
  ranges: ReadonlyArray<Range>,
  selection: Selection
) {
  const sql = yield* SqlClient.SqlClient
  const columns = ranges.map((range, index) => {
    const where = range.from === null
      ? sql`entry_date <= ${range.to}`
      : sql`entry_date BETWEEN ${range.from} AND ${range.to}`
    return sql`coalesce(sum(amount_cents) FILTER (WHERE amount_cents > 0 AND ${where}), 0) AS ${sql(`d${index}`)},
      coalesce(-sum(amount_cents) FILTER (WHERE amount_cents < 0 AND ${where}), 0) AS ${sql(`c${index}`)}`
  })
  const latest = ranges.reduce((max, range) => range.to > max ? range.to : max, ranges[0]!.to)
  const earliest = ranges.some((range) => range.from === null)
    ? null
    : ranges.reduce((min, range) => range.from! < min ? range.from! : min, ranges[0]!.from!)
  const byClass = selection._tag === "ByClass"
  const rows = yield* sql<Record<string, unknown>>`SELECT account_id, ${byClass ? sql`class_id` : sql`NULL AS class_id`},
      ${sql.csv(columns)}
    FROM journal_lines
    WHERE company_id = ${companyId} ${accountCondition(sql, accounts)}
      AND entry_date <= ${latest} ${earliest === null ? sql`` : sql`AND entry_date >= ${earliest}`}
      ${classCondition(sql, selection)}
    GROUP BY account_id${byClass ? sql`, class_id` : sql``}`.pipe(Effect.orDie)
  const sums = new Map<ColumnKey, Map<number, ReadonlyArray<Totals>>>()
  for (const row of rows) {
    const key = byClass ? classColumn(Row.intOrNull(row.class_id)) : allColumn
    let column = sums.get(key)
    if (column === undefined) {
      column = new Map()
      sums.set(key, column)
    }
    column.set(Row.int(row.account_id), totalsOf(row, ranges.length))
  }
  return sums as Sums
})

/**
 * Each account's debits and credits per fiscal year (named by the year it ends), for the fiscal
 * years from `fromYearStart` to the day before `beforeStart`: what a general ledger closes to
 * retained earnings at each fiscal-year start in its range. Both dates are first days of a fiscal
 * year, so whole months cover them.
 */
export const fiscalYearSums = Effect.fn("Totals.fiscalYearSums")(function*(
  companyId: string,
  accountIds: ReadonlyArray<number>,
  startMonth: number,
  fromYearStart: string,
  beforeStart: string,
  selection: Exclude<Selection, { readonly _tag: "ByClass" }>
) {
  const sql = yield* SqlClient.SqlClient
  const result = new Map<number, Map<number, Totals>>()
  if (accountIds.length === 0 || fromYearStart >= beforeStart) return result
  // Moving a date forward by this many months puts it in the calendar year its fiscal year ends in.
  const shift = sql.literal(`interval '${(13 - startMonth) % 12} months'`)
  const rows = selection._tag === "All"
    ? yield* sql<Record<string, unknown>>`SELECT account_id, extract(year FROM month + ${shift})::int AS fiscal_year,
          sum(debit_cents) AS d0, sum(credit_cents) AS c0
        FROM account_monthly_totals
        WHERE company_id = ${companyId} AND account_id IN ${sql.in(accountIds)}
          AND month >= ${fromYearStart} AND month < ${beforeStart}
        GROUP BY 1, 2`.pipe(Effect.orDie)
    : yield* sql<Record<string, unknown>>`SELECT account_id, extract(year FROM entry_date + ${shift})::int AS fiscal_year,
          coalesce(sum(amount_cents) FILTER (WHERE amount_cents > 0), 0) AS d0,
          coalesce(-sum(amount_cents) FILTER (WHERE amount_cents < 0), 0) AS c0
        FROM journal_lines
        WHERE company_id = ${companyId} AND account_id IN ${sql.in(accountIds)}
          AND entry_date >= ${fromYearStart} AND entry_date < ${beforeStart}
          ${classCondition(sql, selection)}
        GROUP BY 1, 2`.pipe(Effect.orDie)
  for (const row of rows) {
    const accountId = Row.int(row.account_id)
    let years = result.get(accountId)
    if (years === undefined) {
      years = new Map()
      result.set(accountId, years)
    }
    years.set(Row.int(row.fiscal_year), totalsOf(row, 1)[0]!)
  }
  return result
})
