import { Effect } from "effect"
import { SqlClient } from "effect/sql"
import { AiApps, ApiError, type Operation, Scope } from "@ledger/api"
import { requireCompanyId } from "../kernel/CompanyContext.ts"
import * as Handler from "../kernel/Handler.ts"
import * as Pagination from "../kernel/Pagination.ts"
import { RequestContext } from "../kernel/RequestContext.ts"
import * as Row from "../kernel/Row.ts"
import { requireStepUp } from "../kernel/StepUp.ts"
import { isChallenge, redirectWithCode } from "./ConnectionRules.ts"
import * as ConnectionStore from "./ConnectionStore.ts"
import * as OAuthStore from "./OAuthStore.ts"

/** AI app connections (spec 4.3): the consent screen's approval, levels, disconnect. */

const Ops = AiApps.Connections
type ConnectBody = typeof Ops.ConnectBody.Type

/** The consent screen is the person's own browser session: never a key, an agent or an app. */
const requireBrowserSession = Effect.gen(function*() {
  const request = yield* RequestContext
  if (request.actor.credentialKind !== "session" || !request.actor.isPerson) {
    return yield* Effect.fail(ApiError.fail("forbidden", "Approving an AI app needs a person's own browser session."))
  }
})

/** The request as the authorization endpoint received it: client, exact redirect URI, PKCE S256. */
const checkRequest = Effect.fn("Connections.checkRequest")(function*(body: ConnectBody) {
  if (body.code_challenge_method !== "S256") {
    return yield* Effect.fail(ApiError.fail("invalid_code_challenge", "Only PKCE code_challenge_method S256 is accepted; plain is refused."))
  }
  if (!isChallenge(body.code_challenge)) {
    return yield* Effect.fail(ApiError.fail("invalid_code_challenge", "code_challenge must be the S256 challenge: 43 base64url characters."))
  }
  const request = yield* RequestContext
  const client = yield* OAuthStore.findClient(body.client_id, request.now).pipe(Effect.orDie)
  if (client === null) return yield* Effect.fail(ApiError.fail("invalid_client", "Unknown client_id: register the client first."))
  if (!client.redirectUris.includes(body.redirect_uri)) {
    return yield* Effect.fail(ApiError.fail("invalid_redirect_uri", "redirect_uri must match one the client registered, exactly."))
  }
  const level = body.level ?? "suggest"
  if (level === "post") yield* requireStepUp
  return { client, level }
})

const settingsOf = (body: { level?: AiApps.Connections.Level } & Omit<ConnectionStore.LevelSettings, "level">): ConnectionStore.LevelSettings => ({
  level: body.level ?? "suggest",
  per_entry_cap_cents: body.per_entry_cap_cents,
  daily_cap_cents: body.daily_cap_cents,
  account_codes: body.account_codes
})

/** Creates the connection, the app's agent in each company, and the authorization code. */
const connect = Effect.fn("Connections.connect")(function*(
  body: ConnectBody, companies: ReadonlyArray<string>, firmId: number | null
) {
  const sql = yield* SqlClient.SqlClient
  const request = yield* RequestContext
  yield* requireBrowserSession
  const { client, level } = yield* checkRequest(body)
  const settings = settingsOf({ ...body, level })
  yield* ConnectionStore.checkAccounts(companies, body.account_codes)
  const rows = yield* sql<{ id: unknown }>`INSERT INTO ai_connections ${sql.insert({
    kind: firmId === null ? "company" : "firm",
    company_id: firmId === null ? companies[0]! : null,
    firm_id: firmId,
    client_id: client.clientId,
    level,
    per_entry_cap_cents: settings.per_entry_cap_cents ?? null,
    daily_cap_cents: settings.daily_cap_cents ?? null,
    account_codes: settings.account_codes === undefined ? null : JSON.stringify(settings.account_codes),
    resource: body.resource ?? "/mcp",
    scope: body.scope ?? null,
    created_by: `${request.actor.type}:${request.actor.id}`,
    created_at: request.now
  })} RETURNING id`.pipe(Effect.orDie)
  const id = Row.int(rows[0]!.id)
  for (const company of companies) {
    const agentId = yield* ConnectionStore.insertAgent(company, `AI app: ${client.clientName ?? client.clientId}`, settings, request.now)
    yield* sql`INSERT INTO ai_connection_agents ${sql.insert({ connection_id: id, company_id: company, agent_id: agentId })}`.pipe(Effect.orDie)
  }
  const grant = { connectionId: id, clientId: client.clientId, redirectUri: body.redirect_uri, codeChallenge: body.code_challenge, resource: body.resource ?? "/mcp" }
  const { code, expiresAt } = yield* OAuthStore.insertCode(grant, request.now)
  const loaded = firmId === null ? yield* ConnectionStore.loadForCompany(companies[0]!, id) : yield* ConnectionStore.loadForFirm(firmId, id)
  const connection = ConnectionStore.toConnection(loaded)
  return {
    body: { connection, code, redirect_to: redirectWithCode(body.redirect_uri, code, body.state, null), expires_at: expiresAt },
    audit: { targetType: "ai_connection", targetId: id, details: { client_id: client.clientId, level } }
  }
})

