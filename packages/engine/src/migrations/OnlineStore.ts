import { Effect } from "effect"
import { SqlClient } from "effect/sql"
import type { Migrations } from "@ledger/api"
import * as Row from "../kernel/Row.ts"
import * as MigrationStore from "./MigrationStore.ts"

/** The deployment's metered reads of the online edition, by month (`YYYY-MM`). */
export const readsThisMonth = Effect.fn("OnlineStore.readsThisMonth")(function*(month: string) {
  const sql = yield* SqlClient.SqlClient
  const rows = yield* sql<{ reads: unknown }>`SELECT reads FROM migration_usage WHERE month = ${month}`.pipe(Effect.orDie)
  return Row.int(rows[0]?.reads ?? 0)
})

export const meter = Effect.fn("OnlineStore.meter")(function*(month: string, reads: number) {
  if (reads === 0) return
  const sql = yield* SqlClient.SqlClient
  yield* sql`INSERT INTO migration_usage (month, reads) VALUES (${month}, ${reads})
    ON CONFLICT (month) DO UPDATE SET reads = migration_usage.reads + EXCLUDED.reads`.pipe(Effect.orDie)
})

export const wire = Effect.fn("OnlineStore.wire")(function*(company: string, row: Record<string, unknown>, now: string) {
  const extracted = row.extracted === null ? null : Row.json<{ records: number; calls: number }>(row.extracted)
  const tieout = row.tieout === null ? null : Row.json<{ passed: boolean }>(row.tieout)
  const expired = row.status !== "revoked" && row.status !== "cut_over" && Row.iso(row.expires_at) < now
  const body: Migrations.Online.OnlineConnection = {
    id: Row.int(row.id),
    status: (expired ? "revoked" : String(row.status)) as Migrations.Online.OnlineConnection["status"],
    as_of: Row.date(row.as_of),
    include_tax_ids: row.include_tax_ids === true,
    realm_id: (row.realm_id as string | null) ?? null,
    estimate: row.estimate === null ? null : Row.json(row.estimate),
    extracted: extracted === null ? null : { records: extracted.records, calls: extracted.calls, tieout_passed: tieout?.passed === true },
    imports: yield* MigrationStore.imports(company, Row.int(row.id)),
    created_at: Row.iso(row.created_at),
    revoked_at: Row.isoOrNull(row.revoked_at)
  }
  return body
})
