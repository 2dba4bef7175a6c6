import { Schema } from "effect"
import { DryRun, Id, Name, PageQuery, Page } from "../Common.ts"
import * as Limits from "../Limits.ts"
import * as Operation from "../Operation.ts"
import { AccountCode } from "../ledger/Records.ts"
import {
  BankAccount,
  BankAccountDetail,
  BankAccountKind,
  CsvProfile,
  ImportFormat,
  ImportResult,
  Mask,
  MatchResult
} from "./Records.ts"

export const area = "4.5 Banking"
const IdPath = Schema.Struct({ id: Id })
const Institution = Schema.String.check(Schema.isMinLength(1), Schema.isMaxLength(Limits.nameLengthMax)).annotate({
  description: "The bank or card issuer's name."
})

export const NewBankAccount = Schema.Struct({
  name: Name,
  kind: BankAccountKind,
  ledger_account: AccountCode,
  institution: Schema.optionalKey(Institution),
  mask: Schema.optionalKey(Mask),
  csv_profile: Schema.optionalKey(CsvProfile)
}).annotate({ identifier: "NewBankAccount" })

export const createBankAccount = Operation.make({
  id: "createBankAccount",
  method: "POST",
  path: "/v1/bank-accounts",
  area,
  summary: "Add a bank or card account, tied for good to an asset or liability ledger account.",
  description: "The ledger account and kind never change; the ledger account becomes protected from deactivation.",
  scope: "admin",
  mode: "K",
  body: NewBankAccount,
  success: BankAccount,
  errors: ["unknown_account", "inactive_account"]
})

export const listBankAccounts = Operation.make({
  id: "listBankAccounts",
  method: "GET",
  path: "/v1/bank-accounts",
  area,
  summary: "Bank accounts with their ledger balance, line counts by state and reconciliation status.",
  scope: "read",
  mode: "R",
  query: Schema.Struct({ ...PageQuery }),
  success: Page(BankAccount),
  errors: ["amount_out_of_range"]
})

export const updateBankAccount = Operation.make({
  id: "updateBankAccount",
  method: "POST",
  path: "/v1/bank-accounts/{id}/update",
  area,
  summary: "Rename a bank account or change its institution, mask or CSV profile.",
  scope: "admin",
  mode: "K",
  status: 200,
  pathParams: IdPath,
  body: Schema.Struct({
    name: Schema.optionalKey(Name),
    institution: Schema.optionalKey(Schema.NullOr(Institution)),
    mask: Schema.optionalKey(Schema.NullOr(Mask)),
    csv_profile: Schema.optionalKey(Schema.NullOr(CsvProfile))
  }),
  success: BankAccount
})

export const getBankAccount = Operation.make({
  id: "getBankAccount",
  method: "GET",
  path: "/v1/bank-accounts/{id}",
  area,
  summary: "One bank account with its import history.",
  scope: "read",
  mode: "R",
  pathParams: IdPath,
  success: BankAccountDetail,
  errors: ["amount_out_of_range"]
})

export const importStatement = Operation.make({
  id: "importStatement",
  method: "POST",
  path: "/v1/bank-accounts/{id}/imports",
  area,
  summary: "Import an OFX, QFX or CSV statement; lines dedupe on the statement's transaction id or a content hash.",
  description: "A dry run returns the parsed lines with duplicates marked and writes nothing. A file that cannot be " +
    "read is refused with 422 statement_unreadable naming the line and the reason. content_encoding base64 keeps " +
    "the file's bytes, so its character set can be read from the file (docs/decisions/0402).",
  scope: "propose",
  mode: "K",
  bodyBytesMax: Limits.statementBodyBytesMax,
  pathParams: IdPath,
  body: Schema.Struct({
    format: ImportFormat,
    content: Schema.String.check(Schema.isMaxLength(Limits.statementCharactersMax)).annotate({
      description: "The file: its text, or its bytes in base64 with content_encoding base64."
    }),
    content_encoding: Schema.optionalKey(Schema.Literals(["text", "base64"]).annotate({ description: "How content is written: text (default) or base64 bytes." })),
    filename: Schema.optionalKey(Schema.String.check(Schema.isMaxLength(Limits.nameLengthMax)).annotate({ description: "The file's name, kept with the import." })),
    csv_profile: Schema.optionalKey(CsvProfile),
    dry_run: DryRun
  }),
  success: ImportResult,
  otherResponses: { 200: ImportResult },
  errors: ["statement_unreadable", "statement_account_ambiguous"]
})

export const autoMatchBankLines = Operation.make({
  id: "autoMatchBankLines",
  method: "POST",
  path: "/v1/bank-accounts/{id}/auto-match",
  area,
  summary: "Match unmatched lines to posted entries of the same amount within a date window; ambiguous cases are left.",
  description: "With transfers, an outgoing line and an incoming line of the same amount in two of the company's " +
    "bank accounts are paired by a transfer entry posted through the governed path.",
  scope: "propose",
  mode: "K",
  status: 200,
  pathParams: IdPath,
  body: Schema.Struct({
    window_days: Schema.optionalKey(Schema.Int.check(Schema.isBetween({ minimum: 0, maximum: Limits.autoMatchWindowDaysMax })).annotate({
      description: "How many days a line's date and a posted entry's may differ and still match."
    })),
    transfers: Schema.optionalKey(Schema.Boolean.annotate({ description: "Also pair transfers between the company's own bank accounts." })),
    dry_run: DryRun
  }),
  success: MatchResult,
  errors: ["period_hard_locked", "amount_out_of_range", "soft_lock_reason_required"]
})

export const operations = [
  createBankAccount,
  listBankAccounts,
  updateBankAccount,
  getBankAccount,
  importStatement,
  autoMatchBankLines
] as const
