import { Effect } from "effect"
import { SqlClient } from "effect/sql"
import { ApiError, type Migrations } from "@ledger/api"
import * as Pagination from "../kernel/Pagination.ts"
import * as Row from "../kernel/Row.ts"
import * as Qbxml from "./Qbxml.ts"
import type { Staged } from "./Staging.ts"
import type { Bundle } from "./TieoutRules.ts"

/** The SQL of migration connections, their staged records and imports. */

/** A page of the company's connections from one source, newest first (both editions' lists). */
export const page = Effect.fn("MigrationStore.page")(function*(company: string, source: "desktop" | "online", query: Pagination.PageRequest) {
  const sql = yield* SqlClient.SqlClient
  const select = (after: number | null, limitPlusOne: number) =>
    sql<Record<string, unknown>>`SELECT * FROM migration_connections WHERE company_id = ${company}
    AND source = ${source} ${after === null ? sql`` : sql`AND id < ${after}`} ORDER BY id DESC LIMIT ${limitPlusOne}`.pipe(Effect.orDie)
  return yield* Pagination.listPage(query, select, (row) => Row.int(row.id), (row) => row)
})

export const load = Effect.fn("MigrationStore.load")(function*(company: string, id: number, source: "desktop" | "online", lock = false) {
  const sql = yield* SqlClient.SqlClient
  const rows = yield* sql<Record<string, unknown>>`SELECT * FROM migration_connections WHERE company_id = ${company} AND id = ${id}
    AND source = ${source} ${lock ? sql`FOR UPDATE` : sql``}`.pipe(Effect.orDie)
  if (rows[0] === undefined) return yield* Effect.fail(ApiError.notFound(`${source} migration connection`))
  return rows[0]
})

/** Final states: nothing more happens to the connection. */
export const isClosed = (row: Record<string, unknown>, now: string) =>
  row.status === "revoked" || row.status === "cut_over" || Row.iso(row.expires_at) < now

export const requireOpen = (row: Record<string, unknown>, now: string) =>
  isClosed(row, now)
    ? Effect.fail(ApiError.fail("migration_connection_revoked", `This connection is ${Row.iso(row.expires_at) < now ? "expired" : String(row.status)}: start a new one.`))
    : Effect.void

/** Stages records: a record sent again (a resumed page) replaces the earlier copy. */
export const stage = Effect.fn("MigrationStore.stage")(function*(company: string, connection: number, records: ReadonlyArray<Staged>) {
  if (records.length === 0) return
  const sql = yield* SqlClient.SqlClient
  const unique = new Map(records.map((record) => [`${record.entity}\u0000${record.id}`, record]))
  const rows = [...unique.values()].map((record) => ({
    company_id: company,
    connection_id: connection,
    entity: record.entity,
    source_id: record.id,
    record: JSON.stringify(record.record)
  }))
  yield* sql`INSERT INTO migration_staged ${sql.insert(rows as unknown as readonly [Record<string, unknown>, ...Array<Record<string, unknown>>])}
    ON CONFLICT (company_id, connection_id, entity, source_id) DO UPDATE SET record = EXCLUDED.record`.pipe(Effect.orDie)
})

export const bundle = Effect.fn("MigrationStore.bundle")(function*(company: string, connection: number) {
  const sql = yield* SqlClient.SqlClient
  const rows = yield* sql<{ entity: string; record: unknown }>`SELECT entity, record FROM migration_staged
    WHERE company_id = ${company} AND connection_id = ${connection} ORDER BY entity, source_id`.pipe(Effect.orDie)
  const of = <A>(entity: string) => rows.filter((row) => row.entity === entity).map((row) => Row.json<A>(row.record))
  const result: Bundle = {
    accounts: of("account"), customers: of("customer"), vendors: of("vendor"), items: of("item"), txns: of("txn"), open: of("open")
  }
  return result
})

export const wipe = Effect.fn("MigrationStore.wipe")(function*(company: string, connection: number) {
  const sql = yield* SqlClient.SqlClient
  yield* sql`DELETE FROM migration_staged WHERE company_id = ${company} AND connection_id = ${connection}`.pipe(Effect.orDie)
})

export const importSummary = (row: Record<string, unknown>): Migrations.Desktop.ImportSummary => ({
  id: Row.int(row.id),
  source: row.source as "desktop" | "online",
  connection_id: Row.int(row.connection_id),
  status: row.status as "imported" | "failed" | "cut_over",
  result: row.result as "PASS" | "FAIL",
  entries: Row.int(row.entries),
  differences: Row.json<Array<unknown>>(row.differences),
  created_at: Row.iso(row.created_at),
  cut_over_at: Row.isoOrNull(row.cut_over_at)
})

export const imports = Effect.fn("MigrationStore.imports")(function*(company: string, connection: number | null) {
  const sql = yield* SqlClient.SqlClient
  const rows = yield* sql<Record<string, unknown>>`SELECT * FROM migration_imports WHERE company_id = ${company}
    ${connection === null ? sql`` : sql`AND connection_id = ${connection}`} ORDER BY id DESC LIMIT 200`.pipe(Effect.orDie)
  return rows.map(importSummary)
})

const statusOf = (row: Record<string, unknown>, now: string) =>
  row.status !== "revoked" && row.status !== "cut_over" && Row.iso(row.expires_at) < now ? "expired" : String(row.status)

export const desktopWire = Effect.fn("MigrationStore.desktopWire")(function*(company: string, row: Record<string, unknown>, now: string) {
  const progress = Row.json<{ step?: number; steps?: Record<string, { fetched: number; remaining: number | null }> }>(row.progress)
  const current = progress.step ?? 0
  const extracted = row.extracted === null ? null : Row.json<{ accounts: number; transactions: number }>(row.extracted)
  const tieout = row.tieout === null ? null : Row.json<{ passed: boolean }>(row.tieout)
  const body: Migrations.Desktop.DesktopConnection = {
    id: Row.int(row.id),
    status: statusOf(row, now) as Migrations.Desktop.DesktopConnection["status"],
    as_of: Row.date(row.as_of),
    include_tax_ids: row.include_tax_ids === true,
    company_file: (row.company_file as string | null) ?? null,
    failed_password_attempts: Row.int(row.failed_password_attempts),
    steps: Qbxml.steps.map((step, index) => ({
      step: step.step,
      status: index < current ? "done" as const : index === current && row.status === "extracting" ? "running" as const : "waiting" as const,
      fetched: progress.steps?.[step.step]?.fetched ?? 0,
      remaining: progress.steps?.[step.step]?.remaining ?? null
    })),
    bundle: extracted === null ? null : { accounts: extracted.accounts, transactions: extracted.transactions, tieout_passed: tieout?.passed === true },
    imports: yield* imports(company, Row.int(row.id)),
    expires_at: Row.iso(row.expires_at),
    created_at: Row.iso(row.created_at),
    revoked_at: Row.isoOrNull(row.revoked_at)
  }
  return body
})
