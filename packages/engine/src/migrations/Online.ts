import { Clock, Effect } from "effect"
import { SqlClient } from "effect/sql"
import { ApiError, Migrations } from "@ledger/api"
import * as Handler from "../kernel/Handler.ts"
import { requireCompanyId } from "../kernel/CompanyContext.ts"
import { RequestContext } from "../kernel/RequestContext.ts"
import * as Actor from "../kernel/Actor.ts"
import * as Row from "../kernel/Row.ts"
import { entities, OnlineBooks, OnlineBooksFailure } from "../ports/OnlineBooks.ts"
import { TokenSealer } from "../ports/TokenSealer.ts"
import * as Common from "./Common.ts"
import * as Import from "./Import.ts"
import * as MigrationStore from "./MigrationStore.ts"
import * as OnlineRules from "./OnlineRules.ts"
import * as OnlineStore from "./OnlineStore.ts"
import type { Staged } from "./Staging.ts"
import * as TieoutRules from "./TieoutRules.ts"
import { tieoutBody } from "./Desktop.ts"

const api = Migrations.Online
const callbackPath = "/migrations/online/callback"

const failure = (error: OnlineBooksFailure) =>
  error.code === "not_configured"
    ? ApiError.fail("online_migration_not_configured", "This deployment has no online-edition adapter: set LEDGER_ONLINE_BOOKS_URL.")
    : error.code === "invalid_grant"
    ? ApiError.fail("migration_consent_invalid", `The provider refused the consent: ${error.message}`)
    : ApiError.fail("bad_gateway", `The online edition did not answer as expected: ${error.message}`)

const requireConfigured = Effect.gen(function*() {
  const online = yield* OnlineBooks
  if (!online.configured) return yield* Effect.fail(failure({ code: "not_configured", message: "" } as OnlineBooksFailure))
  return online
})

const month = (now: string) => now.slice(0, 7)

/** Stores a renewed token set at once (a rotated refresh token is the only one that still works). */
const storeTokens = (company: string, id: number) => (sealed: string) => save(company, id, { access_token_sealed: sealed })

const wire = Effect.fn("Online.wire")(function*(company: string, row: Record<string, unknown>) {
  const request = yield* RequestContext
  return yield* OnlineStore.wire(company, row, request.now)
})

const load = (company: string, id: number) =>
  Effect.gen(function*() {
    const request = yield* RequestContext
    const row = yield* MigrationStore.load(company, id, "online", true)
    yield* MigrationStore.requireOpen(row, request.now)
    return row
  })

const save = Effect.fn("Online.save")(function*(company: string, id: number, fields: Record<string, unknown>) {
  const sql = yield* SqlClient.SqlClient
  const rows = yield* sql<Record<string, unknown>>`UPDATE migration_connections SET ${sql.update(fields)}
    WHERE company_id = ${company} AND id = ${id} RETURNING *`.pipe(Effect.orDie)
  return rows[0]!
})


const create = Handler.make(api.createOnline, ({ body }) =>
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const request = yield* RequestContext
    const company = yield* requireCompanyId
    const online = yield* requireConfigured
    const state = yield* Common.randomToken(24)
    const expiresAt = Common.plusMinutes(request.now, Common.consentMinutes)
    const rows = yield* sql<Record<string, unknown>>`INSERT INTO migration_connections ${sql.insert({
      company_id: company, source: "online", status: "pending", as_of: body.as_of, include_tax_ids: body.include_tax_ids ?? false,
      state_hash: Common.hash(state), consent_expires_at: expiresAt,
      expires_at: Common.plusMinutes(request.now, Common.connectionDays * 24 * 60),
      created_by: Actor.reference(request.actor), created_at: request.now
    })} RETURNING *`.pipe(Effect.orDie)
    const connection = yield* wire(company, rows[0]!)
    return {
      body: { connection, consent_url: online.consentUrl({ state, redirectUri: callbackPath }), expires_at: expiresAt },
      audit: { targetType: "migration_connection", targetId: connection.id, details: { source: "online" } }
    }
  }))

const authorize = Handler.make(api.authorizeOnline, ({ path, body }) =>
  Effect.gen(function*() {
    const request = yield* RequestContext
    const company = yield* requireCompanyId
    const online = yield* requireConfigured
    const row = yield* load(company, path.id)
    if (row.state_hash === null || row.state_hash !== Common.hash(body.state) || Row.iso(row.consent_expires_at) < request.now) {
      return yield* Effect.fail(ApiError.fail("migration_consent_invalid", "This consent state is unknown, used or past its 15 minutes."))
    }
    const grant = yield* online.exchange({ code: body.code, realmId: body.realm_id, redirectUri: callbackPath }).pipe(Effect.mapError(failure))
    const sealer = yield* TokenSealer
    if (!sealer.configured) return yield* Effect.fail(ApiError.fail("service_unavailable", "No master key: access tokens cannot be sealed."))
    const sealed = yield* OnlineStore.seal(company, path.id, OnlineStore.fromGrant(grant, yield* Clock.currentTimeMillis))
    const updated = yield* save(company, path.id, { status: "authorized", state_hash: null, realm_id: body.realm_id, access_token_sealed: sealed })
    return { body: yield* wire(company, updated), audit: { targetType: "migration_connection", targetId: path.id, details: { realm_id: body.realm_id } } }
  }))

