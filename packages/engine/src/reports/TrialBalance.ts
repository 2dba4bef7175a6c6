import { Effect } from "effect"
import { Reports } from "@ledger/api"
import { fiscalYearStartMonth, requireCompanyId } from "../kernel/CompanyContext.ts"
import * as Handler from "../kernel/Handler.ts"
import { RequestContext } from "../kernel/RequestContext.ts"
import * as SafeTotals from "./SafeTotals.ts"
import * as Columns from "./Columns.ts"
import * as Csv from "../kernel/formats/Csv.ts"
import * as ReportChart from "./ReportChart.ts"
import * as ReportDates from "./ReportDates.ts"
import * as Snapshot from "./Snapshot.ts"
import * as TotalsStore from "./TotalsStore.ts"
import * as YearEndClose from "./YearEndClose.ts"

/**
 * The trial balance (DECISIONS.md): every account with a balance as of a date, as a debit or a
 * credit, in code order; the totals are equal. Income and expense accounts show the fiscal year to
 * date and earlier years' net income is in the retained earnings row (YearEndClose.ts).
 */

type TrialBalance = Reports.TrialBalance.TrialBalance
type Row = TrialBalance["rows"][number]

const sides = (net: number) => ({ debit_cents: net > 0 ? net : 0, credit_cents: net < 0 ? -net : 0 })

/**
 * Builds the report from the closed nets of each column (the total column always, class columns
 * with by_class). `total` adds the accounts' sides (SafeTotals.withTotals: a total past the safe
 * range is amount_out_of_range).
 */
export const build = (
  chart: ReportChart.Chart,
  asOf: string,
  columns: Columns.Columns,
  closed: ReadonlyMap<TotalsStore.ColumnKey, YearEndClose.Closed>,
  header: Record<string, unknown>,
  total: SafeTotals.Total
): TrialBalance => {
  const keys = Columns.keys(columns)
  const netOf = (key: TotalsStore.ColumnKey, accountId: number | null): number => {
    const column = closed.get(key)
    if (column === undefined) return 0
    // The earlier years' earnings row stands in for a retained earnings account the chart lacks.
    return accountId === null ? -column.earlierYearsEarnings : column.nets.get(accountId) ?? 0
  }
  const hasRetained = ReportChart.retainedEarnings(chart) !== null
  const candidates: Array<{ readonly id: number | null; readonly code: string | null; readonly name: string; readonly type: Row["type"] }> = [
    ...chart.accounts,
    ...(hasRetained ? [] : [{ id: null, code: null, name: "Retained Earnings", type: "equity" as const }])
  ]
  const rows: Array<Row> = []
  for (const account of candidates) {
    if (keys.every((key) => netOf(key, account.id) === 0)) continue
    rows.push({
      code: account.code,
      name: account.name,
      type: account.type,
      ...sides(netOf(TotalsStore.allColumn, account.id)),
      ...(columns.byClass
        ? { by_class: columns.classKeys.map((key) => ({ class: columns.nameOf(key), ...sides(netOf(key, account.id)) })) }
        : {})
    })
  }
  const totalsOf = (key: TotalsStore.ColumnKey) => {
    const debits: Array<number> = []
    const credits: Array<number> = []
    for (const account of candidates) {
      const side = sides(netOf(key, account.id))
      debits.push(side.debit_cents)
      credits.push(side.credit_cents)
    }
    return { debit_cents: total(debits), credit_cents: total(credits) }
  }
  const totals = totalsOf(TotalsStore.allColumn)
  return {
    as_of: asOf,
    ...header,
    rows,
    total_debit_cents: totals.debit_cents,
    total_credit_cents: totals.credit_cents,
    ...(columns.byClass ? { totals_by_class: columns.classKeys.map((key) => ({ class: columns.nameOf(key), ...totalsOf(key) })) } : {})
  }
}

export const csv = (report: TrialBalance): string => {
  const classes = report.classes ?? []
  const classHeader = (name: string | null) => name ?? "Unclassified"
  const header = [
    "Code",
    "Name",
    "Type",
    ...classes.flatMap((name) => [`${classHeader(name)} Debit`, `${classHeader(name)} Credit`]),
    "Debit",
    "Credit"
  ]
  const classCells = (amounts: ReadonlyArray<{ readonly debit_cents: number; readonly credit_cents: number }> | undefined) =>
    (amounts ?? []).flatMap((amount) => [Csv.cents(amount.debit_cents), Csv.cents(amount.credit_cents)])
  const rows = [
    ...report.rows.map((row) => [
      row.code,
      row.name,
      row.type,
      ...classCells(row.by_class),
      Csv.cents(row.debit_cents),
      Csv.cents(row.credit_cents)
    ]),
    [null, "Total", null, ...classCells(report.totals_by_class), Csv.cents(report.total_debit_cents), Csv.cents(report.total_credit_cents)]
  ]
  return Csv.render(header, rows)
}

export const report = Effect.fn("TrialBalance.report")(function*(query: typeof Reports.TrialBalance.getTrialBalance.query.Type) {
  const companyId = yield* requireCompanyId
  const request = yield* RequestContext
  const startMonth = yield* fiscalYearStartMonth(companyId)
  const asOf = ReportDates.asOf(query, request.today)
  return yield* Snapshot.consistent(companyId, Effect.gen(function*() {
    const chart = yield* ReportChart.load(companyId)
    const selection = yield* ReportChart.selection(chart, query)
    const ranges = YearEndClose.ranges(asOf, ReportDates.fiscalYearStart(asOf, startMonth), ReportDates.dayBefore)
    const read = yield* TotalsStore.rangeSums(companyId, "every", ranges, selection)
    const { columns, sums } = Columns.of(chart, selection, read, ranges.length)
    const retainedId = ReportChart.retainedEarnings(chart)?.id ?? null
    const body = yield* SafeTotals.withTotals((total) => {
      const closed = new Map(Columns.keys(columns).map((key) => [key, YearEndClose.closeColumn(chart.accounts, retainedId, sums.get(key), total)]))
      return build(chart, asOf, columns, closed, Columns.header(columns, selection, chart), total)
    })
    return query.format === "csv" ? Csv.file(`trial-balance-${asOf}.csv`, csv(body)) : body
  }))
})

export const handlers = [
  Handler.make(Reports.TrialBalance.getTrialBalance, ({ query }) => Effect.map(report(query), (body) => ({ body })))
] as const
