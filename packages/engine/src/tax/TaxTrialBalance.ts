import { sha256 } from "@noble/hashes/sha2.js"
import { bytesToHex } from "@noble/hashes/utils.js"
import { Effect } from "effect"
import { SqlClient } from "effect/sql"
import { ApiError, Tax } from "@ledger/api"
import { reference } from "../kernel/Actor.ts"
import { requireCompanyId } from "../kernel/CompanyContext.ts"
import * as Handler from "../kernel/Handler.ts"
import { RequestContext } from "../kernel/RequestContext.ts"
import * as Audit from "../pipeline/Audit.ts"
import { Csv, TrialBalance } from "../reports/index.ts"
import * as ExportPackages from "./ExportPackages.ts"
import * as MappingRules from "./MappingRules.ts"
import { returnTypeOf } from "./Profile.ts"
import * as TaxStore from "./TaxStore.ts"
import * as TrialBalanceRules from "./TrialBalanceRules.ts"

type ReturnType = Tax.Shared.ReturnType

/** The books' trial balance (reports) grouped by the company's mapping for `returnType`. */
export const byLine = Effect.fn("TaxTrialBalance.byLine")(function*(company: string, returnType: ReturnType, asOf: string) {
  const books = yield* TrialBalance.report({ as_of: asOf })
  if (!("rows" in books)) return yield* Effect.die(new Error("the trial balance answered CSV to a JSON request"))
  const mapped = yield* TaxStore.mappings(company, returnType)
  // Earlier years' earnings without a retained earnings account go where retained earnings would.
  const retained = MappingRules.defaultLine(returnType, { type: "equity", subtype: "retained_earnings" })
  return TrialBalanceRules.group(returnType, books, (code) => code === null ? retained : mapped.get(code)?.line ?? null)
})

const csv = (balance: Tax.TrialBalance.TaxTrialBalance): string =>
  Csv.render(
    ["Line", "Form", "Line Number", "Description", "Account", "Account Name", "Debit", "Credit"],
    [
      ...balance.lines.flatMap((line) => [
        [line.line, line.form, line.line_number, line.description, null, null, Csv.cents(line.debit_cents), Csv.cents(line.credit_cents)],
        ...line.accounts.map((account) => [line.line, null, null, null, account.code, account.name, Csv.cents(account.debit_cents), Csv.cents(account.credit_cents)])
      ]),
      [null, null, null, "Total", null, null, Csv.cents(balance.total_debit_cents), Csv.cents(balance.total_credit_cents)]
    ]
  )

const companyName = Effect.fn("TaxTrialBalance.companyName")(function*(company: string) {
  const sql = yield* SqlClient.SqlClient
  const rows = yield* sql<{ name: string }>`SELECT name FROM companies WHERE company_id = ${company}`.pipe(Effect.orDie)
  return rows[0]?.name ?? ""
})

const encoder = new TextEncoder()

const base64 = (bytes: Uint8Array): string => {
  let binary = ""
  for (const byte of bytes) binary += String.fromCharCode(byte)
  return btoa(binary)
}

const exportFile = Effect.fn("TaxTrialBalance.exportFile")(function*(query: typeof Tax.TrialBalance.exportTaxReturn.query.Type) {
  const company = yield* requireCompanyId
  const request = yield* RequestContext
  const returnType = yield* returnTypeOf(company, query.return_type)
  const balance = yield* byLine(company, returnType, query.as_of)
  if (balance.unmapped_accounts.length > 0) {
    return yield* Effect.fail(ApiError.fail("tax_accounts_unmapped", "Map every account with a balance to a line first (POST /v1/tax/mapping or /v1/tax/mapping/defaults).", {
      accounts: balance.unmapped_accounts
    }))
  }
  if (!balance.ties_to_books) {
    return yield* Effect.fail(ApiError.fail("tax_export_not_tied", "The lines do not tie to the books' trial balance; nothing was exported.", {
      total_debit_cents: balance.total_debit_cents,
      total_credit_cents: balance.total_credit_cents
    }))
  }
  const file = ExportPackages.render(query.package, balance, yield* companyName(company))
  const bytes = encoder.encode(file.content)
  const record = yield* TaxStore.insertExport(company, {
    package: query.package,
    return_type: returnType,
    as_of: query.as_of,
    filename: file.filename,
    content_type: file.contentType,
    size_bytes: bytes.byteLength,
    sha256: bytesToHex(sha256(bytes)),
    total_debit_cents: balance.total_debit_cents,
    total_credit_cents: balance.total_credit_cents,
    line_count: balance.lines.length,
    created_by: reference(request.actor),
    created_at: request.now
  })
  const audit = Audit.ofWrite(request, 200, { targetType: "tax_export", targetId: record.id, details: { package: record.package, version: record.version, sha256: record.sha256 } })
  if (audit !== null) yield* Effect.orDie(Audit.record(audit))
  const envelope = { export: record, filename: file.filename, content_type: file.contentType }
  return query.format === "base64" ? { ...envelope, content_base64: base64(bytes) } : { ...envelope, content: file.content }
})

export const handlers = [
  Handler.make(Tax.TrialBalance.getTaxTrialBalance, ({ query }) =>
    Effect.gen(function*() {
      const company = yield* requireCompanyId
      const returnType = yield* returnTypeOf(company, query.return_type)
      const balance = yield* byLine(company, returnType, query.as_of)
      return { body: query.format === "csv" ? Csv.file(`tax-trial-balance-${returnType}-${query.as_of}.csv`, csv(balance)) : balance }
    })),

  Handler.make(Tax.TrialBalance.exportTaxReturn, ({ query }) => Effect.map(exportFile(query), (body) => ({ body }))),

  Handler.make(Tax.TrialBalance.listTaxExports, ({ query }) =>
    Effect.gen(function*() {
      const company = yield* requireCompanyId
      return { body: yield* TaxStore.listExports(company, query) }
    }))
]