const estimate = Handler.make(api.estimateOnline, ({ path }) =>
  Effect.gen(function*() {
    const request = yield* RequestContext
    const company = yield* requireCompanyId
    const online = yield* requireConfigured
    const row = yield* load(company, path.id)
    const tokens = yield* OnlineStore.session(company, path.id, yield* OnlineStore.open(company, row), storeTokens(company, path.id))
    const realmId = String(row.realm_id)
    const byEntity: Record<string, number> = {}
    for (const entity of entities) {
      byEntity[entity] = yield* tokens.use((accessToken) => online.count({ accessToken, realmId, entity })).pipe(Effect.mapError(failure))
    }
    yield* OnlineStore.meter(month(request.now), entities.length)
    const calls = OnlineRules.callsFor(byEntity)
    const remaining = online.monthlyReadBudget - (yield* OnlineStore.readsThisMonth(month(request.now)))
    const result = { records: Object.values(byEntity).reduce((a, b) => a + b, 0), calls, budget_remaining: remaining, fits: calls <= remaining, by_entity: byEntity }
    const updated = yield* save(company, path.id, { status: row.status === "extracted" ? "extracted" : "estimated", estimate: JSON.stringify(result) })
    return { body: yield* wire(company, updated), audit: { targetType: "migration_connection", targetId: path.id, details: { calls, fits: result.fits } } }
  }))

/**
 * One record of the provider's answer staged, or `bad_gateway` naming it when it cannot be read (an
 * amount past two decimals or the safe range, refused rather than rounded): the provider's data,
 * not a fault of ours, so the extraction is marked failed with it like any unusable answer, never a 500.
 */
const stageOne = (...[entity, record, controls]: Parameters<typeof OnlineRules.fromOnline>) =>
  Effect.try({
    try: (): Array<Staged> => {
      const staged = OnlineRules.fromOnline(entity, record, controls)
      // An open document is staged beside its history (ADR 2112): it carries AR or AP at import.
      const open = OnlineRules.openOf(entity, record)
      return [...(staged === null ? [] : [staged]), ...(open === null ? [] : [{ entity: "open" as const, id: `${open.kind}:${open.id}`, record: open }])]
    },
    catch: (error) => ApiError.fail("bad_gateway", `The online edition answered a ${entity} that cannot be read: ${(error as Error).message}`)
  })

const pull = Effect.fn("Online.pull")(function*(company: string, row: Record<string, unknown>, start: OnlineStore.Tokens) {
  const online = yield* OnlineBooks
  // An extraction of a large company outlives the hour an access token lasts: the session renews it.
  const tokens = yield* OnlineStore.session(company, Row.int(row.id), start, storeTokens(company, Row.int(row.id)))
  const realmId = String(row.realm_id)
  let calls = 0
  const all: Array<Staged> = []
  let controls: OnlineRules.Controls = { ar: null, ap: null }
  // The Account records as the provider sent them: Undeposited Funds is known by its subtype only.
  const rawAccounts: Array<Record<string, unknown>> = []
  for (const entity of entities) {
    for (let start = 1; ; start += OnlineRules.pageSize) {
      const page = yield* tokens.use((accessToken) => online.query({ accessToken, realmId, entity, startPosition: start, maxResults: OnlineRules.pageSize }))
      calls++
      for (const record of page) {
        if (entity === "Account") rawAccounts.push(record)
        all.push(...yield* stageOne(entity, record, controls))
      }
      if (page.length < OnlineRules.pageSize) break
    }
    if (entity === "Account") {
      const accounts = all.filter((record) => record.entity === "account").map((record) => record.record as { id: string; special: string | null })
      controls = { ar: accounts.find((a) => a.special === "ar")?.id ?? null, ap: accounts.find((a) => a.special === "ap")?.id ?? null, undeposited: OnlineRules.undepositedOf(rawAccounts) }
    }
  }
  yield* MigrationStore.stage(company, Row.int(row.id), all)
  return { calls, records: all.length }
})

