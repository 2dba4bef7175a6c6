import { Effect } from "effect"
import { SqlClient } from "effect/sql"
import type { LedgerError } from "@ledger/api"
import { RequestContext } from "../kernel/RequestContext.ts"
import type { Actor } from "../kernel/Actor.ts"
import * as Row from "../kernel/Row.ts"
import { Governed } from "../ledger/index.ts"
import { CommerceProviders, type SourceObject } from "../ports/CommerceProviders.ts"
import { TokenSealer } from "../ports/TokenSealer.ts"
import * as Common from "./Common.ts"
import * as ConnectionStore from "./ConnectionStore.ts"
import * as MappingRules from "./MappingRules.ts"

/**
 * A sync run (spec 4.2): the objects changed at the provider since the connection's cursor, each
 * written once by the connection's own agent through the governed path. Until a person approves
 * the mapping everything is a proposal; after, an entry at or under the connection's threshold
 * posts and a larger one waits. Objects are unique per provider account (ADR 1602), so a second
 * sync, or a reconnection of the same account, never posts anything twice.
 */

/** Pages read in one run; the next run carries on from the cursor. */
const pagesPerRunMax = 50

interface Context {
  readonly seen: Set<string>
  readonly company: string
  readonly connection: Record<string, unknown>
  readonly mappings: ReadonlyArray<MappingRules.MappingRow>
  readonly runId: number
  readonly counts: Common.Counts
}

const agentActor = (context: Context, request: { readonly actor: Actor }): Actor => ({
  ...request.actor,
  type: "agent",
  id: Row.int(context.connection.agent_id),
  name: `${String(context.connection.provider)} sync`,
  role: null,
  scopes: ["read", "propose"],
  isPerson: false,
  keyId: null,
  postingThresholdCents: Row.int(context.connection.posting_threshold_cents),
  rateLimitRpm: null,
  firmId: null
})

const upsert = Effect.fn("Sync.upsert")(function*(context: Context, object: SourceObject, existingId: number | null, now: string) {
  const sql = yield* SqlClient.SqlClient
  const total = object.lines.reduce((sum, line) => sum + (MappingRules.sideOf(line.kind) === "credit" ? line.amountCents : 0), 0)
  const fields = {
    version: object.version,
    type: object.type,
    date: object.date,
    total_cents: total,
    payload: JSON.stringify(object),
    status: "pending",
    entry_id: null,
    proposal_id: null,
    note: null,
    updated_at: now
  }
  if (existingId !== null) {
    yield* sql`UPDATE integration_objects SET ${sql.update({ ...fields, connection_id: Row.int(context.connection.id) })}
      WHERE company_id = ${context.company} AND id = ${existingId}`.pipe(Effect.orDie)
    return existingId
  }
  const rows = yield* sql<{ id: unknown }>`INSERT INTO integration_objects ${sql.insert({
    ...fields,
    company_id: context.company,
    connection_id: Row.int(context.connection.id),
    provider: String(context.connection.provider),
    external_account_id: String(context.connection.external_account_id),
    external_id: object.id,
    created_at: now
  })} RETURNING id`.pipe(Effect.orDie)
  return Row.int(rows[0]!.id)
})

export const setStatus = Effect.fn("Sync.setStatus")(function*(company: string, id: number, fields: Record<string, unknown>) {
  const sql = yield* SqlClient.SqlClient
  yield* sql`UPDATE integration_objects SET ${sql.update(fields)} WHERE company_id = ${company} AND id = ${id}`.pipe(Effect.orDie)
})

/** Writes one new (or still waiting) object: posted, proposed, pending on a mapping gap, or skipped. */
const write = Effect.fn("Sync.write")(function*(context: Context, object: SourceObject, existingId: number | null) {
  const request = yield* RequestContext
  const id = yield* upsert(context, object, existingId, request.now)
  if (object.unsupported !== undefined) {
    // Never guessed at (before, anything unknown was booked as a payout): a person books it by hand.
    return yield* setStatus(context.company, id, { status: "skipped", note: `Not booked: ${object.unsupported}; book it by hand.`.slice(0, 500) })
  }
  const drafted = MappingRules.draft(object, context.mappings, String(context.connection.clearing_account),
    (context.connection.payout_account as string | null) ?? null)
  if (drafted._tag === "Empty") {
    return yield* setStatus(context.company, id, { status: "skipped", note: "Nothing to post." })
  }
  if (drafted._tag === "Unmapped") {
    context.counts.pending++
    return yield* setStatus(context.company, id, { status: "pending", note: `Waiting on a mapping for ${drafted.missing.join(", ")}.` })
  }
  const approved = context.connection.mapping_approved_at !== null
  const written = yield* Governed.write({
    kind: "integration_sale",
    summary: `${String(context.connection.provider)} ${object.type} ${object.id}: ${object.description}`,
    entry: { date: object.date, memo: `${object.type} ${object.id} (${String(context.connection.provider)})`.slice(0, 200), lines: drafted.lines },
    request: { connection_id: Row.int(context.connection.id), object_id: id },
    dryRun: false,
    sourceId: id,
    ...(approved ? {} : { alwaysProposeForAgents: { type: "mapping_not_approved", message: "The connection's mapping is not approved yet." } }),
    onPosted: (entry) => setStatus(context.company, id, { status: "posted", entry_id: entry.id }),
    onProposed: (proposal) => setStatus(context.company, id, { status: "proposed", proposal_id: proposal.id })
  }).pipe(Effect.provideService(RequestContext, { ...request, actor: agentActor(context, request) }))
  if (written.outcome._tag === "Posted") context.counts.posted++
  else context.counts.proposed++
})

