import { Schema } from "effect"
import { DateString, Id, Page, PageQuery, Timestamp } from "../Common.ts"
import * as File from "../File.ts"
import * as Operation from "../Operation.ts"
import { area, LineId, LineKind, ReturnType } from "./Shared.ts"

export const TaxTrialBalanceAccount = Schema.Struct({
  code: Schema.NullOr(Schema.String),
  name: Schema.String,
  debit_cents: Schema.Int,
  credit_cents: Schema.Int
})

export const TaxTrialBalanceLine = Schema.Struct({
  line: Schema.NullOr(LineId).annotate({ description: "Null for the accounts not mapped yet." }),
  form: Schema.NullOr(Schema.String),
  line_number: Schema.NullOr(Schema.String),
  description: Schema.String,
  kind: Schema.NullOr(LineKind),
  debit_cents: Schema.Int,
  credit_cents: Schema.Int,
  accounts: Schema.Array(TaxTrialBalanceAccount)
}).annotate({ identifier: "TaxTrialBalanceLine" })

export const TaxTrialBalance = Schema.Struct({
  as_of: DateString,
  return_type: ReturnType,
  lines: Schema.Array(TaxTrialBalanceLine),
  unmapped_accounts: Schema.Array(Schema.String),
  total_debit_cents: Schema.Int,
  total_credit_cents: Schema.Int,
  ties_to_books: Schema.Boolean.annotate({ description: "The lines' totals equal the books' trial balance as of the date." })
}).annotate({ identifier: "TaxTrialBalance" })
export type TaxTrialBalance = typeof TaxTrialBalance.Type

export const CsvFile = File.CsvEnvelope

export const getTaxTrialBalance = Operation.make({
  id: "getTaxTrialBalance",
  method: "GET",
  path: "/v1/tax/trial-balance",
  area,
  summary: "The trial balance as of a date, grouped by return line.",
  description: "format=csv answers a CSV file (JSON clients and MCP: `{ format: \"csv\", filename, content }`).",
  scope: "read",
  mode: "R",
  query: Schema.Struct({
    as_of: DateString,
    return_type: Schema.optionalKey(ReturnType),
    format: Schema.optionalKey(Schema.Literals(["json", "csv"]))
  }),
  success: Schema.Union([TaxTrialBalance, CsvFile]),
  errors: ["validation_failed", "tax_return_type_required"],
  files: File.csvReport
})

export const ExportPackage = Schema.Literals(["generic", "package_a", "package_b", "package_c"]).annotate({
  description: "generic: CSV by line and account; package_a: a UltraTax CS-style trial balance import (CSV); " +
    "package_b: a Lacerte-style trial balance import (tab-separated); package_c: a ProSystem fx / CCH Axcess-style " +
    "worksheet (CSV with a header block). ADR 1302."
})

export const TaxExport = Schema.Struct({
  id: Id,
  package: ExportPackage,
  return_type: ReturnType,
  as_of: DateString,
  version: Schema.Int,
  filename: Schema.String,
  content_type: Schema.String,
  size_bytes: Schema.Int,
  sha256: Schema.String,
  total_debit_cents: Schema.Int,
  total_credit_cents: Schema.Int,
  line_count: Schema.Int,
  created_by: Schema.String,
  created_at: Timestamp
}).annotate({ identifier: "TaxExport" })
export type TaxExport = typeof TaxExport.Type

export const TaxExportFile = Schema.Struct({
  export: TaxExport,
  filename: Schema.String,
  content_type: Schema.String,
  content: Schema.optionalKey(Schema.String).annotate({ description: "format=file: the file's text." }),
  content_base64: Schema.optionalKey(Schema.String).annotate({ description: "format=base64: the file's bytes." })
}).annotate({ identifier: "TaxExportFile" })

export const exportTaxReturn = Operation.make({
  id: "exportTaxReturn",
  method: "GET",
  path: "/v1/tax/export",
  area,
  summary: "A file for tax software; refused while an account is unmapped or the export does not tie to the books.",
  description: "Each export is recorded as a new version with its SHA-256 and totals, and audited. format=file (default) " +
    "answers the file itself; format=base64 (and JSON clients) the JSON envelope.",
  scope: "read",
  mode: "R",
  query: Schema.Struct({
    package: ExportPackage,
    as_of: DateString,
    return_type: Schema.optionalKey(ReturnType),
    format: Schema.optionalKey(Schema.Literals(["file", "base64"]))
  }),
  success: TaxExportFile,
  errors: ["validation_failed", "tax_return_type_required", "tax_accounts_unmapped", "tax_export_not_tied"],
  files: File.files({ formats: { file: [File.mediaTypes.csv, File.mediaTypes.tsv] }, default: "file" })
})

export const listTaxExports = Operation.make({
  id: "listTaxExports",
  method: "GET",
  path: "/v1/tax/exports",
  area,
  summary: "Exports made: package, period, version, totals, SHA-256 and who, newest first.",
  scope: "read",
  mode: "R",
  query: Schema.Struct({ ...PageQuery }),
  success: Page(TaxExport)
})
