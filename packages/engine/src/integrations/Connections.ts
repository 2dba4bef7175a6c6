import { Effect } from "effect"
import { SqlClient } from "effect/sql"
import { ApiError, Integrations } from "@ledger/api"
import * as Handler from "../kernel/Handler.ts"
import { requireCompanyId } from "../kernel/CompanyContext.ts"
import { RequestContext } from "../kernel/RequestContext.ts"
import * as Actor from "../kernel/Actor.ts"
import * as Row from "../kernel/Row.ts"
import * as Administration from "../administration/index.ts"
import * as Pagination from "../kernel/Pagination.ts"
import { CommerceProviders } from "../ports/CommerceProviders.ts"
import { TokenSealer } from "../ports/TokenSealer.ts"
import * as Common from "./Common.ts"
import * as ConnectionStore from "./ConnectionStore.ts"
import * as Providers from "./Providers.ts"
import * as Setup from "./Setup.ts"

const api = Integrations.Connections

const requireAccount = Effect.fn("Connections.requireAccount")(function*(company: string, code: string | null | undefined, path: string) {
  if (code === null || code === undefined) return
  const sql = yield* SqlClient.SqlClient
  const rows = yield* sql<{ type: string; active: boolean }>`SELECT type, active FROM accounts WHERE company_id = ${company} AND code = ${code}`
    .pipe(Effect.orDie)
  if (rows[0] === undefined || rows[0].type !== "asset" || rows[0].active !== true) {
    return yield* Effect.fail(ApiError.fail("unknown_account", `${code} is not an active asset account of this company.`, {
      issues: [{ path: ["body", path], message: "Expected the code of an active asset (bank) account" }]
    }))
  }
})

const create = Handler.make(api.createConnection, ({ body }) =>
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const request = yield* RequestContext
    const company = yield* requireCompanyId
    const provider = Providers.find(body.provider)
    if (provider === undefined || provider.status !== "built") {
      return yield* Effect.fail(ApiError.fail("integration_not_available", `${body.provider} is not a provider Ledger connects to yet.`))
    }
    const commerce = yield* CommerceProviders
    if (!commerce.configured(body.provider)) return yield* Effect.fail(Common.providerFailure({ code: "not_configured", message: "" } as never))
    yield* requireAccount(company, body.payout_bank_account_id, "payout_bank_account_id")
    const state = yield* Common.randomToken()
    const verifier = yield* Common.randomToken()
    const expiresAt = Common.plusMinutes(request.now, Common.consentMinutes)
    const rows = yield* sql<Record<string, unknown>>`INSERT INTO integration_connections ${sql.insert({
      company_id: company,
      provider: body.provider,
      status: "pending",
      state_hash: Common.hash(state),
      code_verifier: verifier,
      consent_expires_at: expiresAt,
      payout_account: body.payout_bank_account_id ?? null,
      created_by: Actor.reference(request.actor),
      created_at: request.now
    })} RETURNING id`.pipe(Effect.orDie)
    const id = Row.int(rows[0]!.id)
    const consentUrl = commerce.consentUrl({
      provider: body.provider,
      state,
      codeChallenge: Common.codeChallenge(verifier),
      redirectUri: Common.callbackPath
    })
    return {
      body: { id, provider: body.provider, status: "pending" as const, consent_url: consentUrl, expires_at: expiresAt },
      audit: { targetType: "integration_connection", targetId: id, details: { provider: body.provider } }
    }
  }))

const complete = Handler.make(api.completeConnection, ({ body }) =>
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const request = yield* RequestContext
    const company = yield* requireCompanyId
    const rows = yield* sql<Record<string, unknown>>`SELECT * FROM integration_connections WHERE company_id = ${company}
      AND state_hash = ${Common.hash(body.state)} AND status = 'pending' FOR UPDATE`.pipe(Effect.orDie)
    const pending = rows[0]
    if (pending === undefined || Row.iso(pending.consent_expires_at) < request.now) {
      return yield* Effect.fail(ApiError.fail("integration_consent_invalid", "This consent is unknown, used or past its 15 minutes: start the connection again."))
    }
    const id = Row.int(pending.id)
    // The state is single use whatever happens next.
    yield* sql`UPDATE integration_connections SET state_hash = NULL WHERE company_id = ${company} AND id = ${id}`.pipe(Effect.orDie)
    if (body.error !== undefined || body.code === undefined) {
      return yield* Effect.fail(ApiError.fail("integration_consent_denied", `The provider's consent was not given: ${body.error ?? "no code"}.`))
    }
    const commerce = yield* CommerceProviders
    const provider = String(pending.provider)
    const grant = yield* commerce.exchange({ provider, code: body.code, codeVerifier: String(pending.code_verifier), redirectUri: Common.callbackPath })
      .pipe(Effect.mapError(Common.providerFailure))
    const sealer = yield* TokenSealer
    const sealed = sealer.configured ? yield* sealer.seal(grant.accessToken, `integration:${company}:${id}`) : null
    if (sealed === null) return yield* Effect.fail(ApiError.fail("service_unavailable", "No master key: access tokens cannot be sealed on this deployment."))
    const made = yield* Setup.connectionPieces(company, id, provider, grant.accountId, grant.accountName, body.posting_threshold_cents ?? 0, request.now)
    const updated = yield* sql<Record<string, unknown>>`UPDATE integration_connections SET ${sql.update({
      status: "connected",
      code_verifier: null,
      external_account_id: grant.accountId,
      account_name: grant.accountName,
      access_token_sealed: sealed,
      agent_id: made.agentId,
      clearing_account: made.clearingAccount,
      posting_threshold_cents: body.posting_threshold_cents ?? 0,
      // The first scheduled sync is due at once: the worker's next scan picks it up.
      next_sync_at: request.now
    })} WHERE company_id = ${company} AND id = ${id} RETURNING *`.pipe(Effect.orDie)
    yield* Setup.defaultMappings(company, id, request.now)
    return {
      body: yield* ConnectionStore.wire(company, updated[0]!),
      audit: { targetType: "integration_connection", targetId: id, details: { provider, external_account_id: grant.accountId, agent_id: made.agentId } }
    }
  }))

