import { Schema } from "effect"
import { DateString, Name } from "../Common.ts"
import * as File from "../File.ts"

/**
 * What the four financial reports share: their query parameters, the class dimension and the CSV
 * envelope. The report shapes themselves are in TrialBalance.ts, ProfitAndLoss.ts,
 * BalanceSheet.ts and GeneralLedger.ts (docs/decisions/0200-report-shapes.md says why they read
 * the way they do).
 */

export const area = "Reports"

export const AsOf = Schema.optionalKey(DateString).annotate({
  description: "Balances at the end of this date. Default: today."
})

export const From = Schema.optionalKey(DateString).annotate({
  description: "First day of the range. Default: the first day of the fiscal year containing `to`."
})

export const To = Schema.optionalKey(DateString).annotate({
  description: "Last day of the range. Default: today."
})

/** The word a `class` query uses for lines without a class. */
export const unclassified = "unclassified"

export const ClassFilter = Schema.optionalKey(Name).annotate({
  description: "Report the lines of this class only; `unclassified` selects the lines without a class."
})

export const ByClass = Schema.optionalKey(Schema.Boolean).annotate({
  description: "Add a column per class (and one for lines without a class) beside the total. Not with `class`."
})

export const Format = Schema.optionalKey(Schema.Literals(["json", "csv"])).annotate({
  description: "`json` (default): amounts are integer cents. `csv`: the report as a CSV file (`text/csv`) with a header row, " +
    "amounts as decimal strings with two places; JSON clients (and MCP) get it as `{format, filename, content}`."
})

/** `format=csv` (or `Accept: text/csv`) is a CSV file (docs/decisions/0015-files-are-files.md). */
export const files = File.csvReport

/** A class column: the class name, or null for the lines without a class. */
export const ClassColumn = Schema.NullOr(Schema.String).annotate({
  description: "A class name; null for the lines without a class."
})

/** One class's share of an amount, in a `by_class` report. */
export const ClassAmount = Schema.Struct({
  class: ClassColumn,
  amount_cents: Schema.Int
}).annotate({ identifier: "ReportClassAmount" })

/** Fields every report carries when it was asked for one class or for a column per class. */
export const classFields = {
  class: Schema.optionalKey(ClassColumn).annotate({
    description: "Present when the report was asked for one class: the lines of that class only."
  }),
  classes: Schema.optionalKey(Schema.Array(ClassColumn)).annotate({
    description: "Present with by_class=true: the class columns in order (null = lines without a class, last)."
  })
}

/** A report as CSV in JSON (format=csv to a JSON client or over MCP): the shared envelope. */
export const CsvReport = File.CsvEnvelope
