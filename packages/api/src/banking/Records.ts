import { Schema } from "effect"
import { Cents, DateString, Id, Name, Timestamp } from "../Common.ts"
import * as Limits from "../Limits.ts"

/**
 * The banking area's records as clients see them: bank accounts, statement imports, bank lines,
 * rules, bank feeds and reconciliations (spec 2, 3.5, 3.6, 4.5, 4.6).
 */

export const bankAccountKinds = ["checking", "savings", "credit_card", "other"] as const
export const BankAccountKind = Schema.Literals(bankAccountKinds).annotate({ description: "checking, savings, credit_card or other." })
export type BankAccountKind = typeof BankAccountKind.Type

export const bankLineStatuses = ["unmatched", "proposed", "matched", "categorized", "excluded"] as const
export const BankLineStatus = Schema.Literals(bankLineStatuses)
export type BankLineStatus = typeof BankLineStatus.Type

export const Direction = Schema.Literals(["in", "out", "any"]).annotate({ description: "Which lines: money in, money out, or any." })
export type Direction = typeof Direction.Type

const ShortText = Schema.String.check(Schema.isMaxLength(Limits.nameLengthMax))
export const Mask = Schema.String.check(Schema.isMinLength(1), Schema.isMaxLength(Limits.bankMaskLengthMax)).annotate({
  description: "The last digits of the bank's account number; picks the statement in a file that holds several."
})

/** A column of a CSV file: its header text, or its position counted from 0. */
export const CsvColumn = Schema.Union([
  Schema.String.check(Schema.isMinLength(1), Schema.isMaxLength(Limits.nameLengthMax)),
  Schema.Int.check(Schema.isBetween({ minimum: 0, maximum: Limits.csvColumnsMax - 1 }))
]).annotate({ description: "A header text, or a column position counted from 0." })

export const csvDateFormats = [
  "YYYY-MM-DD",
  "YYYYMMDD",
  "YYYY/MM/DD",
  "MM/DD/YYYY",
  "DD/MM/YYYY",
  "DD.MM.YYYY",
  "DD-MM-YYYY",
  "MM-DD-YYYY",
  "YYYY.MM.DD",
  "DD Mon YYYY"
] as const

export const csvEncodings = ["utf-8", "windows-1252", "iso-8859-1", "iso-8859-15", "windows-1250", "iso-8859-2"] as const

/**
 * How to read a bank's CSV export (docs/decisions/0401). Every field is optional: what is left out
 * is detected from the file (separator, header row, date layout, decimal comma, columns by their
 * header names in several languages).
 */
export const CsvProfile = Schema.Struct({
  delimiter: Schema.optionalKey(Schema.Literals([",", ";", "\t", "|"])),
  encoding: Schema.optionalKey(Schema.Literals(csvEncodings)).annotate({
    description: "Character set of base64 content that is not UTF-8; detected when omitted."
  }),
  skip_rows: Schema.optionalKey(Schema.Int.check(Schema.isBetween({ minimum: 0, maximum: 100 }))).annotate({
    description: "Lines before the header (or the first transaction) to skip: a bank's preamble."
  }),
  header: Schema.optionalKey(Schema.Boolean).annotate({ description: "Whether the first row read is a header row." }),
  date_column: Schema.optionalKey(CsvColumn),
  date_format: Schema.optionalKey(Schema.Literals(csvDateFormats)),
  amount_column: Schema.optionalKey(CsvColumn).annotate({ description: "Signed amount: positive is money in." }),
  debit_column: Schema.optionalKey(CsvColumn).annotate({ description: "Money out, when the bank splits amounts in two columns." }),
  credit_column: Schema.optionalKey(CsvColumn).annotate({ description: "Money in, when the bank splits amounts in two columns." }),
  type_column: Schema.optionalKey(CsvColumn).annotate({ description: "A column whose value says the direction." }),
  debit_types: Schema.optionalKey(Schema.Array(ShortText).check(Schema.isMaxLength(20))).annotate({
    description: "Values of type_column meaning money out (case-insensitive); the amount is then made negative."
  }),
  payee_column: Schema.optionalKey(CsvColumn),
  memo_columns: Schema.optionalKey(Schema.Array(CsvColumn).check(Schema.isMaxLength(20))),
  id_column: Schema.optionalKey(CsvColumn).annotate({ description: "The bank's own transaction id, used for dedupe." }),
  check_number_column: Schema.optionalKey(CsvColumn),
  decimal_separator: Schema.optionalKey(Schema.Literals([".", ","])),
  invert_amounts: Schema.optionalKey(Schema.Boolean).annotate({
    description: "For exports that show purchases positive and payments negative (many card statements)."
  })
}).annotate({ identifier: "CsvProfile", description: "How to read this account's CSV statements: which columns hold the date, amount and text." })
export type CsvProfile = typeof CsvProfile.Type

