import { Effect, Result } from "effect"
import { ApiError, Reports } from "@ledger/api"
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

/**
 * The profit and loss for a range of dates: income, cost of goods sold, gross profit, expenses and
 * net income, each account's activity in its natural direction (income credit-positive, expenses
 * debit-positive). Activity is read as it is, even over a range that crosses a fiscal-year start.
 */

type ProfitAndLoss = Reports.ProfitAndLoss.ProfitAndLoss
type Section = ProfitAndLoss["income"]

const sectionNames: ReadonlyArray<ReportChart.ProfitAndLossSection> = ["income", "cost_of_goods_sold", "expenses"]

export const build = (
  chart: ReportChart.Chart,
  span: ReportDates.Span,
  columns: Columns.Columns,
  sums: TotalsStore.Sums,
  header: Record<string, unknown>,
  total: SafeTotals.Total
): ProfitAndLoss => {
  const byCode = new Map(chart.accounts.map((account) => [account.code, account]))
  const keys = Columns.keys(columns)
  const amountOf = (key: TotalsStore.ColumnKey, account: ReportChart.ReportAccount): number => {
    const totals = sums.get(key)?.get(account.id)?.[0]
    return totals === undefined ? 0 : JournalEntryRules.naturalSign(account.type) * TotalsStore.net(totals)
  }
  const sections = new Map<ReportChart.ProfitAndLossSection, Array<ReportChart.ReportAccount>>(sectionNames.map((name) => [name, []]))
  for (const account of chart.accounts) {
    if (!ReportChart.isProfitAndLoss(account)) continue
    if (keys.every((key) => amountOf(key, account) === 0)) continue
    sections.get(ReportChart.profitAndLossSection(account, byCode))!.push(account)
  }
  const totalOf = (name: ReportChart.ProfitAndLossSection, key: TotalsStore.ColumnKey) =>
    total(sections.get(name)!.map((account) => amountOf(key, account)))
  const section = (name: ReportChart.ProfitAndLossSection): Section => ({
    rows: sections.get(name)!.map((account) => ({
      code: account.code,
      name: account.name,
      subtype: account.subtype,
      parent_code: account.parentCode,
      amount_cents: amountOf(TotalsStore.allColumn, account),
      ...(columns.byClass ? { by_class: Columns.classAmounts(columns, (key) => amountOf(key, account)) } : {})
    })),
    total_cents: totalOf(name, TotalsStore.allColumn),
    ...(columns.byClass ? { total_by_class: Columns.classAmounts(columns, (key) => totalOf(name, key)) } : {})
  })
  const grossProfit = (key: TotalsStore.ColumnKey) => total([totalOf("income", key), -totalOf("cost_of_goods_sold", key)])
  const netIncome = (key: TotalsStore.ColumnKey) => total([grossProfit(key), -totalOf("expenses", key)])
  return {
    from: span.from,
    to: span.to,
    ...header,
    income: section("income"),
    cost_of_goods_sold: section("cost_of_goods_sold"),
    gross_profit_cents: grossProfit(TotalsStore.allColumn),
    ...(columns.byClass ? { gross_profit_by_class: Columns.classAmounts(columns, grossProfit) } : {}),
    expenses: section("expenses"),
    net_income_cents: netIncome(TotalsStore.allColumn),
    ...(columns.byClass ? { net_income_by_class: Columns.classAmounts(columns, netIncome) } : {})
  }
}

const sectionTitles: Record<ReportChart.ProfitAndLossSection, string> = {
  income: "Income",
  cost_of_goods_sold: "Cost of Goods Sold",
  expenses: "Expenses"
}

export const csv = (report: ProfitAndLoss): string => {
  const classes = report.classes ?? []
  const header = ["Section", "Code", "Name", ...classes.map((name) => name ?? "Unclassified"), "Amount"]
  const amounts = (total: number, byClass: ReadonlyArray<{ readonly amount_cents: number }> | undefined) =>
    [...(byClass ?? []).map((amount) => Csv.cents(amount.amount_cents)), Csv.cents(total)]
  const rows = [
    ...sectionNames.flatMap((name) => {
      const section = report[name]
      const title = sectionTitles[name]
      return [
        ...section.rows.map((row) => [title, row.code, row.name, ...amounts(row.amount_cents, row.by_class)]),
        [title, null, `Total ${title}`, ...amounts(section.total_cents, section.total_by_class)],
        ...(name === "cost_of_goods_sold"
          ? [[null, null, "Gross Profit", ...amounts(report.gross_profit_cents, report.gross_profit_by_class)]]
          : [])
      ]
    }),
    [null, null, "Net Income", ...amounts(report.net_income_cents, report.net_income_by_class)]
  ]
  return Csv.render(header, rows)
}

export const report = Effect.fn("ProfitAndLoss.report")(function*(query: typeof Reports.ProfitAndLoss.getProfitAndLoss.query.Type) {
  const companyId = yield* requireCompanyId
  const request = yield* RequestContext
  const startMonth = yield* fiscalYearStartMonth(companyId)
  const span = ReportDates.span(query, request.today, startMonth)
  if (Result.isFailure(span)) return yield* Effect.fail(ApiError.invalidRequest(span.failure))
  const range = span.success
  return yield* Snapshot.consistent(companyId, Effect.gen(function*() {
    const chart = yield* ReportChart.load(companyId)
    const selection = yield* ReportChart.selection(chart, query)
    // Every account's sums from the totals (no id list to send: the balance sheet's are ignored);
    // only income and expense accounts' lines when the sums come from the journal.
    const accounts = selection._tag === "All" ? "every" : chart.accounts.filter(ReportChart.isProfitAndLoss).map((account) => account.id)
    const read = yield* TotalsStore.rangeSums(companyId, accounts, [{ from: range.from, to: range.to }], selection)
    const { columns, sums } = Columns.of(chart, selection, read, 1)
    const body = yield* SafeTotals.withTotals((total) => build(chart, range, columns, sums, Columns.header(columns, selection, chart), total))
    return query.format === "csv" ? Csv.file(`profit-and-loss-${range.from}-to-${range.to}.csv`, csv(body)) : body
  }))
})

export const handlers = [
  Handler.make(Reports.ProfitAndLoss.getProfitAndLoss, ({ query }) => Effect.map(report(query), (body) => ({ body })))
] as const
