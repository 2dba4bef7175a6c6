import { Effect } from "effect"
import { SqlClient } from "effect/sql"
import type { Fragment as SqlFragment } from "effect/sql/Statement"
import * as Row from "../kernel/Row.ts"
import * as ReportDates from "./ReportDates.ts"

/**
 * The sums every report is built from: an account's debits and credits over ranges of dates.
 *
 * Whole-company figures come from the monthly totals (store/migrations/0002_ledger.ts) for whole months and from
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

/** A row's sums, read with `Row.withSummedCents`'s `cents`: past the safe range is amount_out_of_range. */
const totalsOf = (row: Record<string, unknown>, count: number, cents: (value: unknown) => number): ReadonlyArray<Totals> =>
  Array.from({ length: count }, (_, index) => ({
    debitCents: cents(row[`d${index}`] ?? 0),
    creditCents: cents(row[`c${index}`] ?? 0)
  }))

/** The debits and credits of each account over each range, for the selected lines. */
export const rangeSums = Effect.fn("TotalsStore.rangeSums")(function*(
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

/**
 * Each table is summed per account first (one pass over the month rows, one over the day rows,
 * with a FILTER per range), then the two partial sums are added: cheaper than filtering the union
 * of both tables row by row.
 */
const fromTotals = Effect.fn("TotalsStore.fromTotals")(function*(
  companyId: string,
  accounts: Accounts,
  ranges: ReadonlyArray<Range>
) {
  const sql = yield* SqlClient.SqlClient
  const splits = ranges.map(ReportDates.split)
  const names = ranges.map((_, index) => ({ debit: sql(`d${index}`), credit: sql(`c${index}`) }))
  const filtered = (column: "debit_cents" | "credit_cents", where: SqlFragment) =>
    sql`coalesce(sum(${sql(column)}) FILTER (WHERE ${where}), 0)`
  const within = (column: "month" | "day", spans: ReadonlyArray<{ readonly from: string | null; readonly to: string }>) =>
    sql.or(spans.map((span) => span.from === null
      ? sql`${sql(column)} <= ${span.to}`
      : sql`${sql(column)} BETWEEN ${span.from} AND ${span.to}`))

  const monthRanges = splits.flatMap((split) => split.months === null ? [] : [split.months])
  const monthColumns = splits.map((split, index) => split.months === null
    ? sql`0 AS ${names[index]!.debit}, 0 AS ${names[index]!.credit}`
    : sql`${filtered("debit_cents", within("month", [split.months]))} AS ${names[index]!.debit},
        ${filtered("credit_cents", within("month", [split.months]))} AS ${names[index]!.credit}`)

  const dayRanges = splits.flatMap((split) => [...split.days, ...split.daysOut])
  // Loose days add to the months; days taken out of a month read whole subtract from them.
  const dayColumn = (split: ReportDates.Split, column: "debit_cents" | "credit_cents") => {
    const added = split.days.length === 0 ? sql`0` : filtered(column, within("day", split.days))
    return split.daysOut.length === 0 ? added : sql`${added} - ${filtered(column, within("day", split.daysOut))}`
  }
  const dayColumns = splits.map((split, index) =>
    sql`${dayColumn(split, "debit_cents")} AS ${names[index]!.debit}, ${dayColumn(split, "credit_cents")} AS ${names[index]!.credit}`)

  const parts = [
    ...(monthRanges.length === 0 ? [] : [(() => {
      const latest = monthRanges.reduce((max, range) => range.to > max ? range.to : max, monthRanges[0]!.to)
      const earliest = monthRanges.some((range) => range.from === null)
        ? null
        : monthRanges.reduce((min, range) => range.from! < min ? range.from! : min, monthRanges[0]!.from!)
      return sql`SELECT account_id, ${sql.csv(monthColumns)}
        FROM account_monthly_totals
        WHERE company_id = ${companyId} ${accountCondition(sql, accounts)}
          AND month <= ${latest} ${earliest === null ? sql`` : sql`AND month >= ${earliest}`}
        GROUP BY account_id`
    })()]),
    ...(dayRanges.length === 0 ? [] : [sql`SELECT account_id, ${sql.csv(dayColumns)}
        FROM account_daily_totals
        WHERE company_id = ${companyId} ${accountCondition(sql, accounts)} AND ${within("day", dayRanges)}
        GROUP BY account_id`])
  ]
  if (parts.length === 0) return new Map() as Sums
  const sums = names.map((name) => sql`sum(${name.debit}) AS ${name.debit}, sum(${name.credit}) AS ${name.credit}`)
  const rows = yield* sql<Record<string, unknown>>`SELECT account_id, ${sql.csv(sums)}
    FROM (${sql.join(" UNION ALL ", false)(parts.map((part) => sql`(${part})`))}) AS totals
    GROUP BY account_id`.pipe(Effect.orDie)
  const byAccount = new Map<number, ReadonlyArray<Totals>>()
  yield* Row.withSummedCents((cents) => {
    for (const row of rows) byAccount.set(Row.int(row.account_id), totalsOf(row, ranges.length, cents))
  })
  return new Map([[allColumn, byAccount]]) as Sums
})

const classCondition = (sql: SqlClient.SqlClient, selection: Selection) =>
  selection._tag !== "Class" ? sql`` : selection.classId === null ? sql`AND class_id IS NULL` : sql`AND class_id = ${selection.classId}`

const fromLines = Effect.fn("TotalsStore.fromLines")(function*(
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
  yield* Row.withSummedCents((cents) => {
    for (const row of rows) {
      const key = byClass ? classColumn(Row.intOrNull(row.class_id)) : allColumn
      let column = sums.get(key)
      if (column === undefined) {
        column = new Map()
        sums.set(key, column)
      }
      column.set(Row.int(row.account_id), totalsOf(row, ranges.length, cents))
    }
  })
  return sums as Sums
})

/**
 * Each account's debits and credits per fiscal year (named by the year it ends), for the fiscal
 * years from `fromYearStart` to the day before `beforeStart`: what a general ledger closes to
 * retained earnings at each fiscal-year start in its range. Both dates are first days of a fiscal
 * year, so whole months cover them.
 */
export const fiscalYearSums = Effect.fn("TotalsStore.fiscalYearSums")(function*(
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
  yield* Row.withSummedCents((cents) => {
    for (const row of rows) {
      const accountId = Row.int(row.account_id)
      let years = result.get(accountId)
      if (years === undefined) {
        years = new Map()
        result.set(accountId, years)
      }
      years.set(Row.int(row.fiscal_year), totalsOf(row, 1, cents)[0]!)
    }
  })
  return result
})
