import { Effect } from "effect"
import { SqlClient } from "effect/sql"
import { type AiApps, ApiError } from "@ledger/api"
import * as Row from "../kernel/Row.ts"
import { type Level, scopesOf, thresholdOf } from "./ConnectionRules.ts"

/** The SQL of AI app connections, their agents and their tokens (tables in migrations/0019_ai_apps.ts). */

export const connectionOf = (row: Record<string, unknown>, companyIds: ReadonlyArray<string>): AiApps.Connections.AiConnection => ({
  id: Row.int(row.id),
  kind: row.kind as "company" | "firm",
  company_id: (row.company_id as string | null) ?? null,
  firm_id: Row.intOrNull(row.firm_id),
  company_ids: companyIds,
  client_id: String(row.client_id),
  client_name: (row.client_name as string | null) ?? null,
  agent_id: Row.intOrNull(row.agent_id),
  level: row.level as Level,
  per_entry_cap_cents: Row.intOrNull(row.per_entry_cap_cents),
  daily_cap_cents: Row.intOrNull(row.daily_cap_cents),
  account_codes: row.account_codes === null ? null : Row.textArray<string>(row.account_codes),
  resource: String(row.resource),
  scopes: scopesOf(row.level as Level),
  status: row.status as "active" | "disconnected",
  created_at: Row.iso(row.created_at),
  level_changed_at: Row.isoOrNull(row.level_changed_at),
  disconnected_at: Row.isoOrNull(row.disconnected_at),
  disconnect_reason: (row.disconnect_reason as string | null) ?? null
})

const selectConnections = (sql: SqlClient.SqlClient) => sql`SELECT x.*, c.client_name,
    (SELECT min(a.agent_id) FROM ai_connection_agents a WHERE a.connection_id = x.id AND a.company_id = x.company_id) AS agent_id,
    (SELECT coalesce(json_agg(a.company_id::text ORDER BY a.company_id), '[]'::json) FROM ai_connection_agents a
      WHERE a.connection_id = x.id) AS company_ids
  FROM ai_connections x JOIN oauth_clients c ON c.client_id = x.client_id`

const toConnection = (row: Record<string, unknown>) => connectionOf(row, Row.textArray<string>(row.company_ids))

/** A company's own connections and the firm connections reaching it, newest first. */
export const listForCompany = Effect.fn("ConnectionStore.listForCompany")(function*(
  company: string, includeEnded: boolean, after: number | null, limit: number
) {
  const sql = yield* SqlClient.SqlClient
  const rows = yield* sql<Record<string, unknown>>`${selectConnections(sql)}
    WHERE x.id IN (SELECT connection_id FROM ai_connection_agents WHERE company_id = ${company})
    ${includeEnded ? sql`` : sql`AND x.status = 'active'`}
    ${after === null ? sql`` : sql`AND x.id < ${after}`}
    ORDER BY x.id DESC LIMIT ${limit + 1}`.pipe(Effect.orDie)
  return rows
})

export const listForFirm = Effect.fn("ConnectionStore.listForFirm")(function*(
  firm: number, includeEnded: boolean, after: number | null, limit: number
) {
  const sql = yield* SqlClient.SqlClient
  return yield* sql<Record<string, unknown>>`${selectConnections(sql)}
    WHERE x.firm_id = ${firm} AND x.kind = 'firm'
    ${includeEnded ? sql`` : sql`AND x.status = 'active'`}
    ${after === null ? sql`` : sql`AND x.id < ${after}`}
    ORDER BY x.id DESC LIMIT ${limit + 1}`.pipe(Effect.orDie)
})

export { toConnection }

/** A connection seen from a company (its own or a firm's reaching it), or 404. */
export const loadForCompany = Effect.fn("ConnectionStore.loadForCompany")(function*(company: string, id: number) {
  const sql = yield* SqlClient.SqlClient
  const rows = yield* sql<Record<string, unknown>>`${selectConnections(sql)}
    WHERE x.id = ${id} AND x.id IN (SELECT connection_id FROM ai_connection_agents WHERE company_id = ${company})
    FOR UPDATE OF x`.pipe(Effect.orDie)
  if (rows[0] === undefined) return yield* Effect.fail(ApiError.notFound("AI connection"))
  return rows[0]
})

export const loadForFirm = Effect.fn("ConnectionStore.loadForFirm")(function*(firm: number, id: number) {
  const sql = yield* SqlClient.SqlClient
  const rows = yield* sql<Record<string, unknown>>`${selectConnections(sql)}
    WHERE x.id = ${id} AND x.firm_id = ${firm} AND x.kind = 'firm' FOR UPDATE OF x`.pipe(Effect.orDie)
  if (rows[0] === undefined) return yield* Effect.fail(ApiError.notFound("AI connection"))
  return rows[0]
})