const changeLevel = Effect.fn("Connections.changeLevel")(function*(
  row: Record<string, unknown>, body: ConnectionStore.LevelSettings
) {
  const request = yield* RequestContext
  if (row.status !== "active") return yield* Effect.fail(ApiError.fail("connection_ended", "The connection was disconnected; connect the app again."))
  if (body.level === "post" && row.level !== "post") yield* requireStepUp
  yield* ConnectionStore.checkAccounts(Row.textArray<string>(row.company_ids), body.account_codes)
  const id = Row.int(row.id)
  yield* ConnectionStore.applyLevel(id, settingsOf(body), request.now)
  return { id, audit: { targetType: "ai_connection", targetId: id, details: { from: row.level, to: body.level } } }
})

const disconnect = Effect.fn("Connections.disconnect")(function*(row: Record<string, unknown>, reason: string) {
  const request = yield* RequestContext
  if (row.status !== "active") return yield* Effect.fail(ApiError.fail("connection_ended", "The connection was already disconnected."))
  const id = Row.int(row.id)
  yield* ConnectionStore.disconnect(id, reason, request.now)
  return { id, audit: { targetType: "ai_connection", targetId: id, reason } }
})

/** The firm's live grants among `companies`: every one must be granted. */
const requireGrants = Effect.fn("Connections.requireGrants")(function*(firmId: number, companies: ReadonlyArray<string>) {
  const sql = yield* SqlClient.SqlClient
  const rows = yield* sql<{ company_id: string }>`SELECT DISTINCT company_id::text AS company_id FROM firm_grants
    WHERE firm_id = ${firmId} AND revoked_at IS NULL AND company_id::text IN ${sql.in(companies as Array<string>)}`.pipe(Effect.orDie)
  const missing = companies.filter((company) => !rows.some((row) => row.company_id === company))
  if (missing.length > 0) {
    return yield* Effect.fail(ApiError.fail("firm_access_required", "The firm has no live access to these clients.", { company_ids: missing }))
  }
})

/** A firm member's call (the firms area authenticates firm credentials); admin for the writes. */
const firmCaller = (operation: Operation.Any) =>
  Effect.gen(function*() {
    const { actor } = yield* RequestContext
    if (actor.firmId === null || actor.id === null) return yield* Effect.fail(ApiError.fail("unauthorized", "A firm session is required."))
    if (!actor.isPerson) return yield* Effect.fail(ApiError.fail("insufficient_scope", "Only a firm member may do this."))
    if (!Scope.satisfies(actor.scopes, operation.scope)) {
      return yield* Effect.fail(ApiError.fail("insufficient_scope", `This operation needs the ${operation.scope} scope.`, { required_scope: operation.scope }))
    }
    return { firmId: actor.firmId }
  })
/** Spec 4.3: a firm connection is created and changed by a firm admin, never a cpa or bookkeeper. */
const firmAdmin = (operation: Operation.Any) =>
  Effect.gen(function*() {
    const caller = yield* firmCaller(operation)
    const { actor } = yield* RequestContext
    if (actor.role !== "admin") return yield* Effect.fail(ApiError.fail("forbidden", "Only a firm admin may do this."))
    return caller
  })

/**
 * A company sees the firm connections reaching it, but only its own part of them: never the
 * firm's other clients. It never changes one: that would change it in every client (the firm's
 * endpoints do); a client cuts a firm's app off by revoking the firm's access.
 */
