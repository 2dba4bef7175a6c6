import { Effect, Schema } from "effect"
import { SqlClient } from "effect/sql"
import { ApiError, Banking } from "@ledger/api"
import * as Handler from "../../kernel/Handler.ts"
import { requireCompanyId } from "../../kernel/CompanyContext.ts"
import * as Pagination from "../../kernel/Pagination.ts"
import { proposalKind as declareKind } from "../../kernel/Registry.ts"
import * as Row from "../../kernel/Row.ts"
import { Governed, JournalEntryStore } from "../../ledger/index.ts"
import * as BankAccounts from "../accounts/BankAccounts.ts"
import * as BankLineStore from "./BankLineStore.ts"
import * as BankRuleStore from "../rules/BankRuleStore.ts"

/**
 * Bank lines (spec 3.5): listing with rule suggestions, categorizing through the governed path,
 * matching to a posted entry, unmatching, excluding and restoring.
 */

/** What a queued categorization stores with its proposal. */
const CategorizeRequest = Schema.Struct({
  bank_line_id: Schema.Number,
  account: Schema.String,
  class: Schema.NullOr(Schema.String),
  memo: Schema.NullOr(Schema.String),
  rule_id: Schema.NullOr(Schema.Number)
})
type CategorizeRequest = typeof CategorizeRequest.Type

/**
 * The entry a categorization posts: money in debits the bank's ledger account and credits the
 * category; money out the other way round. The line's payee and memo become the entry's memo.
 */
export const categorizationEntry = (input: {
  readonly date: string
  readonly amountCents: number
  readonly bankAccountCode: string
  readonly account: string
  readonly className: string | null
  readonly memo: string | null
}): Governed.DraftEntry => {
  const size = Math.abs(input.amountCents)
  const bankSide = { account: input.bankAccountCode, memo: input.memo }
  const categorySide = { account: input.account, memo: input.memo, ...(input.className === null ? {} : { class: input.className }) }
  return {
    date: input.date,
    memo: input.memo,
    lines: input.amountCents > 0
      ? [{ ...bankSide, debit_cents: size }, { ...categorySide, credit_cents: size }]
      : [{ ...categorySide, debit_cents: size }, { ...bankSide, credit_cents: size }]
  }
}

const memoOf = (row: Record<string, unknown>, given: string | undefined): string | null => {
  if (given !== undefined) return given
  const parts = [row.payee, row.memo].filter((part) => part !== null && part !== "").map(String)
  return parts.length === 0 ? null : Array.from(new Set(parts)).join(" - ").slice(0, 1_000)
}

const linkCategorized = (lineId: number, entryId: number) =>
  Effect.flatMap(BankLineStore.update(lineId, { status: "categorized", entry_id: entryId, proposal_id: null }), BankLineStore.presentOne)

/** How a person's decision on a queued categorization reaches the line (kind `bank_line`). */
export const proposalKind = declareKind({
  request: CategorizeRequest,
  // The entry leads to its bank line, as a categorization that posts directly does.
  sourceId: ({ request: input }) => Effect.succeed(input.bank_line_id),
  approved: ({ proposal, request: input, entry }) =>
    Effect.gen(function*() {
      const line = yield* BankLineStore.lockLine(input.bank_line_id)
      if (line.status !== "proposed" || Row.intOrNull(line.proposal_id) !== proposal.id) {
        return yield* Effect.fail(ApiError.fail("bank_line_state", "The bank line no longer waits for this proposal.", {
          bank_line_id: input.bank_line_id,
          status: line.status
        }))
      }
      return yield* linkCategorized(input.bank_line_id, entry.id)
    }),
  rejected: ({ proposal, request: input }) =>
    Effect.gen(function*() {
      const line = yield* BankLineStore.lockLine(input.bank_line_id)
      if (line.status === "proposed" && Row.intOrNull(line.proposal_id) === proposal.id) {
        yield* BankLineStore.update(input.bank_line_id, { status: "unmatched", proposal_id: null })
      }
    })
})

