import { Effect, Result } from "effect"
import { ApiError, Reports } from "@ledger/api"
import { fiscalYearStartMonth, requireCompanyId } from "../kernel/CompanyContext.ts"
import * as Handler from "../kernel/Handler.ts"
import * as Pagination from "../kernel/Pagination.ts"
import { RequestContext } from "../kernel/RequestContext.ts"
import * as Csv from "./Csv.ts"
import * as GeneralLedgerRules from "./GeneralLedgerRules.ts"
import * as GeneralLedgerStore from "./GeneralLedgerStore.ts"
import * as ReportChart from "./ReportChart.ts"
import * as ReportDates from "./ReportDates.ts"
import * as Snapshot from "./Snapshot.ts"
import * as TotalsStore from "./TotalsStore.ts"
import * as YearEndClose from "./YearEndClose.ts"

/**
 * `GET /v1/reports/general-ledger`: per account in code order, the opening balance, each line with
 * its running balance, and the closing balance (equal to the trial balance's row as of `to`).
 * `limit` counts lines; an account whose lines go on past a page appears again on the next one,
 * its `balance_forward_cents` carrying the running balance over.
 */

type Query = typeof Reports.GeneralLedger.getGeneralLedger.query.Type

/** The accounts a request names (all of them when it names none); unknown codes are refused together. */
const accountsInScope = (chart: ReportChart.Chart, codes: ReadonlyArray<string> | undefined) => {
  if (codes === undefined) return Effect.succeed(chart.accounts)
  const byCode = new Map(chart.accounts.map((account) => [account.code, account]))
  const issues = codes.flatMap((code, index) =>
    byCode.has(code) ? [] : [{ path: ["query", "account", index] as Array<string | number>, message: `No account ${code}` }]
  )
  if (issues.length > 0) {
    return Effect.fail(ApiError.fail("unknown_account", "The report names accounts that do not exist.", { issues }))
  }
  const wanted = new Set(codes)
  return Effect.succeed(chart.accounts.filter((account) => wanted.has(account.code)))
}