export interface LevelSettings {
  readonly level: Level
  readonly per_entry_cap_cents?: number | undefined
  readonly daily_cap_cents?: number | undefined
  readonly account_codes?: ReadonlyArray<string> | undefined
}

/** Refuses equity accounts and unknown codes among the allowed accounts (equity never). */
export const checkAccounts = Effect.fn("ConnectionStore.checkAccounts")(function*(
  companies: ReadonlyArray<string>, codes: ReadonlyArray<string> | undefined
) {
  if (codes === undefined || codes.length === 0) return
  const sql = yield* SqlClient.SqlClient
  for (const company of companies) {
    const rows = yield* sql<{ code: string; type: string }>`SELECT code, type FROM accounts
      WHERE company_id = ${company} AND code IN ${sql.in(codes as Array<string>)}`.pipe(Effect.orDie)
    const equity = rows.filter((row) => row.type === "equity").map((row) => row.code)
    if (equity.length > 0) {
      return yield* Effect.fail(ApiError.fail("equity_account_refused", "An AI app may never post to equity accounts.", { account_codes: equity }))
    }
    const unknown = codes.filter((code) => !rows.some((row) => row.code === code))
    if (unknown.length > 0) {
      return yield* Effect.fail(ApiError.fail("validation_failed", "Unknown account codes.", { account_codes: unknown }))
    }
  }
})

/** Creates the app's agent in a company at the level. */
export const insertAgent = Effect.fn("ConnectionStore.insertAgent")(function*(
  company: string, name: string, settings: LevelSettings, now: string
) {
  const sql = yield* SqlClient.SqlClient
  const rows = yield* sql<{ id: unknown }>`INSERT INTO agents ${sql.insert({
    company_id: company,
    name: name.slice(0, 200),
    scopes: JSON.stringify(scopesOf(settings.level)),
    posting_threshold_cents: thresholdOf(settings.level, settings.per_entry_cap_cents),
    created_at: now
  })} RETURNING id`.pipe(Effect.orDie)
  return Row.int(rows[0]!.id)
})

/** Applies a level to the connection and every agent of it, and ends its live access tokens. */
export const applyLevel = Effect.fn("ConnectionStore.applyLevel")(function*(id: number, settings: LevelSettings, now: string) {
  const sql = yield* SqlClient.SqlClient
  yield* sql`UPDATE ai_connections SET level = ${settings.level}, per_entry_cap_cents = ${settings.per_entry_cap_cents ?? null},
    daily_cap_cents = ${settings.daily_cap_cents ?? null},
    account_codes = ${settings.account_codes === undefined ? null : JSON.stringify(settings.account_codes)},
    level_changed_at = ${now} WHERE id = ${id}`.pipe(Effect.orDie)
  yield* sql`UPDATE agents a SET scopes = ${JSON.stringify(scopesOf(settings.level))},
    posting_threshold_cents = ${thresholdOf(settings.level, settings.per_entry_cap_cents)}
    FROM ai_connection_agents x WHERE x.connection_id = ${id} AND a.company_id = x.company_id AND a.id = x.agent_id`.pipe(Effect.orDie)
  yield* sql`UPDATE oauth_tokens SET revoked_at = ${now}
    WHERE connection_id = ${id} AND kind = 'access' AND revoked_at IS NULL`.pipe(Effect.orDie)
})

/** Disconnect: final; the agents, access and refresh tokens end at once. */
export const disconnect = Effect.fn("ConnectionStore.disconnect")(function*(id: number, reason: string, now: string) {
  const sql = yield* SqlClient.SqlClient
  yield* sql`UPDATE ai_connections SET status = 'disconnected', disconnected_at = ${now}, disconnect_reason = ${reason}
    WHERE id = ${id}`.pipe(Effect.orDie)
  yield* sql`UPDATE agents a SET status = 'revoked', revoked_at = ${now}, revoked_reason = ${reason}
    FROM ai_connection_agents x WHERE x.connection_id = ${id} AND a.company_id = x.company_id AND a.id = x.agent_id
      AND a.status = 'active'`.pipe(Effect.orDie)
  yield* sql`UPDATE oauth_tokens SET revoked_at = ${now} WHERE connection_id = ${id} AND revoked_at IS NULL`.pipe(Effect.orDie)
  yield* sql`UPDATE oauth_codes SET used_at = coalesce(used_at, ${now}) WHERE connection_id = ${id}`.pipe(Effect.orDie)
})
