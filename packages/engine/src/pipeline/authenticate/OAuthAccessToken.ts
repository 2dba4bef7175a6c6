import { Effect } from "effect"
import { SqlClient, type SqlError } from "effect/sql"
import { ApiError, type Scope } from "@ledger/api"
import type { Actor } from "../../kernel/Actor.ts"
import * as Row from "../../kernel/Row.ts"
import * as Secret from "../../kernel/Secret.ts"
import { type Asking, type Authenticated, type CompanyState, type Refused, refusedUnknown, type Strategy, unauthorized } from "./Credential.ts"

/**
 * An OAuth access token (`ldgat_`, spec 5.6, docs/ai-apps.md): an AI app a person connected,
 * acting as the connection's agent in one company, or for a firm connection in the client named
 * by `X-Ledger-Company` (its only client when it has one). The agent's scopes and posting
 * threshold carry the connection's level (ai-apps/ConnectionRules.ts). Tokens live an hour;
 * a level change or a disconnect ends them at once.
 */

export const prefix = "ldgat_"

/** An access token's row, with its connection, agent and company in the company asked for (or its only one). */
export const readAccess = Effect.fn("OAuthAccessToken.readAccess")(function*(hash: string, company: string | null, today: string) {
  const sql = yield* SqlClient.SqlClient
  return yield* sql<Record<string, unknown>>`
    SELECT t.expires_at, t.revoked_at, x.id AS connection_id, x.status AS connection_status, x.kind AS connection_kind,
      g.company_id, g.agent_id, a.name AS agent_name, a.status AS agent_status, a.scopes AS agent_scopes,
      a.posting_threshold_cents, c.plan, c.rate_limit_rpm AS company_rate_limit_rpm, c.kill_switch_suspended, a.ai_provider,
      coalesce(s.required OR s.firm_required IS TRUE, false) AS consent_required, x.level, x.daily_cap_cents,
      CASE WHEN x.level = 'post' AND x.daily_cap_cents IS NOT NULL THEN (SELECT coalesce(sum(e.total_cents), 0) FROM journal_entries e
        WHERE e.company_id = g.company_id AND e.posted_by_type = 'agent' AND e.posted_by_id = g.agent_id
          AND e.posted_at >= ${today}::date) END AS posted_today_cents,
      a.ai_provider IN ('self_hosted', 'none') OR EXISTS (SELECT 1 FROM ai_consents k WHERE k.company_id = g.company_id
        AND k.status = 'valid_now' AND k.valid_until >= ${today}::date
        AND k.accepted_providers @> jsonb_build_array(a.ai_provider)) AS provider_covered
    FROM oauth_tokens t
    JOIN ai_connections x ON x.id = t.connection_id
    JOIN ai_connection_agents g ON g.connection_id = x.id
    JOIN agents a ON a.company_id = g.company_id AND a.id = g.agent_id
    JOIN companies c ON c.company_id = g.company_id
    LEFT JOIN ai_7216_settings s ON s.company_id = g.company_id
    WHERE t.token_hash = ${hash} AND t.kind = 'access'
      ${company === null ? sql`` : sql`AND g.company_id::text = ${company}`}
    ORDER BY g.company_id LIMIT 2`
})

/**
 * The agent's threshold now: a `post` app's per-entry cap, lowered to what its daily cap leaves of
 * today's (UTC) postings, so that past the cap its writes become proposals. Read when the token is
 * authenticated, not inside the posting transaction: concurrent writes may pass it (ADR 1702).
 */
const thresholdToday = (row: Record<string, unknown>): number => {
  const threshold = Row.int(row.posting_threshold_cents)
  if (row.posted_today_cents === null || row.posted_today_cents === undefined || row.daily_cap_cents === null) return threshold
  return Math.max(0, Math.min(threshold, Row.int(row.daily_cap_cents) - Row.int(row.posted_today_cents)))
}

const knownOf = (row: Record<string, unknown>): Authenticated => {
  const actor: Actor = {
    type: "agent",
    id: Row.int(row.agent_id),
    name: String(row.agent_name),
    role: null,
    companyId: String(row.company_id),
    scopes: Row.textArray<Scope.Scope>(row.agent_scopes),
    isPerson: false,
    keyId: Row.int(row.connection_id),
    credentialKind: "api_key",
    postingThresholdCents: thresholdToday(row),
    rateLimitRpm: null,
    firmId: null
  }
  const company: CompanyState = {
    companyId: String(row.company_id),
    plan: row.plan as CompanyState["plan"],
    rateLimitRpm: Row.intOrNull(row.company_rate_limit_rpm),
    killSwitchSuspended: Boolean(row.kill_switch_suspended)
  }
  return { actor, company }
}

const endedBecause = (row: Record<string, unknown>, nowMs: number): string | null => {
  if (row.connection_status !== "active") return "The AI app has been disconnected."
  if (row.revoked_at !== null) return "The access token has been revoked: refresh it."
  if (row.agent_status !== "active") return "The AI app's agent has been revoked."
  if (Date.parse(Row.iso(row.expires_at)) <= nowMs) return "The access token has expired: refresh it."
  return null
}

/**
 * With a section 7216 requirement on (spec 4.4), an app whose AI provider is undeclared, or not
 * accepted by a signed consent in force, is kept out, told which consent is missing.
 */
const consentMissing = (row: Record<string, unknown>): string | null => {
  if (row.consent_required !== true) return null
  if (row.ai_provider === null) {
    return "A section 7216 consent is required: declare this app's AI provider (POST /v1/agents/{id}/ai-provider), then get a consent covering it."
  }
  if (row.provider_covered !== true) {
    return `A section 7216 consent is required: no signed consent in force accepts the provider ${String(row.ai_provider)}.`
  }
  return null
}

/** Authenticates an access token in `company` (a firm connection's client), or its only company. */
export const authenticateIn = (
  token: string,
  asking: Asking,
  company: string | null
): Effect.Effect<Authenticated, Refused | SqlError.SqlError, SqlClient.SqlClient> =>
  Effect.gen(function*() {
    const rows = yield* readAccess(asking.secretHash ?? Secret.sha256Hex(token), company, asking.now.slice(0, 10))
    const row = rows[0]
    if (row === undefined) return yield* Effect.fail(refusedUnknown("The access token is not valid."))
    if (rows.length > 1) {
      return yield* Effect.fail(refusedUnknown("This app is connected to several companies: name one with X-Ledger-Company."))
    }
    const known = knownOf(row)
    const ended = endedBecause(row, Date.parse(asking.now))
    if (ended !== null) return yield* Effect.fail<Refused>({ error: unauthorized(ended), known })
    const missing = consentMissing(row)
    if (missing !== null) return yield* Effect.fail<Refused>({ error: ApiError.fail("consent_required", missing, { agent_id: known.actor.id }), known })
    return known
  })

export const strategy: Strategy = {
  name: "oauth_access_token",
  recognises: (token) => token.startsWith(prefix),
  authenticate: (token, asking) => authenticateIn(token, asking, null)
}