const settings = Handler.make(api.updateSettings, ({ path, body }) =>
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const company = yield* requireCompanyId
    const row = yield* ConnectionStore.load(company, path.id, true)
    yield* ConnectionStore.requireLive(row)
    yield* requireAccount(company, body.payout_bank_account_id, "payout_bank_account_id")
    const changes: Record<string, unknown> = {}
    if (body.payout_bank_account_id !== undefined) changes.payout_account = body.payout_bank_account_id
    if (body.posting_threshold_cents !== undefined) changes.posting_threshold_cents = body.posting_threshold_cents
    if (body.paused !== undefined) changes.status = body.paused ? "paused" : "connected"
    if (body.sync_interval_minutes !== undefined) {
      changes.sync_interval_minutes = body.sync_interval_minutes
      changes.next_sync_at = Common.plusMinutes((yield* RequestContext).now, body.sync_interval_minutes)
    }
    if (body.posting_threshold_cents !== undefined && row.agent_id !== null) {
      yield* Administration.setAgentPostingThreshold(company, Row.int(row.agent_id), body.posting_threshold_cents)
    }
    const updated = Object.keys(changes).length === 0 ? [row] : yield* sql<Record<string, unknown>>`UPDATE integration_connections
      SET ${sql.update(changes)} WHERE company_id = ${company} AND id = ${path.id} RETURNING *`.pipe(Effect.orDie)
    return {
      body: yield* ConnectionStore.wire(company, updated[0]!),
      audit: { targetType: "integration_connection", targetId: path.id, details: { changed: Object.keys(body) } }
    }
  }))

const disconnect = Handler.make(api.disconnect, ({ path, body }) =>
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const request = yield* RequestContext
    const company = yield* requireCompanyId
    const row = yield* ConnectionStore.load(company, path.id, true)
    yield* ConnectionStore.requireLive(row)
    const commerce = yield* CommerceProviders
    const sealer = yield* TokenSealer
    if (row.access_token_sealed !== null && sealer.configured) {
      const token = yield* sealer.open(String(row.access_token_sealed), `integration:${company}:${path.id}`)
      // Revoking at the provider is best effort: the token is deleted here whatever it answers.
      yield* commerce.revoke({ provider: String(row.provider), accessToken: token }).pipe(Effect.ignore)
    }
    if (row.agent_id !== null) {
      yield* Administration.revokeAgent(company, Row.int(row.agent_id), body.reason, request.now)
    }
    const updated = yield* sql<Record<string, unknown>>`UPDATE integration_connections SET ${sql.update({
      status: "disconnected",
      access_token_sealed: null,
      sync_cursor: null,
      disconnected_at: request.now,
      disconnect_reason: body.reason
    })} WHERE company_id = ${company} AND id = ${path.id} RETURNING *`.pipe(Effect.orDie)
    return {
      body: yield* ConnectionStore.wire(company, updated[0]!),
      audit: { targetType: "integration_connection", targetId: path.id, reason: body.reason }
    }
  }))

export const handlers = [
  Handler.make(api.listProviders, ({ query }) =>
    Effect.gen(function*() {
      const commerce = yield* CommerceProviders
      const all = Providers.all.map((provider) => ({ ...Providers.wire(provider), configured: commerce.configured(provider.provider) }))
      return { body: yield* Common.pageOf(all, query) }
    })),
  Handler.make(api.listConnections, ({ query }) =>
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      const company = yield* requireCompanyId
      const select = (after: number | null, limitPlusOne: number) =>
        sql<Record<string, unknown>>`SELECT * FROM integration_connections WHERE company_id = ${company}
        AND status <> 'pending' ${query.include_disconnected === true ? sql`` : sql`AND status <> 'disconnected'`}
        ${after === null ? sql`` : sql`AND id < ${after}`} ORDER BY id DESC LIMIT ${limitPlusOne}`.pipe(Effect.orDie)
      const load = (shown: ReadonlyArray<Record<string, unknown>>) => Effect.forEach(shown, (row) => ConnectionStore.wire(company, row))
      return { body: yield* Pagination.listPageLoaded(query, select, (row) => Row.int(row.id), load) }
    })),
  create,
  complete,
  Handler.make(api.getConnection, ({ path }) =>
    Effect.gen(function*() {
      const company = yield* requireCompanyId
      return { body: yield* ConnectionStore.wire(company, yield* ConnectionStore.load(company, path.id)) }
    })),
  settings,
  disconnect
]
