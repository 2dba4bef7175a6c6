import { Effect } from "effect"
import { SqlClient } from "effect/sql"
import type { Tax } from "@ledger/api"
import * as Pagination from "../kernel/Pagination.ts"
import { LedgerReaders } from "../ledger/index.ts"
import * as Row from "../kernel/Row.ts"

/** The tax area's SQL: the return type, the mappings of each return type, the exports. */

type ReturnType = Tax.Shared.ReturnType

export interface AccountRow {
  readonly code: string
  readonly name: string
  readonly type: string
  readonly subtype: string | null
}

export interface MappingRow {
  readonly account: string
  readonly line: string
  readonly source: "manual" | "default"
  readonly updatedAt: string
}

export const profile = Effect.fn("TaxStore.profile")(function*(company: string) {
  const sql = yield* SqlClient.SqlClient
  const rows = yield* sql<Record<string, unknown>>`SELECT * FROM tax_profiles WHERE company_id = ${company}`.pipe(Effect.orDie)
  const row = rows[0]
  return {
    return_type: (row?.return_type as ReturnType | undefined) ?? null,
    updated_at: row === undefined ? null : Row.iso(row.updated_at),
    updated_by: row === undefined ? null : String(row.updated_by)
  }
})

export const setProfile = Effect.fn("TaxStore.setProfile")(function*(company: string, returnType: ReturnType, by: string, now: string) {
  const sql = yield* SqlClient.SqlClient
  yield* sql`INSERT INTO tax_profiles ${sql.insert({ company_id: company, return_type: returnType, updated_by: by, updated_at: now })}
    ON CONFLICT (company_id) DO UPDATE SET return_type = EXCLUDED.return_type, updated_by = EXCLUDED.updated_by,
    updated_at = EXCLUDED.updated_at`.pipe(Effect.orDie)
})

/**
 * The company's accounts (read only; the chart is the ledger's), in code order: every active
 * account, and an inactive one only while the books still hold a balance on it (the caller adds those).
 */
export const accounts = (company: string) => LedgerReaders.chart(company)

export const mappings = Effect.fn("TaxStore.mappings")(function*(company: string, returnType: ReturnType) {
  const sql = yield* SqlClient.SqlClient
  const rows = yield* sql<Record<string, unknown>>`SELECT account_code, line_id, source, updated_at FROM tax_line_mappings
    WHERE company_id = ${company} AND return_type = ${returnType}`.pipe(Effect.orDie)
  return new Map<string, MappingRow>(rows.map((row) => [String(row.account_code), {
    account: String(row.account_code),
    line: String(row.line_id),
    source: row.source as "manual" | "default",
    updatedAt: Row.iso(row.updated_at)
  }]))
})

export const writeMapping = Effect.fn("TaxStore.writeMapping")(function*(
  company: string,
  returnType: ReturnType,
  change: { readonly account: string; readonly line: string | null; readonly source: "manual" | "default" },
  by: string,
  now: string
) {
  const sql = yield* SqlClient.SqlClient
  if (change.line === null) {
    yield* sql`DELETE FROM tax_line_mappings WHERE company_id = ${company} AND return_type = ${returnType}
      AND account_code = ${change.account}`.pipe(Effect.orDie)
    return
  }
  yield* sql`INSERT INTO tax_line_mappings ${sql.insert({
    company_id: company,
    return_type: returnType,
    account_code: change.account,
    line_id: change.line,
    source: change.source,
    updated_by: by,
    updated_at: now
  })} ON CONFLICT (company_id, return_type, account_code) DO UPDATE SET line_id = EXCLUDED.line_id, source = EXCLUDED.source,
    updated_by = EXCLUDED.updated_by, updated_at = EXCLUDED.updated_at`.pipe(Effect.orDie)
})

export const exportRecord = (row: Record<string, unknown>): Tax.TrialBalance.TaxExport => ({
  id: Row.int(row.id),
  package: row.package as Tax.TrialBalance.TaxExport["package"],
  return_type: row.return_type as ReturnType,
  as_of: Row.date(row.as_of),
  version: Row.int(row.version),
  filename: String(row.filename),
  content_type: String(row.content_type),
  size_bytes: Row.int(row.size_bytes),
  sha256: String(row.sha256),
  total_debit_cents: Row.int(row.total_debit_cents),
  total_credit_cents: Row.int(row.total_credit_cents),
  line_count: Row.int(row.line_count),
  created_by: String(row.created_by),
  created_at: Row.iso(row.created_at)
})

export const insertExport = Effect.fn("TaxStore.insertExport")(function*(
  company: string,
  values: Omit<Tax.TrialBalance.TaxExport, "id" | "version">
) {
  const sql = yield* SqlClient.SqlClient
  const current = yield* sql<{ version: unknown }>`SELECT coalesce(max(version), 0) AS version FROM tax_exports
    WHERE company_id = ${company} AND package = ${values.package} AND return_type = ${values.return_type}
    AND as_of = ${values.as_of}`.pipe(Effect.orDie)
  const rows = yield* sql<Record<string, unknown>>`INSERT INTO tax_exports ${sql.insert({
    company_id: company,
    ...values,
    version: Row.int(current[0]?.version ?? 0) + 1
  })} RETURNING *`.pipe(Effect.orDie)
  return exportRecord(rows[0]!)
})

export const listExports = Effect.fn("TaxStore.listExports")(function*(company: string, query: Pagination.PageRequest) {
  const sql = yield* SqlClient.SqlClient
  const select = (after: number | null, limitPlusOne: number) =>
    sql<Record<string, unknown>>`SELECT * FROM tax_exports WHERE company_id = ${company}
    ${after === null ? sql`` : sql`AND id < ${after}`} ORDER BY id DESC LIMIT ${limitPlusOne}`.pipe(Effect.orDie)
  return yield* Pagination.listPage(query, select, (row) => Row.int(row.id), exportRecord)
})
