import { ApiError, Limits } from "@ledger/api"
import type { AccountRef, ClassRef } from "../accounts/AccountRules.ts"

/**
 * The rules of a journal entry, as pure functions over plain data: what makes a draft valid, how
 * its lines become signed amounts (debits positive, credits negative), its total, and its exact
 * reversal. The database checks the same balance rule again at commit.
 */

/** The chart's side of a line: kept with the chart (accounts/AccountRules.ts), named here as the rules always named them. */
export type { AccountRef, ClassRef } from "../accounts/AccountRules.ts"
export { naturalSign } from "../accounts/AccountRules.ts"

/** One line as a caller drafts it (DECISIONS.md `DraftLine`): an account code and one side. */
export interface DraftLine {
  readonly account: string
  readonly debit_cents?: number | undefined
  readonly credit_cents?: number | undefined
  readonly memo?: string | null | undefined
  /** A class name. */
  readonly class?: string | null | undefined
  readonly contact_id?: number | null | undefined
}

/** What a governed write posts: a date, a memo and 2 to 500 lines whose debits equal credits. */
export interface DraftEntry {
  readonly date: string
  readonly memo?: string | null | undefined
  readonly lines: ReadonlyArray<DraftLine>
}

/** A line resolved against the chart: signed cents, ids for storage, names for people. */
export interface ResolvedLine {
  readonly lineNo: number
  readonly accountId: number
  readonly account: string
  readonly accountName: string
  readonly accountType: AccountRef["type"]
  /** Debits positive, credits negative; never zero. */
  readonly amountCents: number
  readonly memo: string | null
  readonly classId: number | null
  readonly className: string | null
  readonly contactId: number | null
  /** The account's control (AR/AP) as resolved from the chart; absent on lines read back from storage. */
  readonly control?: "ar" | "ap" | null | undefined
}

export type Path = ReadonlyArray<string | number>

const amountOf = (line: DraftLine): { readonly debit: number; readonly credit: number } => ({
  debit: line.debit_cents ?? 0,
  credit: line.credit_cents ?? 0
})

/**
 * Everything that can be refused before the chart is consulted: the number of lines, one side per
 * line, and debits equal to credits. `linesPath` is where the lines sit in the caller's request,
 * so `details.issues` name the offending line.
 */
export const checkShape = (draft: DraftEntry, linesPath: Path = ["body", "lines"]): ApiError.LedgerError | null => {
  if (draft.lines.length < Limits.entryLinesMin) {
    return ApiError.fail("single_line_entry", `An entry needs at least ${Limits.entryLinesMin} lines.`, {
      issues: [{ path: [...linesPath], message: `${draft.lines.length} line(s); at least ${Limits.entryLinesMin} needed` }]
    })
  }
  if (draft.lines.length > Limits.entryLinesMax) {
    return ApiError.validationFailed(`An entry has at most ${Limits.entryLinesMax} lines.`, [{
      path: [...linesPath],
      message: `At most ${Limits.entryLinesMax} lines`
    }])
  }
  const zero: Array<ApiError.Issue> = []
  const twoSided: Array<ApiError.Issue> = []
  draft.lines.forEach((line, index) => {
    const { credit, debit } = amountOf(line)
    if (debit > 0 && credit > 0) {
      twoSided.push({ path: [...linesPath, index], message: "Give either debit_cents or credit_cents, not both" })
    } else if (debit <= 0 && credit <= 0) {
      zero.push({ path: [...linesPath, index], message: "The line needs debit_cents or credit_cents greater than zero" })
    }
  })
  if (zero.length > 0) {
    return ApiError.fail("zero_amount_line", "Every line needs an amount greater than zero on one side.", { issues: zero })
  }
  if (twoSided.length > 0) {
    return ApiError.fail("two_sided_line", "A line is either a debit or a credit.", { issues: twoSided })
  }
  const totals = sides(draft.lines)
  if (totals.debit !== totals.credit) {
    return ApiError.fail(
      "unbalanced_entry",
      `Debits (${totals.debit}) and credits (${totals.credit}) differ by ${Math.abs(totals.debit - totals.credit)} cents.`,
      {
        debit_cents: totals.debit,
        credit_cents: totals.credit,
        difference_cents: totals.debit - totals.credit,
        issues: [{ path: [...linesPath], message: "Debits must equal credits" }]
      }
    )
  }
  if (totals.debit > Limits.amountCentsMax) {
    return ApiError.validationFailed(`An entry's total is at most ${Limits.amountCentsMax} cents.`, [{
      path: [...linesPath],
      message: "Total too large"
    }])
  }
  return null
}

export const sides = (lines: ReadonlyArray<DraftLine>): { readonly debit: number; readonly credit: number } =>
  lines.reduce((sum, line) => {
    const { credit, debit } = amountOf(line)
    return { debit: sum.debit + debit, credit: sum.credit + credit }
  }, { debit: 0, credit: 0 })

/**
 * Resolves a well-shaped draft against the chart and the classes: unknown accounts, inactive
 * accounts and unknown classes are refused with the lines they occur on.
 */