const seenBy = (company: string) => (row: Record<string, unknown>) =>
  row.kind === "firm" ? ConnectionStore.connectionOf(row, [company]) : ConnectionStore.toConnection(row)

const ownConnection = Effect.fn("Connections.ownConnection")(function*(company: string, id: number) {
  const row = yield* ConnectionStore.loadForCompany(company, id)
  if (row.kind === "firm") {
    return yield* Effect.fail(ApiError.fail("forbidden", "This AI connection is the firm's: only the firm changes it. Revoke the firm's access to cut it off here."))
  }
  return row
})

const pageOf = (
  rows: ReadonlyArray<Record<string, unknown>>, limit: number, view: (row: Record<string, unknown>) => AiApps.Connections.AiConnection = ConnectionStore.toConnection
) => Pagination.page(rows, limit, (row) => Row.int(row.id), view)

export const handlers = [
  Handler.make(Ops.createAiConnection, ({ body }) =>
    Effect.flatMap(requireCompanyId, (company) => connect(body, [company], null))),

  Handler.make(Ops.listAiConnections, ({ query }) =>
    Effect.gen(function*() {
      const company = yield* requireCompanyId
      const limit = Pagination.limitOf(query)
      const rows = yield* ConnectionStore.listForCompany(company, query.include_ended === true, yield* Pagination.afterId(query), limit)
      return { body: pageOf(rows, limit, seenBy(company)) }
    })),

  Handler.make(Ops.getAiConnection, ({ path }) =>
    Effect.gen(function*() {
      const company = yield* requireCompanyId
      return { body: seenBy(company)(yield* ConnectionStore.loadForCompany(company, path.id)) }
    })),

  Handler.make(Ops.changeAiConnectionLevel, ({ path, body }) =>
    Effect.gen(function*() {
      const company = yield* requireCompanyId
      const { id, audit } = yield* changeLevel(yield* ownConnection(company, path.id), body)
      return { body: ConnectionStore.toConnection(yield* ConnectionStore.loadForCompany(company, id)), audit }
    })),

  Handler.make(Ops.disconnectAiConnection, ({ path, body }) =>
    Effect.gen(function*() {
      const company = yield* requireCompanyId
      const { id, audit } = yield* disconnect(yield* ownConnection(company, path.id), body.reason)
      return { body: ConnectionStore.toConnection(yield* ConnectionStore.loadForCompany(company, id)), audit }
    })),

  Handler.make(Ops.createFirmAiConnection, ({ body }) =>
    Effect.gen(function*() {
      const caller = yield* firmAdmin(Ops.createFirmAiConnection)
      const companies = [...new Set(body.company_ids)]
      yield* requireGrants(caller.firmId, companies)
      const { company_ids: _, ...rest } = body
      return yield* connect(rest, companies, caller.firmId)
    })),

  Handler.make(Ops.listFirmAiConnections, ({ query }) =>
    Effect.gen(function*() {
      const caller = yield* firmCaller(Ops.listFirmAiConnections)
      const limit = Pagination.limitOf(query)
      const rows = yield* ConnectionStore.listForFirm(caller.firmId, query.include_ended === true, yield* Pagination.afterId(query), limit)
      return { body: pageOf(rows, limit) }
    })),

  Handler.make(Ops.changeFirmAiConnectionLevel, ({ path, body }) =>
    Effect.gen(function*() {
      const caller = yield* firmAdmin(Ops.changeFirmAiConnectionLevel)
      const { id, audit } = yield* changeLevel(yield* ConnectionStore.loadForFirm(caller.firmId, path.id), body)
      return { body: ConnectionStore.toConnection(yield* ConnectionStore.loadForFirm(caller.firmId, id)), audit }
    })),

  Handler.make(Ops.disconnectFirmAiConnection, ({ path, body }) =>
    Effect.gen(function*() {
      const caller = yield* firmAdmin(Ops.disconnectFirmAiConnection)
      const { id, audit } = yield* disconnect(yield* ConnectionStore.loadForFirm(caller.firmId, path.id), body.reason)
      return { body: ConnectionStore.toConnection(yield* ConnectionStore.loadForFirm(caller.firmId, id)), audit }
    }))
]
