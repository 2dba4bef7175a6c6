import { Clock, Effect } from "effect"
import { SqlClient } from "effect/sql"
import { ApiError } from "@ledger/api"
import * as Row from "../kernel/Row.ts"
import { OnlineBooks, OnlineBooksFailure, type OnlineGrant } from "../ports/OnlineBooks.ts"
import { TokenSealer } from "../ports/TokenSealer.ts"

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

/** Calls of one extraction with tokens kept fresh; `tokens()` is where they stand at the end. */
export const session = (company: string, id: number, start: Tokens) =>
  Effect.gen(function*() {
    const online = yield* OnlineBooks
    const sealer = yield* TokenSealer
    const sql = yield* SqlClient.SqlClient
    let current = start
    const renew = Effect.gen(function*() {
      if (current.refresh === null) {
        return yield* Effect.fail(new OnlineBooksFailure({ code: "invalid_grant", message: "the access token ended and this connection holds no refresh token" }))
      }
      const grant = yield* online.refresh({ refreshToken: current.refresh })
      current = fromGrant(grant, yield* Clock.currentTimeMillis, current.refresh)
      // Stored at once: a rotated refresh token is the only one that still works.
      const sealed = yield* sealer.seal(sealedText(current), boundTo(company, id))
      yield* sql`UPDATE migration_connections SET access_token_sealed = ${sealed} WHERE company_id = ${company} AND id = ${id}`.pipe(Effect.orDie)
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

/** The connection after the provider refused its refresh token: no tokens, and the reason, saying to consent again. */
export const forget = (company: string, id: number, failure: OnlineBooksFailure) =>
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const said = `${consentRequired} The online edition refused the refresh token (${failure.message}): the consent was revoked or has expired. ` +
      "Create a new connection and consent again."
    const rows = yield* sql<Record<string, unknown>>`UPDATE migration_connections SET status = 'failed', access_token_sealed = NULL,
      last_error = ${said.slice(0, 1000)} WHERE company_id = ${company} AND id = ${id} RETURNING *`.pipe(Effect.orDie)
    return rows[0]!
  })