export const resolve = (
  draft: DraftEntry,
  accounts: ReadonlyMap<string, AccountRef>,
  classes: ReadonlyMap<string, ClassRef>,
  linesPath: Path = ["body", "lines"]
): ApiError.LedgerError | ReadonlyArray<ResolvedLine> => {
  const unknown: Array<ApiError.Issue> = []
  const inactive: Array<ApiError.Issue> = []
  const unknownClass: Array<ApiError.Issue> = []
  draft.lines.forEach((line, index) => {
    const account = accounts.get(line.account)
    if (account === undefined) unknown.push({ path: [...linesPath, index, "account"], message: `No account ${line.account}` })
    else if (!account.active) inactive.push({ path: [...linesPath, index, "account"], message: `Account ${line.account} is inactive` })
    if (line.class !== undefined && line.class !== null && !classes.has(line.class)) {
      unknownClass.push({ path: [...linesPath, index, "class"], message: `No class ${line.class}` })
    }
  })
  if (unknown.length > 0) return ApiError.fail("unknown_account", "The entry names accounts the chart does not have.", { issues: unknown })
  if (inactive.length > 0) return ApiError.fail("inactive_account", "The entry names inactive accounts.", { issues: inactive })
  if (unknownClass.length > 0) return ApiError.fail("unknown_class", "The entry names classes that do not exist.", { issues: unknownClass })
  const pastBound = turnoverRefusal(draft, accounts, linesPath)
  if (pastBound !== null) return pastBound
  return draft.lines.map((line, index) => {
    const account = accounts.get(line.account)!
    const { credit, debit } = amountOf(line)
    const className = line.class ?? null
    return {
      lineNo: index + 1,
      accountId: account.id,
      account: account.code,
      accountName: account.name,
      accountType: account.type,
      amountCents: debit > 0 ? debit : -credit,
      memo: line.memo ?? null,
      classId: className === null ? null : classes.get(className)!.id,
      className,
      contactId: line.contact_id ?? null,
      control: account.control ?? null
    }
  })
}

const safeCents = BigInt(Number.MAX_SAFE_INTEGER)

/**
 * `amount_out_of_range` when the entry would take an account's all-time debit or credit turnover
 * past Number.MAX_SAFE_INTEGER: past it no balance or report on the account can be stated exactly
 * (ADR 0717). Only accounts read with their turnover (the posting path) are checked.
 */
const turnoverRefusal = (
  draft: DraftEntry,
  accounts: ReadonlyMap<string, AccountRef>,
  linesPath: Path
): ApiError.LedgerError | null => {
  const added = new Map<string, { debit: bigint; credit: bigint }>()
  for (const line of draft.lines) {
    const { credit, debit } = amountOf(line)
    const sums = added.get(line.account) ?? { debit: 0n, credit: 0n }
    added.set(line.account, { debit: sums.debit + BigInt(debit), credit: sums.credit + BigInt(credit) })
  }
  const issues = draft.lines.flatMap((line, index) => {
    const turnover = accounts.get(line.account)?.turnover
    const sums = added.get(line.account)!
    return turnover !== undefined && (turnover.debitCents + sums.debit > safeCents || turnover.creditCents + sums.credit > safeCents)
      ? [{ path: [...linesPath, index, "account"], message: `Account ${line.account}'s total debits or credits would pass 9,007,199,254,740,991 cents` }]
      : []
  })
  return issues.length === 0 ? null : turnoverPastBound(issues)
}

/**
 * The refusal of an entry that would take an account's turnover past the safe range: with the
 * lines' issues when the engine found it, without when the database did (migration 0045: a
 * concurrent posting, or a path that read no turnover).
 */
export const turnoverPastBound = (issues?: ReadonlyArray<{ readonly path: Path; readonly message: string }>) =>
  ApiError.fail(
    "amount_out_of_range",
    "The entry would take an account's total debits or credits past what the API can state exactly in integer cents (±9,007,199,254,740,991).",
    { ...(issues === undefined ? {} : { issues }), limit_cents: Number.MAX_SAFE_INTEGER }
  )

/** The sum of the debits, which a balanced entry's credits equal. */
export const total = (lines: ReadonlyArray<{ readonly amountCents: number }>): number =>
  lines.reduce((sum, line) => sum + (line.amountCents > 0 ? line.amountCents : 0), 0)

/** The exact reversal: every line on the other side, same accounts, classes, contacts and memos. */
export const reversal = (lines: ReadonlyArray<ResolvedLine>): ReadonlyArray<ResolvedLine> =>
  lines.map((line) => ({ ...line, amountCents: -line.amountCents }))

/** A resolved line back in the draft's words (for storing a proposal's exact entry). */
export const toDraftLine = (line: ResolvedLine): DraftLine => ({
  account: line.account,
  ...(line.amountCents > 0 ? { debit_cents: line.amountCents } : { credit_cents: -line.amountCents }),
  ...(line.memo === null ? {} : { memo: line.memo }),
  ...(line.className === null ? {} : { class: line.className }),
  ...(line.contactId === null ? {} : { contact_id: line.contactId })
})

/** The wire shape of a line (`JournalLine`). */
export const toWireLine = (line: ResolvedLine) => ({
  line_no: line.lineNo,
  account: line.account,
  account_name: line.accountName,
  debit_cents: line.amountCents > 0 ? line.amountCents : 0,
  credit_cents: line.amountCents < 0 ? -line.amountCents : 0,
  memo: line.memo,
  class: line.className,
  contact_id: line.contactId
})

/** Per-account debit and credit sums of resolved lines, in account-id order (the order totals are upserted). */
export const byAccount = (lines: ReadonlyArray<ResolvedLine>) => {
  const sums = new Map<number, { debit: number; credit: number }>()
  for (const line of lines) {
    const sum = sums.get(line.accountId) ?? { debit: 0, credit: 0 }
    if (line.amountCents > 0) sum.debit += line.amountCents
    else sum.credit += -line.amountCents
    sums.set(line.accountId, sum)
  }
  return Array.from(sums, ([accountId, sum]) => ({ accountId, debitCents: sum.debit, creditCents: sum.credit }))
    .sort((left, right) => left.accountId - right.accountId)
}