const extract = Handler.make(api.extractOnline, ({ path }) =>
  Effect.gen(function*() {
    const request = yield* RequestContext
    const company = yield* requireCompanyId
    const online = yield* requireConfigured
    const row = yield* load(company, path.id)
    const tokens = yield* OnlineStore.open(company, row)
    if (row.estimate === null) return yield* Effect.fail(ApiError.fail("migration_estimate_required", "Estimate the extraction first."))
    const planned = Row.json<{ calls: number }>(row.estimate).calls
    const remaining = online.monthlyReadBudget - (yield* OnlineStore.readsThisMonth(month(request.now)))
    if (planned > remaining) {
      return yield* Effect.fail(ApiError.fail("budget_exceeded", `The extraction needs about ${planned} reads; ${remaining} are left this month.`, {
        calls: planned, budget_remaining: remaining
      }))
    }
    yield* MigrationStore.wipe(company, path.id)
    const pulled = yield* Effect.result(pull(company, row, tokens))
    if (pulled._tag === "Failure" && pulled.failure instanceof OnlineBooksFailure && pulled.failure.code === "invalid_grant") {
      // The provider refused the refresh token: the connection keeps no tokens and says to consent again.
      const forgotten = yield* save(company, path.id, { status: "failed", access_token_sealed: null, last_error: OnlineStore.consentLost(pulled.failure) })
      return { body: yield* wire(company, forgotten), audit: { targetType: "migration_connection", targetId: path.id, details: { status: "failed", consent_required: true } } }
    }
    if (pulled._tag === "Failure") {
      const failed = yield* save(company, path.id, { status: "failed", last_error: pulled.failure.message.slice(0, 1000) })
      return { body: yield* wire(company, failed), audit: { targetType: "migration_connection", targetId: path.id, details: { status: "failed" } } }
    }
    yield* OnlineStore.meter(month(request.now), pulled.success.calls)
    const bundle = yield* MigrationStore.bundle(company, path.id)
    const { resolved: _resolved, ...tieout } = TieoutRules.tieout(bundle, Row.date(row.as_of), { openDocuments: true })
    const updated = yield* save(company, path.id, {
      status: "extracted", extracted: JSON.stringify({ ...pulled.success, transactions: bundle.txns.length, accounts: bundle.accounts.length }),
      tieout: JSON.stringify(tieout)
    })
    return { body: yield* wire(company, updated), audit: { targetType: "migration_connection", targetId: path.id, details: pulled.success } }
  }))

export const handlers = [
  create,
  Handler.make(api.listOnline, ({ query }) =>
    Effect.gen(function*() {
      const company = yield* requireCompanyId
      const page = yield* MigrationStore.page(company, "online", query)
      return { body: { ...page, data: yield* Effect.forEach(page.data, (row) => wire(company, row)) } }
    })),
  Handler.make(api.getOnline, ({ path }) =>
    Effect.gen(function*() {
      const company = yield* requireCompanyId
      return { body: yield* wire(company, yield* MigrationStore.load(company, path.id, "online")) }
    })),
  authorize,
  estimate,
  extract,
  Handler.make(api.onlineTieout, ({ path }) =>
    Effect.gen(function*() {
      const company = yield* requireCompanyId
      const { unresolved: _unresolved, balances: _balances, ...body } = yield* tieoutBody(yield* MigrationStore.load(company, path.id, "online"))
      return { body }
    })),
  Handler.make(api.onlineDisclosure, ({ path }) =>
    Effect.gen(function*() {
      const company = yield* requireCompanyId
      const row = yield* MigrationStore.load(company, path.id, "online")
      const tieout = yield* tieoutBody(row)
      const items = [
        ...OnlineRules.notExported.map((item) => ({ ...item, count: 0 })),
        { what: "Transactions that could not be resolved to accounts or do not balance", count: tieout.unresolved.length,
          handling: "Not imported; the tie-out fails while any remains, so nothing is imported without them." },
        { what: "Tax identification numbers", count: 0,
          handling: row.include_tax_ids === true ? "Kept as the last four digits only." : "Not brought over (include_tax_ids was false)." }
      ]
      return { body: { connection_id: path.id, items } }
    })),
  Handler.make(api.importOnline, ({ path }) =>
    Effect.gen(function*() {
      const company = yield* requireCompanyId
      return yield* Import.run(company, yield* load(company, path.id), "the online edition")
    })),
  Handler.make(api.revokeOnline, ({ path, body }) =>
    Effect.gen(function*() {
      const request = yield* RequestContext
      const company = yield* requireCompanyId
      const row = yield* MigrationStore.load(company, path.id, "online", true)
      if (row.status === "revoked") return yield* Effect.fail(ApiError.fail("migration_connection_revoked", "This connection is already revoked."))
      if (typeof row.access_token_sealed === "string") {
        const online = yield* OnlineBooks
        const tokens = yield* OnlineStore.open(company, row)
        // Revoking the refresh token ends the whole grant at Intuit; the access token alone would leave it.
        yield* online.revoke({ accessToken: tokens.refresh ?? tokens.access }).pipe(Effect.ignore)
      }
      yield* MigrationStore.wipe(company, path.id)
      const updated = yield* save(company, path.id, {
        status: "revoked", access_token_sealed: null, state_hash: null, revoked_at: request.now, revoke_reason: body.reason
      })
      return { body: yield* wire(company, updated), audit: { targetType: "migration_connection", targetId: path.id, reason: body.reason } }
    })),
  Handler.make(api.usage, () =>
    Effect.gen(function*() {
      const request = yield* RequestContext
      const online = yield* OnlineBooks
      const reads = yield* OnlineStore.readsThisMonth(month(request.now))
      return { body: { month: month(request.now), reads, budget: online.monthlyReadBudget, remaining: Math.max(0, online.monthlyReadBudget - reads) } }
    }))
]
