import { Effect } from "effect"
import { Reports } from "@ledger/api"
import { fiscalYearStartMonth, requireCompanyId } from "../kernel/CompanyContext.ts"
import * as Handler from "../kernel/Handler.ts"
import { JournalEntryRules } from "../ledger/index.ts"
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
 * The balance sheet as of a date: assets, liabilities and equity, each balance in its natural
 * direction. Equity shows the retained earnings account with the net income of earlier fiscal
 * years added (YearEndClose.ts) and a last `Net Income` row for the current fiscal year, so that
 * assets equal liabilities plus equity exactly whenever the journal balances.
 */

type BalanceSheet = Reports.BalanceSheet.BalanceSheet
type Section = BalanceSheet["assets"]

interface Line {
  readonly code: string | null
  readonly name: string
  readonly subtype: string | null
  readonly parentCode: string | null
  readonly balanceOf: (key: TotalsStore.ColumnKey) => number
}

const section = (
  columns: Columns.Columns,
  lines: ReadonlyArray<Line>,
  total: SafeTotals.Total,
  keepZero: (line: Line) => boolean = () => false
): Section => {
  const keys = Columns.keys(columns)
  const shown = lines.filter((line) => keepZero(line) || keys.some((key) => line.balanceOf(key) !== 0))
  const totalOf = (key: TotalsStore.ColumnKey) => total(lines.map((line) => line.balanceOf(key)))
  return {
    rows: shown.map((line) => ({
      code: line.code,
      name: line.name,
      subtype: line.subtype,
      parent_code: line.parentCode,
      balance_cents: line.balanceOf(TotalsStore.allColumn),
      ...(columns.byClass ? { by_class: Columns.classAmounts(columns, line.balanceOf) } : {})
    })),
    total_cents: totalOf(TotalsStore.allColumn),
    ...(columns.byClass ? { total_by_class: Columns.classAmounts(columns, totalOf) } : {})
  }
}

export const build = (
  chart: ReportChart.Chart,
  asOf: string,
  fiscalYearStart: string,
  columns: Columns.Columns,
  closed: ReadonlyMap<TotalsStore.ColumnKey, YearEndClose.Closed>,
  header: Record<string, unknown>,
  total: SafeTotals.Total
): BalanceSheet => {
  const retained = ReportChart.retainedEarnings(chart)
  const accountLine = (account: ReportChart.ReportAccount): Line => ({
    code: account.code,
    name: account.name,
    subtype: account.subtype,
    parentCode: account.parentCode,
    balanceOf: (key) => JournalEntryRules.naturalSign(account.type) * (closed.get(key)?.nets.get(account.id) ?? 0)
  })
  const ofType = (type: ReportChart.ReportAccount["type"]) =>
    chart.accounts.filter((account) => account.type === type).map(accountLine)
  const earlier = (key: TotalsStore.ColumnKey) => closed.get(key)?.earlierYearsEarnings ?? 0
  const current = (key: TotalsStore.ColumnKey) => closed.get(key)?.currentYearEarnings ?? 0
  const netIncome: Line = { code: null, name: "Net Income", subtype: null, parentCode: null, balanceOf: current }
  const equityLines: ReadonlyArray<Line> = [
    ...ofType("equity"),
    ...(retained === null ? [{ code: null, name: "Retained Earnings", subtype: null, parentCode: null, balanceOf: earlier }] : []),
    netIncome
  ]
  const assets = section(columns, ofType("asset"), total)
  const liabilities = section(columns, ofType("liability"), total)
  const equity = section(columns, equityLines, total, (line) => line === netIncome)
  const liabilitiesAndEquity = (key: TotalsStore.ColumnKey) =>
    total([...ofType("liability"), ...equityLines].map((line) => line.balanceOf(key)))
  return {
    as_of: asOf,
    fiscal_year_start: fiscalYearStart,
    ...header,
    assets,
    liabilities,
    equity,
    total_liabilities_and_equity_cents: liabilitiesAndEquity(TotalsStore.allColumn),
    ...(columns.byClass ? { total_liabilities_and_equity_by_class: Columns.classAmounts(columns, liabilitiesAndEquity) } : {}),
    current_year_earnings_cents: current(TotalsStore.allColumn),
    earlier_years_earnings_cents: earlier(TotalsStore.allColumn),
    retained_earnings_account: retained?.code ?? null
  }
}

export const csv = (report: BalanceSheet): string => {
  const classes = report.classes ?? []
  const header = ["Section", "Code", "Name", ...classes.map((name) => name ?? "Unclassified"), "Balance"]
  const amounts = (total: number, byClass: ReadonlyArray<{ readonly amount_cents: number }> | undefined) =>
    [...(byClass ?? []).map((amount) => Csv.cents(amount.amount_cents)), Csv.cents(total)]
  const block = (title: string, section: Section) => [
    ...section.rows.map((row) => [title, row.code, row.name, ...amounts(row.balance_cents, row.by_class)]),
    [title, null, `Total ${title}`, ...amounts(section.total_cents, section.total_by_class)]
  ]
  return Csv.render(header, [
    ...block("Assets", report.assets),
    ...block("Liabilities", report.liabilities),
    ...block("Equity", report.equity),
    [null, null, "Total Liabilities and Equity", ...amounts(report.total_liabilities_and_equity_cents, report.total_liabilities_and_equity_by_class)]
  ])
}

export const report = Effect.fn("BalanceSheet.report")(function*(query: typeof Reports.BalanceSheet.getBalanceSheet.query.Type) {
  const companyId = yield* requireCompanyId
  const request = yield* RequestContext
  const startMonth = yield* fiscalYearStartMonth(companyId)
  const asOf = ReportDates.asOf(query, request.today)
  const fiscalYearStart = ReportDates.fiscalYearStart(asOf, startMonth)
  return yield* Snapshot.consistent(companyId, Effect.gen(function*() {
    const chart = yield* ReportChart.load(companyId)
    const selection = yield* ReportChart.selection(chart, query)
    const ranges = YearEndClose.ranges(asOf, fiscalYearStart, ReportDates.dayBefore)
    const read = yield* TotalsStore.rangeSums(companyId, "every", ranges, selection)
    const { columns, sums } = Columns.of(chart, selection, read, ranges.length)
    const retainedId = ReportChart.retainedEarnings(chart)?.id ?? null
    const body = yield* SafeTotals.withTotals((total) => {
      const closed = new Map(Columns.keys(columns).map((key) => [key, YearEndClose.closeColumn(chart.accounts, retainedId, sums.get(key), total)]))
      return build(chart, asOf, fiscalYearStart, columns, closed, Columns.header(columns, selection, chart), total)
    })
    return query.format === "csv" ? Csv.file(`balance-sheet-${asOf}.csv`, csv(body)) : body
  }))
})

export const handlers = [
  Handler.make(Reports.BalanceSheet.getBalanceSheet, ({ query }) => Effect.map(report(query), (body) => ({ body })))
] as const
