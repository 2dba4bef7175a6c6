import { Clock, Effect } from "effect"
import { SqlClient } from "effect/sql"
import { ApiError, type Migrations } from "@ledger/api"
import * as Row from "../kernel/Row.ts"
import { OnlineBooks, OnlineBooksFailure, type OnlineGrant } from "../ports/OnlineBooks.ts"
import { TokenSealer } from "../ports/TokenSealer.ts"
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

/**
 * The online edition's tokens of one connection (issue 39): the access token, which Intuit lets
 * live an hour, the refresh token that renews it without a new consent, and when the access token
 * ends. They are sealed together, as one JSON text, in the connection's `access_token_sealed`, so
 * the refresh token is never stored in the clear; a row sealed before refresh tokens were kept
 * holds the bare access token, which is read as one with no refresh token.
 *
 * A long extraction reads through `Session.use`: before a call whose token is about to end, or after
 * a call refused as unauthorized, the token is refreshed once and the call made again; the new tokens
 * (Intuit may rotate the refresh token; the old one then stops working) are sealed and stored at once.
 * A refresh refused as `invalid_grant` means the consent was revoked or has expired: the connection
 * loses its tokens and says to consent again.
 */

export interface Tokens {
  readonly access: string
  readonly refresh: string | null
  /** When the access token ends, in epoch milliseconds; 0 when unknown (a row from before). */
  readonly expiresAt: number
}

/** A token is renewed this long before it ends, so no call is sent with one that ends in flight. */
const marginMs = 60_000

/** What `last_error` starts with when the provider refused the refresh token: only a new consent helps. */
export const consentRequired = "consent_required:"

const boundTo = (company: string, id: number) => `migration:${company}:${id}`

export const fromGrant = (grant: OnlineGrant, now: number, previous: string | null = null): Tokens => ({
  access: grant.accessToken,
  // A grant without a refresh token keeps the one that was sent (Intuit answers one every time).
  refresh: grant.refreshToken ?? previous,
  expiresAt: now + grant.expiresInSeconds * 1000
})

const sealedText = (tokens: Tokens) => JSON.stringify({ a: tokens.access, r: tokens.refresh, e: tokens.expiresAt })

export const seal = (company: string, id: number, tokens: Tokens) =>
  Effect.gen(function*() {
    const sealer = yield* TokenSealer
    return yield* sealer.seal(sealedText(tokens), boundTo(company, id))
  })

/** The connection's tokens, or why there are none (never authorized, or the consent must be given again). */
export const open = (company: string, row: Record<string, unknown>) =>
  Effect.gen(function*() {
    if (typeof row.access_token_sealed !== "string") {
      const said = typeof row.last_error === "string" && row.last_error.startsWith(consentRequired) ? row.last_error.slice(consentRequired.length).trim() : null
      return yield* Effect.fail(ApiError.fail("migration_not_authorized", said ?? "Authorize the connection first."))
    }
    const text = yield* (yield* TokenSealer).open(row.access_token_sealed, boundTo(company, Row.int(row.id)))
    if (!text.startsWith("{")) return { access: text, refresh: null, expiresAt: 0 } satisfies Tokens
    const parsed = JSON.parse(text) as { a: string; r: string | null; e: number }
    return { access: parsed.a, refresh: parsed.r, expiresAt: parsed.e } satisfies Tokens
  })

/**
 * Calls of one extraction with tokens kept fresh; `tokens()` is where they stand at the end.
 * `store` writes a newly sealed token set onto the connection.
 */
export const session = <E, R>(company: string, id: number, start: Tokens, store: (sealed: string) => Effect.Effect<unknown, E, R>) =>
  Effect.gen(function*() {
    const online = yield* OnlineBooks
    const sealer = yield* TokenSealer
    let current = start
    const renew = Effect.gen(function*() {
      if (current.refresh === null) {
        return yield* Effect.fail(new OnlineBooksFailure({ code: "invalid_grant", message: "the access token ended and this connection holds no refresh token" }))
      }
      const grant = yield* online.refresh({ refreshToken: current.refresh })
      current = fromGrant(grant, yield* Clock.currentTimeMillis, current.refresh)
      // Stored at once: a rotated refresh token is the only one that still works.
      const sealed = yield* sealer.seal(sealedText(current), boundTo(company, id))
      yield* store(sealed)
    })
    const use = <A>(call: (accessToken: string) => Effect.Effect<A, OnlineBooksFailure>) =>
      Effect.gen(function*() {
        if (current.expiresAt !== 0 && (yield* Clock.currentTimeMillis) >= current.expiresAt - marginMs) yield* renew
        return yield* call(current.access).pipe(
          // Refused although fresh by our clock (revoked early, clocks apart): one refresh, one more try.
          Effect.catchIf((failure) => failure.code === "unauthorized", () => renew.pipe(Effect.flatMap(() => call(current.access))))
        )
      })
    return { use, tokens: () => current }
  })

/** What the connection records when the provider refused its refresh token: only a new consent helps. */
export const consentLost = (failure: OnlineBooksFailure): string =>
  (`${consentRequired} The online edition refused the refresh token (${failure.message}): the consent was revoked or has expired. ` +
    "Create a new connection and consent again.").slice(0, 1000)
