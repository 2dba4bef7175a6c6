import { Effect } from "effect"
import { SqlClient, type SqlError } from "effect/sql"
import { ApiError, type Scope } from "@ledger/api"
import type { Actor } from "../kernel/Actor.ts"
import * as Row from "../kernel/Row.ts"
import * as Secret from "../kernel/Secret.ts"
import { consentMessage } from "../pipeline/authenticate/ConsentGate.ts"
import { capped, unreachable } from "../pipeline/authenticate/FirmPrincipal.ts"
import { type Asking, type Authenticated, type CompanyState, type Refused, refusedUnknown, byPrefix, type CredentialStrategy, unauthorized } from "../pipeline/authenticate/Credential.ts"

/**
 * An OAuth access token (`ldgat_`, spec 5.6, docs/ai-apps.md): an AI app a person connected,
 * acting as the connection's agent in one company, or for a firm connection in the client named
 * by `X-Ledger-Company` (its only client when it has one). The agent's scopes and posting
 * threshold carry the connection's level (ai-apps/ConnectionRules.ts). Tokens live an hour;
 * a level change or a disconnect ends them at once. The AI apps area's strategy for the
 * pipeline's `company` door (registered in index.ts): the tokens and connections are its tables.
 */

export const prefix = "ldgat_"

/**
 * An access token's row, with its connection, agent and company in the company asked for (or its
 * only one): whether the firm of a firm connection has thrown its kill switch (spec 5.7: its
 * agents' writes stop in every client), and what a section 7216 requirement says of the app's
 * provider (`ledger_ai_consent_gate`, migration 0025). A firm connection reaches a client only
 * through the firm's live grant there, read on every request as a firm agent's is (FirmPrincipal.ts).
 */
export const readAccess = Effect.fn("OAuthAccessToken.readAccess")(function*(hash: string, company: string | null, today: string) {
  const sql = yield* SqlClient.SqlClient
  return yield* sql<Record<string, unknown>>`
    SELECT t.expires_at, t.revoked_at, x.id AS connection_id, x.status AS connection_status, x.kind AS connection_kind,
      g.company_id, g.agent_id, a.name AS agent_name, a.status AS agent_status, a.scopes AS agent_scopes,
      a.posting_threshold_cents, c.plan, c.rate_limit_rpm AS company_rate_limit_rpm, c.kill_switch_suspended, a.ai_provider,
      coalesce(f.kill_switch_suspended, false) AS firm_kill_switch, fg.scopes AS grant_scopes,
      ledger_ai_consent_gate(g.company_id, a.ai_provider, ${today}::date) AS consent_gate
    FROM oauth_tokens t
    JOIN ai_connections x ON x.id = t.connection_id
    JOIN ai_connection_agents g ON g.connection_id = x.id
    JOIN agents a ON a.company_id = g.company_id AND a.id = g.agent_id
    JOIN companies c ON c.company_id = g.company_id
    LEFT JOIN firms f ON x.kind = 'firm' AND f.id = x.firm_id
    LEFT JOIN firm_grants fg ON x.kind = 'firm' AND fg.firm_id = x.firm_id AND fg.company_id = g.company_id AND fg.revoked_at IS NULL
    WHERE t.token_hash = ${hash} AND t.kind = 'access'
      ${company === null ? sql`` : sql`AND g.company_id::text = ${company}`}
    ORDER BY g.company_id LIMIT 2`
})

/** A firm connection's agent holds no more in a client than the firm's grant there allows (spec 5.2). */
const scopesOf = (row: Record<string, unknown>): ReadonlyArray<Scope.Scope> => {
  const agent = Row.textArray<Scope.Scope>(row.agent_scopes)
  return row.connection_kind === "firm" ? capped(agent, Row.textArray<Scope.Scope>(row.grant_scopes ?? [])) : agent
}

/** A firm connection in a client whose grant to the firm is revoked: a stranger there (FirmPrincipal.unreachable). */
const ungranted = (row: Record<string, unknown>): boolean => row.connection_kind === "firm" && (row.grant_scopes ?? null) === null

const knownOf = (row: Record<string, unknown>): Authenticated => {
  const actor: Actor = {
    type: "agent",
    id: Row.int(row.agent_id),
    name: String(row.agent_name),
    role: null,
    companyId: String(row.company_id),
    scopes: scopesOf(row),
    isPerson: false,
    keyId: Row.int(row.connection_id),
    credentialKind: "api_key",
    // The per-entry cap; the daily cap and allowed accounts are counted when posting (ai-apps/PostingLimits.ts).
    postingThresholdCents: Row.int(row.posting_threshold_cents),
    rateLimitRpm: null,
    firmId: null,
    aiConnectionId: Row.int(row.connection_id)
  }
  const company: CompanyState = {
    companyId: String(row.company_id),
    plan: row.plan as CompanyState["plan"],
    rateLimitRpm: Row.intOrNull(row.company_rate_limit_rpm),
    // A firm connection's agents are the firm's in its clients: the firm's kill switch stops them too.
    killSwitchSuspended: Boolean(row.kill_switch_suspended) || row.firm_kill_switch === true
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
const consentMissing = (row: Record<string, unknown>): string | null => consentMessage(row.consent_gate, row.ai_provider, "app")

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
    if (ungranted(row)) return yield* Effect.fail<Refused>({ error: unreachable(), known: null })
    const known = knownOf(row)
    const ended = endedBecause(row, Date.parse(asking.now))
    if (ended !== null) return yield* Effect.fail<Refused>({ error: unauthorized(ended), known })
    const missing = consentMissing(row)
    if (missing !== null) return yield* Effect.fail<Refused>({ error: ApiError.fail("consent_required", missing, { agent_id: known.actor.id }), known })
    return known
  })

/** In the company named (`X-Ledger-Company`), for a firm connection; its prefix is no other credential's. */
export const strategy: CredentialStrategy = byPrefix({
  name: "oauth_access_token",
  door: "company",
  order: 10,
  prefix,
  authenticate: (token, asking) => authenticateIn(token, asking, asking.company ?? null)
})
