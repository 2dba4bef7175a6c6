import { Effect, Result } from "effect"
import { ApiError, Reports } from "@ledger/api"
import { fiscalYearStartMonth, requireCompanyId } from "../kernel/CompanyContext.ts"
import * as Handler from "../kernel/Handler.ts"
import * as Pagination from "../kernel/Pagination.ts"
import { RequestContext } from "../kernel/RequestContext.ts"
import * as SafeTotals from "./SafeTotals.ts"
import * as Csv from "../kernel/formats/Csv.ts"
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

/** A selection of one column: all lines, or one class's (a general ledger has no column per class). */
type OneColumn = Exclude<TotalsStore.Selection, { readonly _tag: "ByClass" }>

/** What a request reads once, before its page: where it reads, and the chart's balances and year-end nets. */
interface Books {
  readonly companyId: string
  readonly span: ReportDates.Span
  readonly startMonth: number
  readonly selection: OneColumn
  readonly scope: ReadonlyArray<ReportChart.ReportAccount>
  readonly retainedId: number | null
  /** Each account's sums: [0] and [1] the opening's ranges (YearEndClose.ranges), [2] the span. */
  readonly column: ReadonlyMap<number, ReadonlyArray<TotalsStore.Totals>> | undefined
  readonly openingNets: ReadonlyMap<number, number>
  readonly profitAndLossIds: ReadonlyArray<number>
  readonly yearNets: ReadonlyMap<number, ReadonlyMap<number, number>>
  readonly className: string | null
}

const books = Effect.fn("GeneralLedger.books")(function*(companyId: string, query: Query, span: ReportDates.Span, startMonth: number) {
  const chart = yield* ReportChart.load(companyId)
  const selection = (yield* ReportChart.selection(chart, { class: query.class })) as OneColumn
  const scope = yield* accountsInScope(chart, query.account)
  const retainedId = ReportChart.retainedEarnings(chart)?.id ?? null
  const fiscalYearStart = ReportDates.fiscalYearStart(span.from, startMonth)
  // Every account's sums, not only the scope's: retained earnings opens with all of earlier years' income.
  const sums = yield* TotalsStore.rangeSums(companyId, "every", [
    ...YearEndClose.ranges(ReportDates.dayBefore(span.from), fiscalYearStart, ReportDates.dayBefore),
    { from: span.from, to: span.to }
  ], selection)
  const column = sums.get(TotalsStore.allColumn)
  const opening = yield* SafeTotals.withTotals((total) => YearEndClose.closeColumn(chart.accounts, retainedId, column, total))
  const starts = ReportDates.fiscalYearStartsWithin(span, startMonth)
  const profitAndLossIds = chart.accounts.filter(ReportChart.isProfitAndLoss).map((account) => account.id)
  const yearTotals = starts.length === 0
    ? new Map<number, Map<number, TotalsStore.Totals>>()
    : yield* TotalsStore.fiscalYearSums(companyId, profitAndLossIds, startMonth, fiscalYearStart, starts[starts.length - 1]!, selection)
  const yearNets = new Map(Array.from(yearTotals, ([accountId, years]) =>
    [accountId, new Map(Array.from(years, ([year, totals]) => [year, TotalsStore.net(totals)]))]
  ))
  const className = selection._tag === "Class" && selection.classId !== null ? chart.classes.get(selection.classId) ?? null : null
  return {
    companyId, span, startMonth, selection, scope, retainedId, column, openingNets: opening.nets, profitAndLossIds, yearNets, className
  } satisfies Books
})

/** An account's activity in the span and its year-end close lines; null when it has no balance and nothing to show. */
const activityOf = (books: Books, account: ReportChart.ReportAccount, total: SafeTotals.Total) => {
  const activity = books.column?.get(account.id)?.[2] ?? TotalsStore.zero
  const closeLines = GeneralLedgerRules.yearEndCloseLines({
    account,
    isRetainedEarnings: account.id === books.retainedId,
    profitAndLossIds: books.profitAndLossIds,
    yearNets: books.yearNets,
    span: books.span,
    startMonth: books.startMonth,
    className: books.className,
    total
  })
  const openingNet = books.openingNets.get(account.id) ?? 0
  const hasLines = activity.debitCents + activity.creditCents > 0
  return openingNet === 0 && !hasLines && closeLines.length === 0 ? null : { activity, closeLines, openingNet, hasLines }
}

type Activity = NonNullable<ReturnType<typeof activityOf>>

const sumOf = (lines: ReadonlyArray<GeneralLedgerRules.Line>, amount: (cents: number) => number, total: SafeTotals.Total): number =>
  total(lines.map((line) => amount(line.amountCents)))