export const handlers = [
  Handler.make(Banking.BankLines.listBankLines, ({ query }) =>
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      const companyId = yield* requireCompanyId
      // Checked once the cursor is read (in select), so a bad cursor is still refused before an unknown account.
      const account = query.bank_account_id === undefined ? Effect.void : Effect.asVoid(BankAccounts.load(query.bank_account_id))
      const select = (after: number | null, limitPlusOne: number) =>
        Effect.andThen(account, sql<Record<string, unknown>>`SELECT * FROM bank_lines WHERE company_id = ${companyId}
        AND withdrawn_at IS NULL
        ${query.bank_account_id === undefined ? sql`` : sql`AND bank_account_id = ${query.bank_account_id}`}
        ${query.status === undefined ? sql`` : sql`AND status = ${query.status}`}
        ${query.from === undefined ? sql`` : sql`AND line_date >= ${query.from}`}
        ${query.to === undefined ? sql`` : sql`AND line_date <= ${query.to}`}
        ${after === null ? sql`` : sql`AND id < ${after}`}
        ORDER BY id DESC LIMIT ${limitPlusOne}`.pipe(Effect.orDie))
      return { body: yield* Pagination.listPageLoaded(query, select, (row) => Row.int(row.id), BankLineStore.present) }
    })),

  Handler.make(Banking.BankLines.categorizeBankLine, ({ path, body }) =>
    Effect.gen(function*() {
      const line = yield* BankLineStore.lockLine(path.id)
      yield* BankLineStore.requireStatus(line, ["unmatched"], "categorized")
      yield* BankLineStore.requirePosted(line)
      const amountCents = Row.int(line.amount_cents)
      if (amountCents === 0) {
        return yield* Effect.fail(ApiError.validationFailed("A line of zero has nothing to post: exclude it instead.", [
          { path: ["path", "id"], message: "Zero amount" }
        ]))
      }
      if (body.rule_id !== undefined && body.rule_id !== null) yield* BankRuleStore.requireRule(body.rule_id)
      const bank = yield* BankAccounts.load(Row.int(line.bank_account_id))
      if (String(bank.account_code) === body.account) {
        return yield* Effect.fail(ApiError.validationFailed("A line cannot be categorized to its own bank's ledger account.", [
          { path: ["body", "account"], message: "The bank's own ledger account" }
        ]))
      }
      const memo = memoOf(line, body.memo)
      const request: CategorizeRequest = {
        bank_line_id: path.id,
        account: body.account,
        class: body.class ?? null,
        memo,
        rule_id: body.rule_id ?? null
      }
      const written = yield* Governed.write({
        kind: "bank_line",
        summary: `Categorize ${Row.date(line.line_date)} ${String(line.payee ?? line.memo ?? "bank line")} (${amountCents} cents) to ${body.account}`,
        entry: categorizationEntry({
          date: Row.date(line.line_date),
          amountCents,
          bankAccountCode: String(bank.account_code),
          account: body.account,
          className: body.class ?? null,
          memo
        }),
        request,
        dryRun: body.dry_run === true,
        softLockOverrideReason: body.soft_lock_override_reason ?? null,
        confidence: body.confidence ?? null,
        sourceId: path.id,
        linesPath: ["body"],
        preview: { document: { bank_line: yield* BankLineStore.presentOne(line), account: body.account, class: body.class ?? null } },
        onPosted: (entry) => linkCategorized(path.id, entry.id),
        onProposed: (proposal) => Effect.asVoid(BankLineStore.update(path.id, { status: "proposed", proposal_id: proposal.id }))
      })
      return {
        ...(written.status === undefined ? {} : { status: written.status }),
        body: written.body,
        audit: {
          targetType: "bank_line",
          targetId: path.id,
          details: { ...written.audit?.details, account: body.account, rule_id: body.rule_id ?? null }
        }
      }
    })),

  Handler.make(Banking.BankLines.matchBankLine, ({ path, body }) =>
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      const companyId = yield* requireCompanyId
      const line = yield* BankLineStore.lockLine(path.id)
      yield* BankLineStore.requireStatus(line, ["unmatched"], "matched")
      yield* BankLineStore.requirePosted(line)
      const bank = yield* BankAccounts.load(Row.int(line.bank_account_id))
      const effect = yield* BankLineStore.entryEffect(body.entry_id, Row.int(bank.account_id))
      const refuse = (message: string, details: Record<string, unknown> = {}) =>
        Effect.fail(ApiError.fail("entry_not_matchable", message, { entry_id: body.entry_id, ...details }))
      if (effect === undefined) return yield* refuse("No such posted entry.")
      if (effect.reversed) return yield* refuse("The entry has been reversed.")
      const amountCents = Row.int(line.amount_cents)
      if (effect.effectCents !== amountCents) {
        return yield* refuse(
          `The entry moves ${String(bank.account_code)} by ${effect.effectCents} cents; the line is ${amountCents} cents.`,
          { entry_effect_cents: effect.effectCents, line_amount_cents: amountCents }
        )
      }
      const taken = yield* sql<Record<string, unknown>>`SELECT id FROM bank_lines WHERE company_id = ${companyId}
        AND bank_account_id = ${line.bank_account_id} AND entry_id = ${body.entry_id}`.pipe(Effect.orDie)
      if (taken.length > 0) return yield* refuse("The entry is already matched to another line.", { bank_line_id: Row.int(taken[0]!.id) })
      const updated = yield* BankLineStore.update(path.id, { status: "matched", entry_id: body.entry_id })
      return {
        body: yield* BankLineStore.presentOne(updated),
        audit: { targetType: "bank_line", targetId: path.id, details: { entry_id: body.entry_id } }
      }
    })),

  Handler.make(Banking.BankLines.unmatchBankLine, ({ path, body }) =>
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      const companyId = yield* requireCompanyId
      const line = yield* BankLineStore.lockLine(path.id)
      yield* BankLineStore.requireStatus(line, ["matched", "categorized"], "unmatched")
      const entryId = Row.int(line.entry_id)
      const bankAccountId = Row.int(line.bank_account_id)
      const reconciliationId = yield* BankLineStore.clearedInFinished(bankAccountId, entryId)
      if (reconciliationId !== null) {
        return yield* Effect.fail(ApiError.fail("bank_line_reconciled", "The entry is cleared in a finished reconciliation: undo that reconciliation first.", {
          reconciliation_id: reconciliationId,
          entry_id: entryId
        }))
      }
      // A categorization's entry exists only for this line: undoing it reverses the entry, so the
      // books are as before it. A matched entry belongs to something else and stays.
      let reversalId: number | null = null
      if (line.status === "categorized") {
        const entry = yield* JournalEntryStore.load(entryId)
        const reversal = yield* JournalEntryStore.reverse(entryId, {
          date: entry!.record.entry_date,
          memo: `Unmatched bank line: ${body.reason}`.slice(0, 1_000),
          sourceKind: "bank_line_unmatch",
          sourceId: path.id
        })
        reversalId = reversal.reversal.id
      }
      yield* sql`DELETE FROM reconciliation_items i USING reconciliations r
        WHERE i.company_id = ${companyId} AND r.company_id = i.company_id AND r.id = i.reconciliation_id
          AND r.status = 'in_progress' AND i.bank_account_id = ${bankAccountId}
          AND i.entry_id IN ${sql.in(reversalId === null ? [entryId] : [entryId, reversalId])}`.pipe(Effect.orDie)
      const updated = yield* BankLineStore.update(path.id, { status: "unmatched", entry_id: null })
      return {
        body: yield* BankLineStore.presentOne(updated),
        audit: {
          targetType: "bank_line",
          targetId: path.id,
          reason: body.reason,
          details: { entry_id: entryId, was: line.status, reversal_entry_id: reversalId }
        }
      }
    })),

  Handler.make(Banking.BankLines.excludeBankLine, ({ path, body }) =>
    Effect.gen(function*() {
      const line = yield* BankLineStore.lockLine(path.id)
      yield* BankLineStore.requireStatus(line, ["unmatched"], "excluded")
      const updated = yield* BankLineStore.update(path.id, { status: "excluded", excluded_reason: body.reason })
      return { body: yield* BankLineStore.presentOne(updated), audit: { targetType: "bank_line", targetId: path.id, reason: body.reason } }
    })),

  Handler.make(Banking.BankLines.restoreBankLine, ({ path }) =>
    Effect.gen(function*() {
      const line = yield* BankLineStore.lockLine(path.id)
      yield* BankLineStore.requireStatus(line, ["excluded"], "restored")
      const updated = yield* BankLineStore.update(path.id, { status: "unmatched", excluded_reason: null })
      return { body: yield* BankLineStore.presentOne(updated), audit: { targetType: "bank_line", targetId: path.id } }
    }))
] as const
