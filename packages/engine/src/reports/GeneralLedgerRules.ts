import { Effect, Result } from "effect"
import { ApiError, type Reports } from "@ledger/api"
import { Base64Url } from "effect/encoding"
import { FiscalYear, JournalEntryRules } from "../ledger/index.ts"
import * as Csv from "../kernel/formats/Csv.ts"
import type * as SafeTotals from "./SafeTotals.ts"
import type * as ReportChart from "./ReportChart.ts"
import * as ReportDates from "./ReportDates.ts"

/**
 * The general ledger's pure parts: the order of lines, the cursor, the year-end close lines, the
 * running balances of one account's page, and the CSV. The reads are in GeneralLedgerStore.ts and
 * the request in GeneralLedger.ts.
 *
 * Lines are ordered per account by (date, entry id, line number). A year-end close line (what the
 * reports close to retained earnings at a fiscal-year start: YearEndClose.ts) sorts first on its
 * date, as (date, 0, 0), so an income account's running balance starts the new year at zero.
 */

type GeneralLedgerAccount = Reports.GeneralLedger.GeneralLedgerAccount
type GeneralLedgerLine = GeneralLedgerAccount["lines"][number]

export interface Position {
  readonly date: string
  readonly entryId: number
  readonly lineNo: number
}

export const comparePositions = (left: Position, right: Position): number =>
  left.date !== right.date ? (left.date < right.date ? -1 : 1) : left.entryId !== right.entryId
    ? left.entryId - right.entryId
    : left.lineNo - right.lineNo

export interface Line {
  readonly position: Position
  /** Debits positive, credits negative. */
  readonly amountCents: number
  readonly yearEndClose: boolean
  readonly source: string
  readonly memo: string | null
  readonly className: string | null
  readonly contactId: number | null
}

/** Where the next page starts: after this line of this account. */
export interface Cursor extends Position {
  readonly code: string
}

export const encodeCursor = (cursor: Cursor): string =>
  Base64Url.encode(JSON.stringify([cursor.code, cursor.date, cursor.entryId, cursor.lineNo]))

const isDate = (value: unknown): value is string => typeof value === "string" && /^\d{4}-\d{2}-\d{2}$/u.test(value)
const isCount = (value: unknown): value is number => typeof value === "number" && Number.isSafeInteger(value) && value >= 0

export const decodeCursor = (cursor: string | undefined): Effect.Effect<Cursor | null, ApiError.LedgerError> => {
  if (cursor === undefined) return Effect.succeed(null)
  try {
    const text = new TextDecoder("utf-8", { fatal: true }).decode(Result.getOrThrow(Base64Url.decode(cursor)))
    const parsed: unknown = JSON.parse(text)
    if (Array.isArray(parsed) && parsed.length === 4) {
      const [code, date, entryId, lineNo] = parsed as [unknown, unknown, unknown, unknown]
      if (typeof code === "string" && code !== "" && isDate(date) && isCount(entryId) && isCount(lineNo)) {
        return Effect.succeed({ code, date, entryId, lineNo })
      }
    }
  } catch {
    // Falls through to the refusal.
  }
  return Effect.fail(ApiError.invalidRequest([{ path: ["query", "cursor"], message: "Not a cursor this server issued" }]))
}

/**
 * The year-end close lines of one account in a range: at each fiscal-year start after `from`, an
 * income or expense account is closed by the opposite of its net for the year that ended, and the
 * retained earnings account receives every income and expense account's net for that year.
 * `yearNets` gives debits minus credits per account id and fiscal year.
 */