export const LineCounts = Schema.Struct({
  unmatched: Schema.Int,
  proposed: Schema.Int,
  matched: Schema.Int,
  categorized: Schema.Int,
  excluded: Schema.Int
}).annotate({ identifier: "BankLineCounts" })

export const ReconciliationStatusSummary = Schema.Struct({
  last_statement_date: Schema.NullOr(DateString),
  last_statement_ending_balance_cents: Schema.NullOr(Schema.Int),
  in_progress_reconciliation_id: Schema.NullOr(Id)
}).annotate({ identifier: "BankReconciliationStatus" })

export const importFormats = ["ofx", "qfx", "csv"] as const
export const ImportFormat = Schema.Literals(importFormats).annotate({ description: "The statement file's format: ofx, qfx or csv (csv reads by csv_profile)." })

export const StatementImport = Schema.Struct({
  id: Id,
  bank_account_id: Id,
  format: Schema.Literals([...importFormats, "feed"]),
  filename: Schema.NullOr(Schema.String),
  lines_read: Schema.Int,
  lines_imported: Schema.Int,
  duplicates: Schema.Int,
  first_date: Schema.NullOr(DateString),
  last_date: Schema.NullOr(DateString),
  statement_balance_cents: Schema.NullOr(Schema.Int),
  created_at: Timestamp,
  status: Schema.Literals(["importing", "imported"]).annotate({
    description: "importing while the file's lines are written a batch at a time (the counts above are what is written so far); imported once all are."
  }),
  lines_total: Schema.NullOr(Schema.Int).annotate({
    description: "The transactions the file holds, counted before the first line is written; null for a bank feed's import."
  })
}).annotate({ identifier: "StatementImport" })

export const BankAccount = Schema.Struct({
  id: Id,
  name: Name,
  kind: BankAccountKind,
  ledger_account: Schema.String,
  institution: Schema.NullOr(Schema.String),
  mask: Schema.NullOr(Schema.String),
  csv_profile: Schema.NullOr(CsvProfile),
  ledger_balance_cents: Schema.Int.annotate({
    description: "The book balance of the ledger account, signed in its natural direction."
  }),
  line_counts: LineCounts,
  reconciliation: ReconciliationStatusSummary,
  feed: Schema.NullOr(Schema.Struct({ bank_feed_id: Id, feed_account: Schema.String })),
  created_at: Timestamp
}).annotate({ identifier: "BankAccount" })
export type BankAccount = typeof BankAccount.Type

export const BankAccountDetail = Schema.Struct({
  ...BankAccount.fields,
  imports: Schema.Array(StatementImport)
}).annotate({ identifier: "BankAccountDetail" })

export const RuleSuggestion = Schema.Struct({
  rule_id: Id,
  rule_name: Schema.String,
  account: Schema.String,
  class: Schema.NullOr(Schema.String),
  memo: Schema.NullOr(Schema.String)
}).annotate({ identifier: "RuleSuggestion" })

