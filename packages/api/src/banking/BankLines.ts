import { Schema } from "effect"
import { DateString, DryRun, Empty, Id, Memo, Name, NonNegativeCents, PageQuery, Page, Reason } from "../Common.ts"
import * as Limits from "../Limits.ts"
import * as Operation from "../Operation.ts"
import * as Governed from "../ledger/Governed.ts"
import { AccountCode } from "../ledger/Records.ts"
import { area } from "./BankAccounts.ts"
import { BankLine, BankLineStatus, BankRule, Direction } from "./Records.ts"

const IdPath = Schema.Struct({ id: Id })
const ClassName = Schema.String.check(Schema.isMinLength(1), Schema.isMaxLength(Limits.nameLengthMax)).annotate({
  description: "A class name (reporting dimension) for the posted line."
})

export const listBankLines = Operation.make({
  id: "listBankLines",
  method: "GET",
  path: "/v1/bank-lines",
  area,
  summary: "Bank lines, newest first; unmatched lines carry the first matching rule's suggestion.",
  scope: "read",
  mode: "R",
  query: Schema.Struct({
    bank_account_id: Schema.optionalKey(Id),
    status: Schema.optionalKey(BankLineStatus),
    from: Schema.optionalKey(DateString),
    to: Schema.optionalKey(DateString),
    ...PageQuery
  }),
  success: Page(BankLine)
})

/** What a categorization posts and links, shown by its dry run. */
export const CategorizationPreview = Schema.Struct({
  bank_line: BankLine,
  account: Schema.String,
  class: Schema.NullOr(Schema.String)
}).annotate({ identifier: "CategorizationPreview" })

export const categorizeBankLine = Operation.make({
  id: "categorizeBankLine",
  method: "POST",
  path: "/v1/bank-lines/{id}/categorize",
  area,
  summary: "Post an unmatched line to an account through the governed path (200 preview, 201 posted, 202 queued).",
  description: "A deposit debits the bank's ledger account and credits the category; a withdrawal the reverse. " +
    "Queued, the line is `proposed` until a person decides; rejection returns it to `unmatched`.",
  scope: "propose",
  mode: "K",
  governed: true,
  pathParams: IdPath,
  body: Schema.Struct({
    account: AccountCode,
    class: Schema.optionalKey(ClassName),
    memo: Schema.optionalKey(Memo),
    confidence: Schema.optionalKey(Schema.Finite.check(Schema.isBetween({ minimum: 0, maximum: 1 })).annotate({
      description: "The agent's confidence in the categorization, 0 to 1; recorded, never decisive."
    })),
    rule_id: Schema.optionalKey(Id),
    dry_run: DryRun,
    soft_lock_override_reason: Schema.optionalKey(Reason)
  }),
  success: BankLine,
  otherResponses: { 200: Governed.preview(CategorizationPreview), 202: Governed.Queued },
  errors: [
    "bank_line_state",
    "unknown_account",
    "inactive_account",
    "unknown_class",
    "control_account_line",
    "period_hard_locked", "amount_out_of_range",
    "soft_lock_reason_required"
  ]
})

export const matchBankLine = Operation.make({
  id: "matchBankLine",
  method: "POST",
  path: "/v1/bank-lines/{id}/match",
  area,
  summary: "Match an unmatched line to a posted entry that moves the bank's ledger account by exactly its amount.",
  scope: "propose",
  mode: "K",
  status: 200,
  pathParams: IdPath,
  body: Schema.Struct({ entry_id: Id }),
  success: BankLine,
  errors: ["bank_line_state", "entry_not_matchable"]
})

export const unmatchBankLine = Operation.make({
  id: "unmatchBankLine",
  method: "POST",
  path: "/v1/bank-lines/{id}/unmatch",
  area,
  summary: "Undo a match or a categorization's link; refused once the entry is cleared in a finished reconciliation.",
  description: "The entry stays posted (reverse it in the ledger to undo its effect); the line returns to `unmatched`.",
  scope: "approve",
  mode: "K",
  status: 200,
  pathParams: IdPath,
  body: Schema.Struct({ reason: Reason }),
  success: BankLine,
  errors: ["bank_line_state", "bank_line_reconciled", "entry_already_reversed", "period_hard_locked", "amount_out_of_range", "soft_lock_reason_required"]
})

export const excludeBankLine = Operation.make({
  id: "excludeBankLine",
  method: "POST",
  path: "/v1/bank-lines/{id}/exclude",
  area,
  summary: "Set an unmatched line aside (a duplicate, a personal charge) with a reason.",
  scope: "propose",
  mode: "K",
  status: 200,
  pathParams: IdPath,
  body: Schema.Struct({ reason: Reason }),
  success: BankLine,
  errors: ["bank_line_state"]
})

export const restoreBankLine = Operation.make({
  id: "restoreBankLine",
  method: "POST",
  path: "/v1/bank-lines/{id}/restore",
  area,
  summary: "Return an excluded line to `unmatched`.",
  scope: "propose",
  mode: "K",
  status: 200,
  pathParams: IdPath,
  body: Empty,
  success: BankLine,
  errors: ["bank_line_state"]
})

const PayeeText = Schema.String.check(Schema.isMinLength(1), Schema.isMaxLength(Limits.nameLengthMax)).annotate({
  description: "Matches lines whose payee or memo contains this text (case-insensitive)."
})

export const createBankRule = Operation.make({
  id: "createBankRule",
  method: "POST",
  path: "/v1/bank-rules",
  area,
  summary: "Add a categorization rule. Rules are never edited: deactivate one and add another.",
  description: "Rules never post: their suggestion is shown on unmatched lines and applied through categorize.",
  scope: "admin",
  mode: "K",
  body: Schema.Struct({
    name: Name,
    priority: Schema.Int.check(Schema.isBetween({ minimum: -1_000_000, maximum: 1_000_000 })).annotate({
      description: "Evaluation order: the lowest number first, then the oldest rule; the first rule matching a line suggests for it."
    }),
    bank_account_id: Schema.optionalKey(Id),
    payee_contains: Schema.optionalKey(PayeeText),
    direction: Schema.optionalKey(Direction),
    amount_min_cents: Schema.optionalKey(NonNegativeCents),
    amount_max_cents: Schema.optionalKey(NonNegativeCents),
    account: AccountCode,
    class: Schema.optionalKey(ClassName),
    memo: Schema.optionalKey(Memo)
  }),
  success: BankRule,
  errors: ["unknown_account", "inactive_account"]
})

export const listBankRules = Operation.make({
  id: "listBankRules",
  method: "GET",
  path: "/v1/bank-rules",
  area,
  summary: "Rules in evaluation order: priority (lowest first), then age (oldest first).",
  scope: "read",
  mode: "R",
  query: Schema.Struct({ include_inactive: Schema.optionalKey(Schema.Boolean), ...PageQuery }),
  success: Page(BankRule)
})

export const deactivateBankRule = Operation.make({
  id: "deactivateBankRule",
  method: "POST",
  path: "/v1/bank-rules/{id}/deactivate",
  area,
  summary: "Deactivate a rule, with a reason.",
  scope: "admin",
  mode: "K",
  status: 200,
  pathParams: IdPath,
  body: Schema.Struct({ reason: Reason }),
  success: BankRule,
  errors: ["conflict"]
})

export const operations = [
  listBankLines,
  categorizeBankLine,
  matchBankLine,
  unmatchBankLine,
  excludeBankLine,
  restoreBankLine,
  createBankRule,
  listBankRules,
  deactivateBankRule
] as const