export const report = Effect.fn("GeneralLedger.report")(function*(query: Query) {
  const companyId = yield* requireCompanyId
  const request = yield* RequestContext
  const startMonth = yield* fiscalYearStartMonth(companyId)
  const spanResult = ReportDates.span(query, request.today, startMonth)
  if (Result.isFailure(spanResult)) return yield* Effect.fail(ApiError.invalidRequest(spanResult.failure))
  const span = spanResult.success
  const cursor = yield* GeneralLedgerRules.decodeCursor(query.cursor)
  const limit = Pagination.limitOf(query)

  return yield* Snapshot.consistent(Effect.gen(function*() {
    const chart = yield* ReportChart.load(companyId)
    const selection = (yield* ReportChart.selection(chart, { class: query.class })) as Exclude<
      TotalsStore.Selection,
      { readonly _tag: "ByClass" }
    >
    const scope = yield* accountsInScope(chart, query.account)
    const retainedId = ReportChart.retainedEarnings(chart)?.id ?? null
    const fiscalYearStart = ReportDates.fiscalYearStart(span.from, startMonth)
    // Every account's sums, not only the scope's: retained earnings opens with all of earlier years' income.
    const sums = yield* TotalsStore.rangeSums(companyId, "every", [
      ...YearEndClose.ranges(ReportDates.dayBefore(span.from), fiscalYearStart, ReportDates.dayBefore),
      { from: span.from, to: span.to }
    ], selection)
    const column = sums.get(TotalsStore.allColumn)
    const opening = YearEndClose.closeColumn(chart.accounts, retainedId, column)
    const starts = ReportDates.fiscalYearStartsWithin(span, startMonth)
    const profitAndLossIds = chart.accounts.filter(ReportChart.isProfitAndLoss).map((account) => account.id)
    const yearTotals = starts.length === 0
      ? new Map<number, Map<number, TotalsStore.Totals>>()
      : yield* TotalsStore.fiscalYearSums(companyId, profitAndLossIds, startMonth, fiscalYearStart, starts[starts.length - 1]!, selection)
    const yearNets = new Map(Array.from(yearTotals, ([accountId, years]) =>
      [accountId, new Map(Array.from(years, ([year, totals]) => [year, TotalsStore.net(totals)]))]
    ))
    const className = selection._tag === "Class" && selection.classId !== null ? chart.classes.get(selection.classId) ?? null : null

    const pageAccounts: Array<GeneralLedgerRules.PageAccount> = []
    let remaining = limit
    let hasMore = false
    let lastShown: GeneralLedgerRules.Cursor | null = null
    const startIndex = cursor === null ? 0 : scope.findIndex((account) => account.code >= cursor.code)
    for (const account of startIndex === -1 ? [] : scope.slice(startIndex)) {
      const activity = column?.get(account.id)?.[2] ?? TotalsStore.zero
      const closeLines = GeneralLedgerRules.yearEndCloseLines({
        account,
        isRetainedEarnings: account.id === retainedId,
        profitAndLossIds,
        yearNets,
        span,
        startMonth,
        className
      })
      const openingNet = opening.nets.get(account.id) ?? 0
      const hasLines = activity.debitCents + activity.creditCents > 0
      if (openingNet === 0 && !hasLines && closeLines.length === 0) continue
      const after = cursor !== null && account.code === cursor.code ? cursor : null
      if (remaining === 0) {
        hasMore = true
        break
      }
      const posted = hasLines
        ? yield* GeneralLedgerStore.linesAfter(companyId, account.id, span, selection, after, remaining + 1)
        : []
      const lines = [...posted, ...closeLines.filter((line) => after === null || GeneralLedgerRules.comparePositions(line.position, after) > 0)]
        .sort((left, right) => GeneralLedgerRules.comparePositions(left.position, right.position))
      const shown = lines.slice(0, remaining)
      // A page that stopped exactly at the end of this account resumes here with nothing left to show.
      if (after !== null && shown.length === 0) continue
      const forwardNet = after === null
        ? openingNet
        : openingNet +
          (hasLines ? yield* GeneralLedgerStore.netThrough(companyId, account.id, span.from, after, selection, ReportDates.dayBefore) : 0) +
          closeLines.filter((line) => GeneralLedgerRules.comparePositions(line.position, after) <= 0)
            .reduce((sum, line) => sum + line.amountCents, 0)
      const closeNet = closeLines.reduce((sum, line) => sum + line.amountCents, 0)
      const closeDebits = closeLines.reduce((sum, line) => sum + Math.max(line.amountCents, 0), 0)
      const closeCredits = closeLines.reduce((sum, line) => sum + Math.max(-line.amountCents, 0), 0)
      const complete = lines.length === shown.length
      pageAccounts.push({
        account: GeneralLedgerRules.segment({
          account,
          openingNet,
          forwardNet,
          lines: shown,
          totalDebitCents: activity.debitCents + closeDebits,
          totalCreditCents: activity.creditCents + closeCredits,
          closingNet: openingNet + TotalsStore.net(activity) + closeNet
        }),
        continued: after !== null,
        complete
      })
      remaining -= shown.length
      const last = shown[shown.length - 1]
      if (last !== undefined) lastShown = { code: account.code, ...last.position }
      if (!complete) {
        hasMore = true
        break
      }
    }
    const nextCursor = hasMore && lastShown !== null ? GeneralLedgerRules.encodeCursor(lastShown) : null
    const classHeader = selection._tag === "Class" ? { class: className } : {}
    if (query.format === "csv") {
      return {
        ...Csv.file(`general-ledger-${span.from}-to-${span.to}.csv`, GeneralLedgerRules.csv(span, pageAccounts)),
        has_more: hasMore,
        next_cursor: nextCursor
      }
    }
    return {
      from: span.from,
      to: span.to,
      ...classHeader,
      accounts: pageAccounts.map((entry) => entry.account),
      has_more: hasMore,
      next_cursor: nextCursor
    }
  }))
})

export const handlers = [
  Handler.make(Reports.GeneralLedger.getGeneralLedger, ({ query }) => Effect.map(report(query), (body) => ({ body })))
] as const
