import { Schema } from "effect"
import { DateString, Id, PageQuery } from "../Common.ts"
import * as Limits from "../Limits.ts"
import { AccountCode, AccountType } from "../ledger/Records.ts"
import * as Operation from "../Operation.ts"
import { area, files, ClassFilter, CsvReport, Format, From, To } from "./Shared.ts"

export const GeneralLedgerLine = Schema.Struct({
  date: DateString,
  entry_id: Schema.NullOr(Id).annotate({ description: "The journal entry; null on a year-end close line." }),
  line_no: Schema.NullOr(Schema.Int),
  source: Schema.String.annotate({
    description: "What posted the entry (`journal_entry`, `reversal`, `invoice`, ...), or `year_end_close` for the " +
      "line that carries a fiscal year's net income from income and expense accounts to retained earnings."
  }),
  memo: Schema.NullOr(Schema.String).annotate({ description: "The line's memo, else the entry's." }),
  class: Schema.NullOr(Schema.String),
  contact_id: Schema.NullOr(Id),
  debit_cents: Schema.Int,
  credit_cents: Schema.Int,
  balance_cents: Schema.Int.annotate({ description: "The running balance after this line, in the account's natural direction." })
}).annotate({ identifier: "GeneralLedgerLine" })

export const GeneralLedgerAccount = Schema.Struct({
  code: Schema.String,
  name: Schema.String,
  type: AccountType,
  opening_balance_cents: Schema.Int.annotate({ description: "The balance at the start of `from`." }),
  balance_forward_cents: Schema.Int.annotate({
    description: "The balance before this page's first line: the opening balance, or where the previous page stopped."
  }),
  lines: Schema.Array(GeneralLedgerLine),
  total_debit_cents: Schema.Int.annotate({ description: "Debits of the whole range (every page), year-end close lines included." }),
  total_credit_cents: Schema.Int,
  closing_balance_cents: Schema.Int.annotate({ description: "The balance at the end of `to`; equal to the trial balance as of `to`." })
}).annotate({ identifier: "GeneralLedgerAccount" })
export type GeneralLedgerAccount = typeof GeneralLedgerAccount.Type

export const GeneralLedger = Schema.Struct({
  from: DateString,
  to: DateString,
  class: Schema.optionalKey(Schema.NullOr(Schema.String)),
  accounts: Schema.Array(GeneralLedgerAccount).annotate({
    description: "In code order; an account whose lines continue on the next page appears again there."
  }),
  has_more: Schema.Boolean,
  next_cursor: Schema.NullOr(Schema.String)
}).annotate({ identifier: "GeneralLedger" })
export type GeneralLedger = typeof GeneralLedger.Type

export const GeneralLedgerCsv = Schema.Struct({
  ...CsvReport.fields,
  has_more: Schema.Boolean,
  next_cursor: Schema.NullOr(Schema.String)
}).annotate({ identifier: "GeneralLedgerCsv" })

export const getGeneralLedger = Operation.make({
  id: "getGeneralLedger",
  method: "GET",
  path: "/v1/reports/general-ledger",
  area,
  summary: "Per account: the opening balance, every line with its running balance, and the closing balance.",
  description: "Lines are read by account and date. `limit` counts lines (default 100, at most 1000); follow " +
    "`next_cursor` for the rest. format=csv answers a CSV file with a `Link: <...>; rel=\"next\"` header while more " +
    "lines follow (JSON clients: `{ format: \"csv\", filename, content, has_more, next_cursor }`).",
  scope: "read",
  mode: "R",
  query: Schema.Struct({
    from: From,
    to: To,
    account: Schema.optionalKey(
      Schema.Array(AccountCode).check(Schema.isMinLength(1), Schema.isMaxLength(Limits.generalLedgerAccountFilterCountMax))
    ).annotate({ description: "Only these accounts (over HTTP: codes separated by commas)." }),
    class: ClassFilter,
    format: Format,
    ...PageQuery
  }),
  success: Schema.Union([GeneralLedger, GeneralLedgerCsv]),
  files,
  errors: ["unknown_class", "unknown_account", "amount_out_of_range"]
})