export const yearEndCloseLines = (options: {
  readonly account: ReportChart.ReportAccount
  readonly isRetainedEarnings: boolean
  readonly profitAndLossIds: ReadonlyArray<number>
  readonly yearNets: ReadonlyMap<number, ReadonlyMap<number, number>>
  readonly span: ReportDates.Span
  readonly startMonth: number
  readonly className: string | null
  /** Adds the income and expense accounts' nets for retained earnings (SafeTotals.withTotals). */
  readonly total: SafeTotals.Total
}): ReadonlyArray<Line> => {
  const { account } = options
  const isProfitAndLoss = account.type === "income" || account.type === "expense"
  if (!isProfitAndLoss && !options.isRetainedEarnings) return []
  const lines: Array<Line> = []
  for (const start of ReportDates.fiscalYearStartsWithin(options.span, options.startMonth)) {
    const fiscalYear = FiscalYear.containing(ReportDates.dayBefore(start), options.startMonth)
    const yearNet = (accountId: number) => options.yearNets.get(accountId)?.get(fiscalYear) ?? 0
    const amount = isProfitAndLoss
      ? -yearNet(account.id)
      : options.total(options.profitAndLossIds.map(yearNet))
    if (amount === 0) continue
    lines.push({
      position: { date: start, entryId: 0, lineNo: 0 },
      amountCents: amount,
      yearEndClose: true,
      source: "year_end_close",
      memo: isProfitAndLoss
        ? `Fiscal year ${fiscalYear} closed to retained earnings`
        : `Net ${amount < 0 ? "income" : "loss"} of fiscal year ${fiscalYear}`,
      className: options.className,
      contactId: null
    })
  }
  return lines
}

/** One account's part of a page: its lines with running balances from `forwardNet` (debits minus credits before the first). */
export const segment = (options: {
  readonly account: ReportChart.ReportAccount
  readonly openingNet: number
  readonly forwardNet: number
  readonly lines: ReadonlyArray<Line>
  readonly totalDebitCents: number
  readonly totalCreditCents: number
  readonly closingNet: number
  /** Carries the running balance (SafeTotals.withTotals): retained earnings' close lines add many accounts. */
  readonly total: SafeTotals.Total
}): GeneralLedgerAccount => {
  const sign = JournalEntryRules.naturalSign(options.account.type)
  let running = options.forwardNet
  const lines = options.lines.map((line): GeneralLedgerLine => {
    running = options.total([running, line.amountCents])
    return {
      date: line.position.date,
      entry_id: line.yearEndClose ? null : line.position.entryId,
      line_no: line.yearEndClose ? null : line.position.lineNo,
      source: line.source,
      memo: line.memo,
      class: line.className,
      contact_id: line.contactId,
      debit_cents: line.amountCents > 0 ? line.amountCents : 0,
      credit_cents: line.amountCents < 0 ? -line.amountCents : 0,
      balance_cents: sign * running
    }
  })
  return {
    code: options.account.code,
    name: options.account.name,
    type: options.account.type,
    opening_balance_cents: sign * options.openingNet,
    balance_forward_cents: sign * options.forwardNet,
    lines,
    total_debit_cents: options.totalDebitCents,
    total_credit_cents: options.totalCreditCents,
    closing_balance_cents: sign * options.closingNet
  }
}

/** A page's account with whether it continues an earlier page and whether its last line is on this page. */
export interface PageAccount {
  readonly account: GeneralLedgerAccount
  readonly continued: boolean
  readonly complete: boolean
}

export const csv = (span: ReportDates.Span, accounts: ReadonlyArray<PageAccount>): string => {
  const header = ["Account Code", "Account Name", "Date", "Entry ID", "Line", "Source", "Memo", "Class", "Debit", "Credit", "Balance"]
  const rows = accounts.flatMap(({ account, continued, complete }) => [
    [account.code, account.name, continued ? null : span.from, null, null, null, continued ? "Balance Forward" : "Opening Balance", null, null, null,
      Csv.cents(account.balance_forward_cents)],
    ...account.lines.map((line) => [
      account.code,
      account.name,
      line.date,
      line.entry_id,
      line.line_no,
      line.source,
      line.memo,
      line.class,
      Csv.cents(line.debit_cents),
      Csv.cents(line.credit_cents),
      Csv.cents(line.balance_cents)
    ]),
    ...(complete
      ? [[account.code, account.name, span.to, null, null, null, "Closing Balance", null, Csv.cents(account.total_debit_cents),
        Csv.cents(account.total_credit_cents), Csv.cents(account.closing_balance_cents)]]
      : [])
  ])
  return Csv.render(header, rows)
}
