import { Schema } from "effect"
import { DateString, Id, Memo, Name, NonNegativeCents, Timestamp } from "../Common.ts"
import * as Limits from "../Limits.ts"

/**
 * The ledger's records as clients see them: accounts, classes, periods, journal entries and their
 * lines, proposals. Operations in Accounts.ts, Periods.ts, JournalEntries.ts and Proposals.ts use
 * them; other areas reuse `DraftLine`, `JournalEntry` and the governed results of Governed.ts.
 */

export const accountTypes = ["asset", "liability", "equity", "income", "expense"] as const
export const AccountType = Schema.Literals(accountTypes).annotate({
  description: "The account's type: asset, liability, equity, income or expense."
})
export type AccountType = typeof AccountType.Type

/** Codes appear in paths (`/v1/accounts/{code}/update`), so they keep to URL-safe characters. */
export const AccountCode = Schema.String.check(
  Schema.isPattern(/^[A-Za-z0-9][A-Za-z0-9._-]*$/u),
  Schema.isMaxLength(Limits.accountCodeLengthMax)
).annotate({ description: "An account code: letters, digits, '.', '_' or '-', starting with a letter or digit." })

export const AccountSubtype = Schema.String.check(
  Schema.isPattern(/^[a-z][a-z0-9_]*$/u),
  Schema.isMaxLength(Limits.accountSubtypeLengthMax)
).annotate({ description: "A finer kind within the type, snake_case (e.g. `bank`, `accounts_receivable`, `credit_card`)." })

export const Control = Schema.Literals(["ar", "ap"]).annotate({
  description: "Marks the accounts receivable (`ar`) or payable (`ap`) control account. Fixed at creation."
})

export const Account = Schema.Struct({
  id: Id,
  code: AccountCode,
  name: Name,
  type: AccountType,
  subtype: Schema.NullOr(Schema.String),
  parent_code: Schema.NullOr(Schema.String),
  control: Schema.NullOr(Control),
  active: Schema.Boolean,
  default_for: Schema.NullOr(Schema.Literals(["income", "expense"])).annotate({
    description: "Set on the company's default income or expense account."
  }),
  balance_cents: Schema.optionalKey(Schema.Int).annotate({
    description: "With include_balances: signed in the account's natural direction (assets and expenses grow with debits)."
  }),
  created_at: Timestamp
}).annotate({ identifier: "Account" })
export type Account = typeof Account.Type

export const AccountDefaults = Schema.Struct({
  income: Schema.NullOr(Schema.String),
  expense: Schema.NullOr(Schema.String)
}).annotate({ identifier: "AccountDefaults" })

export const Class = Schema.Struct({
  id: Id,
  name: Name,
  created_at: Timestamp
}).annotate({ identifier: "Class" })

export const periodStatuses = ["open", "soft_locked", "hard_locked"] as const
export const PeriodStatus = Schema.Literals(periodStatuses).annotate({
  description: "open posts freely; soft_locked posts only with a soft_lock_override_reason; hard_locked refuses every posting."
})
export type PeriodStatus = typeof PeriodStatus.Type

export const Period = Schema.Struct({
  id: Id,
  start_date: DateString,
  end_date: DateString,
  fiscal_year: Schema.Int.annotate({ description: "The fiscal year containing the period's end, named by the calendar year it ends." }),
  status: PeriodStatus,
  status_reason: Schema.NullOr(Schema.String),
  status_changed_at: Schema.NullOr(Timestamp),
  created_at: Timestamp
}).annotate({ identifier: "Period" })
export type Period = typeof Period.Type

export const FiscalYear = Schema.Int.check(
  Schema.isBetween({ minimum: Limits.fiscalYearMin, maximum: Limits.fiscalYearMax })
).annotate({ description: "A fiscal year, named by the calendar year it ends." })

/**
 * One line of a proposed entry (DECISIONS.md): exactly one of `debit_cents` and `credit_cents`,
 * greater than zero. Zero and two-sided lines pass the schema so the engine can refuse them with
 * their own stable error types naming the line.
 */
export const DraftLine = Schema.Struct({
  account: AccountCode,
  debit_cents: Schema.optionalKey(NonNegativeCents),
  credit_cents: Schema.optionalKey(NonNegativeCents),
  memo: Schema.optionalKey(Memo),
  class: Schema.optionalKey(Name).annotate({ description: "A class name (reporting dimension)." }),
  contact_id: Schema.optionalKey(Id)
}).annotate({ identifier: "DraftLine" })
export type DraftLine = typeof DraftLine.Type

export const DraftLines = Schema.Array(DraftLine).check(Schema.isMaxLength(Limits.entryLinesMax)).annotate({
  description: "The entry's lines: each debits or credits one account; debits and credits balance."
})

/** A line as posted (or as it would post, in a preview). */
export const JournalLine = Schema.Struct({
  line_no: Schema.Int,
  account: Schema.String,
  account_name: Schema.String,
  debit_cents: Schema.Int,
  credit_cents: Schema.Int,
  memo: Schema.NullOr(Schema.String),
  class: Schema.NullOr(Schema.String),
  contact_id: Schema.NullOr(Id)
}).annotate({ identifier: "JournalLine" })
export type JournalLine = typeof JournalLine.Type

export const Principal = Schema.Struct({
  type: Schema.String,
  id: Schema.NullOr(Schema.Int),
  name: Schema.NullOr(Schema.String)
}).annotate({ identifier: "PrincipalReference" })

export const JournalEntry = Schema.Struct({
  id: Id,
  entry_id: Id.annotate({ description: "The same as id: every posted record names its entry_id (DECISIONS.md)." }),
  entry_date: DateString,
  memo: Schema.NullOr(Schema.String),
  lines: Schema.Array(JournalLine),
  total_cents: Schema.Int.annotate({ description: "The sum of the debits (equal to the sum of the credits)." }),
  source: Schema.Struct({
    kind: Schema.String.annotate({ description: "What posted it: `journal_entry`, `reversal`, `invoice`, `bank_line`, ..." }),
    id: Schema.NullOr(Schema.Int)
  }),
  reverses_entry_id: Schema.NullOr(Id),
  reversed_by_entry_id: Schema.NullOr(Id),
  proposal_id: Schema.NullOr(Id),
  soft_lock_override_reason: Schema.NullOr(Schema.String),
  confidence: Schema.NullOr(Schema.Finite),
  posted_by: Principal,
  agent_model: Schema.NullOr(Schema.String),
  posted_at: Timestamp
}).annotate({ identifier: "JournalEntry" })
export type JournalEntry = typeof JournalEntry.Type

export const StarterChartAccount = Schema.Struct({
  code: Schema.String,
  name: Schema.String,
  type: AccountType,
  subtype: Schema.NullOr(Schema.String),
  parent_code: Schema.NullOr(Schema.String),
  control: Schema.NullOr(Control)
}).annotate({ identifier: "StarterChartAccount" })

export const StarterChart = Schema.Struct({
  name: Schema.Literals(["general", "services", "retail", "empty"]),
  description: Schema.String,
  accounts: Schema.Array(StarterChartAccount),
  defaults: AccountDefaults
}).annotate({ identifier: "StarterChart" })