const one = Effect.fn("Sync.one")(function*(context: Context, object: SourceObject) {
  const sql = yield* SqlClient.SqlClient
  context.counts.fetched++
  context.seen.add(object.id)
  const seen = yield* sql<Record<string, unknown>>`SELECT id, status, version FROM integration_objects WHERE company_id = ${context.company}
    AND provider = ${String(context.connection.provider)} AND external_account_id = ${String(context.connection.external_account_id)}
    AND external_id = ${object.id} FOR UPDATE`.pipe(Effect.orDie)
  const row = seen[0]
  const decision = MappingRules.classify(row === undefined ? null : { status: String(row.status), version: String(row.version) }, object.version)
  if (decision === "unchanged") {
    context.counts.unchanged++
    return
  }
  if (decision === "needs_review") {
    context.counts.needs_review++
    return yield* setStatus(context.company, Row.int(row!.id), {
      status: "needs_review",
      note: `Changed at the provider (version ${object.version}) after it was ${String(row!.status)}: a person decides the correction.`.slice(0, 500),
      payload: JSON.stringify({ ...object, previous_status: row!.status })
    })
  }
  if (decision === "correct_in_place") context.counts.corrected++
  yield* write(context, object, row === undefined ? null : Row.int(row.id)).pipe(
    Effect.catchTag("LedgerError", (error: LedgerError) =>
      Effect.andThen(Effect.sync(() => context.counts.pending++), markRefused(context, object, error)))
  )
})

const markRefused = Effect.fn("Sync.markRefused")(function*(context: Context, object: SourceObject, error: LedgerError) {
  const sql = yield* SqlClient.SqlClient
  yield* sql`UPDATE integration_objects SET status = 'pending', note = ${`Refused by the books: ${error.type}: ${error.message}`.slice(0, 500)}
    WHERE company_id = ${context.company} AND provider = ${String(context.connection.provider)}
    AND external_account_id = ${String(context.connection.external_account_id)} AND external_id = ${object.id}`.pipe(Effect.orDie)
})

/**
 * The sync of one connection into its run `runId`, in the caller's transaction, holding the
 * connection's row (so two workers never sync one connection at once): the objects since the
 * cursor, then those still waiting on a mapping. A provider failure is recorded on the run.
 */
export const syncInto = Effect.fn("Sync.syncInto")(function*(company: string, connection: Record<string, unknown>, runId: number) {
  const context: Context = {
    seen: new Set(),
    company,
    connection,
    mappings: (yield* ConnectionStore.mappings(company, Row.int(connection.id))).map(ConnectionStore.mappingRow),
    runId,
    counts: Common.counts()
  }
  const errors: Array<string> = []
  yield* pages(context).pipe(
    Effect.catchTag("CommerceFailure", (failure) => Effect.sync(() => { errors.push(`${failure.code}: ${failure.message}`) })),
    Effect.catch((error) => Effect.sync(() => { errors.push(`${String((error as { type?: unknown }).type ?? "error")}: ${String((error as { message?: unknown }).message ?? error)}`) }))
  )
  yield* retryPending(context)
  return { counts: context.counts, errors }
})

/** Objects waiting on a mapping gap are tried again as stored, though the provider sends them no more. */
const retryPending = Effect.fn("Sync.retryPending")(function*(context: Context) {
  const sql = yield* SqlClient.SqlClient
  const rows = yield* sql<Record<string, unknown>>`SELECT id, external_id, payload FROM integration_objects WHERE company_id = ${context.company}
    AND provider = ${String(context.connection.provider)} AND external_account_id = ${String(context.connection.external_account_id)}
    AND status = 'pending' ORDER BY id LIMIT 500 FOR UPDATE`.pipe(Effect.orDie)
  for (const row of rows) {
    if (context.seen.has(String(row.external_id))) continue
    const object = Row.json<SourceObject>(row.payload)
    context.counts.corrected++
    yield* write(context, object, Row.int(row.id)).pipe(
      Effect.catchTag("LedgerError", (error: LedgerError) => Effect.andThen(Effect.sync(() => context.counts.pending++), markRefused(context, object, error)))
    )
  }
})

const pages = Effect.fn("Sync.pages")(function*(context: Context) {
  const sql = yield* SqlClient.SqlClient
  const commerce = yield* CommerceProviders
  const sealer = yield* TokenSealer
  const token = yield* sealer.open(String(context.connection.access_token_sealed), `integration:${context.company}:${Row.int(context.connection.id)}`)
  let cursor = (context.connection.sync_cursor as string | null) ?? null
  for (let page = 0; page < pagesPerRunMax; page++) {
    const result = yield* commerce.objects({ provider: String(context.connection.provider), accessToken: token, cursor })
    for (const object of result.objects) yield* one(context, object)
    cursor = result.nextCursor
    yield* sql`UPDATE integration_connections SET sync_cursor = ${cursor} WHERE company_id = ${context.company}
      AND id = ${Row.int(context.connection.id)}`.pipe(Effect.orDie)
    if (!result.hasMore) break
  }
  // What the provider holds for the business, beside the clearing account's balance (spec 4.2).
  // Providers without a balance answer null; the figure is kept with when it was read. A failed
  // read keeps the last figure: the objects synced above stand.
  const balance = yield* commerce.balance({ provider: String(context.connection.provider), accessToken: token }).pipe(
    Effect.catchTag("CommerceFailure", () => Effect.succeed(null))
  )
  if (balance !== null) {
    const request = yield* RequestContext
    yield* sql`UPDATE integration_connections SET provider_balance_cents = ${balance}, provider_balance_at = ${request.now}
      WHERE company_id = ${context.company} AND id = ${Row.int(context.connection.id)}`.pipe(Effect.orDie)
  }
})