/**
 * An account's part of a page: at most `remaining` of its lines after `after` (its own lines and
 * year-end close lines in order), with the running balance carried to the first of them. Null
 * when a page stopped exactly at the end of this account: it resumes here with nothing left to show.
 */
const accountPage = Effect.fn("GeneralLedger.accountPage")(function*(
  books: Books,
  account: ReportChart.ReportAccount,
  { activity, closeLines, hasLines, openingNet }: Activity,
  after: GeneralLedgerRules.Cursor | null,
  remaining: number
) {
  const { companyId, selection, span } = books
  const posted = hasLines ? yield* GeneralLedgerStore.linesAfter(companyId, account.id, span, selection, after, remaining + 1) : []
  const lines = [...posted, ...closeLines.filter((line) => after === null || GeneralLedgerRules.comparePositions(line.position, after) > 0)]
    .sort((left, right) => GeneralLedgerRules.comparePositions(left.position, right.position))
  const shown = lines.slice(0, remaining)
  if (after !== null && shown.length === 0) return null
  const through = after !== null && hasLines
    ? yield* GeneralLedgerStore.netThrough(companyId, account.id, span.from, after, selection, ReportDates.dayBefore)
    : 0
  const complete = lines.length === shown.length
  // The retained earnings account's close lines add every income and expense account's year.
  const segment = yield* SafeTotals.withTotals((total) => GeneralLedgerRules.segment({
    account,
    openingNet,
    forwardNet: after === null
      ? openingNet
      : total([openingNet, through, sumOf(closeLines.filter((line) => GeneralLedgerRules.comparePositions(line.position, after) <= 0), (cents) => cents, total)]),
    lines: shown,
    totalDebitCents: total([activity.debitCents, sumOf(closeLines, (cents) => Math.max(cents, 0), total)]),
    totalCreditCents: total([activity.creditCents, sumOf(closeLines, (cents) => Math.max(-cents, 0), total)]),
    closingNet: total([openingNet, TotalsStore.net(activity), sumOf(closeLines, (cents) => cents, total)]),
    total
  }))
  return { entry: { account: segment, continued: after !== null, complete } satisfies GeneralLedgerRules.PageAccount, shown }
})

/** The page's accounts from the cursor on, `limit` lines in all; whether more follow, and where the next page starts. */
const page = Effect.fn("GeneralLedger.page")(function*(books: Books, cursor: GeneralLedgerRules.Cursor | null, limit: number) {
  const pageAccounts: Array<GeneralLedgerRules.PageAccount> = []
  let remaining = limit
  let hasMore = false
  let lastShown: GeneralLedgerRules.Cursor | null = null
  const startIndex = cursor === null ? 0 : books.scope.findIndex((account) => account.code >= cursor.code)
  for (const account of startIndex === -1 ? [] : books.scope.slice(startIndex)) {
    const activity = yield* SafeTotals.withTotals((total) => activityOf(books, account, total))
    if (activity === null) continue
    if (remaining === 0) {
      hasMore = true
      break
    }
    const part = yield* accountPage(books, account, activity, cursor !== null && account.code === cursor.code ? cursor : null, remaining)
    if (part === null) continue
    pageAccounts.push(part.entry)
    remaining -= part.shown.length
    const last = part.shown[part.shown.length - 1]
    if (last !== undefined) lastShown = { code: account.code, ...last.position }
    if (!part.entry.complete) {
      hasMore = true
      break
    }
  }
  return { pageAccounts, hasMore, nextCursor: hasMore && lastShown !== null ? GeneralLedgerRules.encodeCursor(lastShown) : null }
})

export const report = Effect.fn("GeneralLedger.report")(function*(query: Query) {
  const companyId = yield* requireCompanyId
  const request = yield* RequestContext
  const startMonth = yield* fiscalYearStartMonth(companyId)
  const spanResult = ReportDates.span(query, request.today, startMonth)
  if (Result.isFailure(spanResult)) return yield* Effect.fail(ApiError.invalidRequest(spanResult.failure))
  const span = spanResult.success
  const cursor = yield* GeneralLedgerRules.decodeCursor(query.cursor)
  const limit = Pagination.limitOf(query)

  return yield* Snapshot.consistent(companyId, Effect.gen(function*() {
    const read = yield* books(companyId, query, span, startMonth)
    const { hasMore, nextCursor, pageAccounts } = yield* page(read, cursor, limit)
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
      ...(read.selection._tag === "Class" ? { class: read.className } : {}),
      accounts: pageAccounts.map((entry) => entry.account),
      has_more: hasMore,
      next_cursor: nextCursor
    }
  }))
})

export const handlers = [
  Handler.make(Reports.GeneralLedger.getGeneralLedger, ({ query }) => Effect.map(report(query), (body) => ({ body })))
] as const
