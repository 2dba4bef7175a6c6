import { Effect } from "effect"
import { SqlClient } from "effect/sql"
import { Limits } from "@ledger/api"
import type { Entropy } from "../ports/Entropy.ts"
import * as SharedLimit from "../store/SharedLimit.ts"
import { isAcceptableRedirect } from "./ConnectionRules.ts"
import { type Answer, oauthError } from "./OAuthAnswer.ts"
import * as OAuthStore from "./OAuthStore.ts"

/**
 * RFC 7591 dynamic client registration (`POST /oauth/register`), a door anyone may knock at
 * (issue 41 item 4, ADR 2300): limited per client address and in total, every kept metadata field
 * bounded and refused past it, and registrations no connection names forgotten a day on.
 */

/** Exported: `register`'s published type names it. */
export type { Answer } from "./OAuthAnswer.ts"

/** At most this many redirect URIs per client, each at most 2000 characters. */
const redirectUrisMax = 10

/** The metadata kept of a registered client, each a string within its bound (or absent). */
const textFields = [
  ["client_name", Limits.oauthClientTextMax],
  ["software_id", Limits.oauthClientTextMax],
  ["software_version", Limits.oauthClientTextMax],
  ["client_uri", Limits.oauthClientUriMax],
  ["logo_uri", Limits.oauthClientUriMax],
  ["tos_uri", Limits.oauthClientUriMax],
  ["policy_uri", Limits.oauthClientUriMax]
] as const

/** Control characters (a line break, an escape) have no place in a name shown on the consent screen. */
const controlCharacters = /[\u0000-\u001f\u007f-\u009f]/u

/** RFC 7591 3.2.2: the first metadata field refused, or null when every kept one is fine. */
const metadataProblem = (metadata: Record<string, unknown>): string | null => {
  for (const [field, max] of textFields) {
    const value = metadata[field]
    if (value === undefined || value === null) continue
    if (typeof value !== "string") return `${field} must be a string.`
    if (value.length > max) return `${field} must be at most ${max} characters.`
    if (controlCharacters.test(value)) return `${field} must not contain control characters.`
  }
  return null
}

const registrationRefused = (verdict: { readonly retryAfterSeconds: number; readonly bucket: string }): Answer => ({
  status: 429,
  body: {
    error: "rate_limited",
    error_description: verdict.bucket.startsWith("oauth-register-client:")
      ? `Too many client registrations from this address: at most ${Limits.oauthRegistrationsPerAddressPerHour} an hour. Try again in ${verdict.retryAfterSeconds} seconds.`
      : `Too many client registrations on this server: at most ${Limits.oauthRegistrationsPerHour} an hour. Try again in ${verdict.retryAfterSeconds} seconds.`
  },
  headers: { "cache-control": "no-store", "retry-after": String(verdict.retryAfterSeconds) }
})

/**
 * RFC 7591: a public client (no secret; PKCE protects its codes) with exact redirect URIs. Limited
 * per client address (`client`, null when unknown) and in total over an hour, shared by every
 * replica (store/SharedLimit.ts); a metadata field past its bound is refused, never cut. Only a
 * request that passes every check is counted, so a mistaken body costs no registration.
 */
export const register = (body: unknown, now: string, client: string | null = null): Effect.Effect<Answer, never, SqlClient.SqlClient | Entropy> =>
  Effect.gen(function*() {
    if (typeof body !== "object" || body === null || Array.isArray(body)) return oauthError(400, "invalid_client_metadata", "The body must be a JSON object.")
    const metadata = body as Record<string, unknown>
    const uris = metadata.redirect_uris
    if (!Array.isArray(uris) || uris.length === 0 || uris.length > redirectUrisMax) {
      return oauthError(400, "invalid_redirect_uri", `redirect_uris must list 1 to ${redirectUrisMax} URIs.`)
    }
    if (!uris.every((uri) => typeof uri === "string" && uri.length <= 2000 && isAcceptableRedirect(uri))) {
      return oauthError(400, "invalid_redirect_uri", "Each redirect URI must be https, http on a loopback host, or a private-use scheme, without a fragment.")
    }
    const grants = metadata.grant_types
    if (grants !== undefined && (!Array.isArray(grants) || grants.some((grant) => grant !== "authorization_code" && grant !== "refresh_token"))) {
      return oauthError(400, "invalid_client_metadata", "Only the authorization_code and refresh_token grants are supported.")
    }
    const problem = metadataProblem(metadata)
    if (problem !== null) return oauthError(400, "invalid_client_metadata", problem)
    const nowMs = Date.parse(now)
    const hour = 3_600_000
    const verdict = yield* SharedLimit.take([
      ...(client === null ? [] : [{ name: `oauth-register-client:${client.slice(0, 100)}`, max: Limits.oauthRegistrationsPerAddressPerHour, windowMs: hour }]),
      { name: "oauth-register:all", max: Limits.oauthRegistrationsPerHour, windowMs: hour }
    ], nowMs)
    if (!verdict.allowed) return registrationRefused(verdict)
    const name = typeof metadata.client_name === "string" && metadata.client_name.trim() !== "" ? metadata.client_name.trim() : null
    const kept: Record<string, unknown> = {}
    for (const [field] of textFields) kept[field] = typeof metadata[field] === "string" ? metadata[field] : null
    // Registrations nobody connected are forgotten a day on: a few go with each new one.
    yield* OAuthStore.deleteUnusedClients(unusedBefore(now))
    const clientId = yield* OAuthStore.insertClient(name, uris as Array<string>, kept, now)
    return {
      status: 201,
      headers: { "cache-control": "no-store" },
      body: {
        client_id: clientId,
        client_id_issued_at: Math.floor(nowMs / 1000),
        client_name: name ?? undefined,
        redirect_uris: uris,
        grant_types: ["authorization_code", "refresh_token"],
        response_types: ["code"],
        token_endpoint_auth_method: "none"
      }
    } satisfies Answer
  }).pipe(Effect.orDie)

/**
 * Registered clients created before this time that no connection names are deleted: an hour past
 * the time they become unknown (`OAuthStore.findClient`), so an approval that found its client
 * just in time never meets it deleted under it.
 */
const unusedBefore = (now: string): string => new Date(Date.parse(now) - (Limits.oauthUnusedClientHours + 1) * 3_600_000).toISOString()