export const BankLine = Schema.Struct({
  id: Id,
  bank_account_id: Id,
  status: BankLineStatus,
  date: DateString,
  amount_cents: Cents.annotate({ description: "Signed: positive is money into the account." }),
  payee: Schema.NullOr(Schema.String),
  memo: Schema.NullOr(Schema.String),
  check_number: Schema.NullOr(Schema.String),
  statement_id: Schema.NullOr(Schema.String).annotate({ description: "The statement's transaction id (FITID)." }),
  source: Schema.Literals(["file", "feed"]),
  import_id: Schema.NullOr(Id),
  pending: Schema.Boolean,
  entry_id: Schema.NullOr(Id).annotate({ description: "The posted entry the line is matched to or categorized by." }),
  proposal_id: Schema.NullOr(Id),
  excluded_reason: Schema.NullOr(Schema.String),
  review: Schema.NullOr(Schema.String).annotate({
    description: "Set when the bank changed or removed a transaction after it was matched or categorized."
  }),
  suggestion: Schema.NullOr(RuleSuggestion).annotate({ description: "Unmatched lines: the first matching rule's suggestion." }),
  created_at: Timestamp
}).annotate({ identifier: "BankLine" })
export type BankLine = typeof BankLine.Type

export const ParsedLine = Schema.Struct({
  date: DateString,
  amount_cents: Schema.Int,
  payee: Schema.NullOr(Schema.String),
  memo: Schema.NullOr(Schema.String),
  check_number: Schema.NullOr(Schema.String),
  statement_id: Schema.NullOr(Schema.String),
  duplicate: Schema.Boolean
}).annotate({ identifier: "ParsedBankLine" })

export const ImportResult = Schema.Struct({
  dry_run: Schema.Boolean,
  import: Schema.NullOr(StatementImport),
  lines_read: Schema.Int,
  lines_imported: Schema.Int,
  duplicates: Schema.Int,
  statements: Schema.Array(Schema.Struct({
    account_id: Schema.NullOr(Schema.String),
    currency: Schema.NullOr(Schema.String),
    transactions: Schema.Int,
    ledger_balance_cents: Schema.NullOr(Schema.Int),
    ledger_balance_date: Schema.NullOr(DateString)
  })),
  lines: Schema.Array(ParsedLine).annotate({
    description: `Dry run: the parsed lines (the first ${Limits.importPreviewLinesMax}), duplicates marked.`
  })
}).annotate({ identifier: "ImportResult" })

export const BankRule = Schema.Struct({
  id: Id,
  name: Name,
  priority: Schema.Int,
  bank_account_id: Schema.NullOr(Id),
  payee_contains: Schema.NullOr(Schema.String),
  direction: Direction,
  amount_min_cents: Schema.NullOr(Schema.Int),
  amount_max_cents: Schema.NullOr(Schema.Int),
  account: Schema.String,
  class: Schema.NullOr(Schema.String),
  memo: Schema.NullOr(Schema.String),
  active: Schema.Boolean,
  deactivated_reason: Schema.NullOr(Schema.String),
  created_at: Timestamp
}).annotate({ identifier: "BankRule" })
export type BankRule = typeof BankRule.Type

export const MatchResult = Schema.Struct({
  dry_run: Schema.Boolean,
  matched: Schema.Array(Schema.Struct({ bank_line_id: Id, entry_id: Id })),
  transfers: Schema.Array(Schema.Struct({
    out_line_id: Id,
    in_line_id: Id,
    amount_cents: Schema.Int,
    entry_id: Schema.NullOr(Id),
    proposal_id: Schema.NullOr(Id)
  })),
  ambiguous: Schema.Array(Schema.Struct({ bank_line_id: Id, candidate_entry_ids: Schema.Array(Id) })),
  unmatched: Schema.Int
}).annotate({ identifier: "AutoMatchResult" })

// Bank feeds' and reconciliations' records live in files of their own; `Banking.Records` names them all.
export * from "./BankFeedRecords.ts"
export * from "./ReconciliationRecords.ts"
