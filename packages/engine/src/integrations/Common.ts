import { sha256 } from "@noble/hashes/sha2.js"
import { Effect } from "effect"
import * as Pagination from "../kernel/Pagination.ts"
import { Base64Url } from "effect/encoding"
import { ApiError } from "@ledger/api"
import { Entropy } from "../ports/Entropy.ts"
import type { CommerceFailure } from "../ports/CommerceProviders.ts"
import * as Secret from "../kernel/Secret.ts"

/** Small pieces the integration handlers share: random tokens, PKCE, provider failures as refusals. */

export const randomToken = Effect.fn("Integrations.randomToken")(function*(bytes = 32) {
  const entropy = yield* Entropy
  return Base64Url.encode(yield* entropy.bytes(bytes))
})

/** RFC 7636 S256: base64url(SHA-256(verifier)). */
export const codeChallenge = (verifier: string): string => Base64Url.encode(sha256(new TextEncoder().encode(verifier)))

export const hash = Secret.sha256Hex

/** Where the provider sends the person back after consent (the web app resolves it to its origin). */
export const callbackPath = "/integrations/callback"

/** The consent URL is valid 15 minutes (spec 8.2). */
export const consentMinutes = 15

export const plusMinutes = (iso: string, minutes: number): string => new Date(Date.parse(iso) + minutes * 60_000).toISOString()

export const providerFailure = (failure: CommerceFailure) =>
  failure.code === "not_configured"
    ? ApiError.fail("integration_provider_not_configured", "This deployment has no adapter for the provider: set its LEDGER_PROVIDER_<X>_URL.")
    : failure.code === "invalid_grant"
    ? ApiError.fail("integration_consent_invalid", `The provider refused the consent: ${failure.message}`)
    : ApiError.fail("bad_gateway", `The provider did not answer as expected: ${failure.message}`)

export const counts = () => ({ fetched: 0, posted: 0, proposed: 0, corrected: 0, unchanged: 0, pending: 0, needs_review: 0 })
export type Counts = ReturnType<typeof counts>

/** A page of a list already in memory (a short, bounded one): the cursor is the position reached. */
export const pageOf = <A>(items: ReadonlyArray<A>, query: Pagination.PageRequest) =>
  Effect.map(Pagination.afterId(query), (after) => {
    const offset = after ?? 0
    const limit = Pagination.limitOf(query)
    const rows = items.slice(offset, offset + limit + 1).map((item, index) => ({ item, position: offset + index + 1 }))
    return Pagination.page(rows, limit, (row) => row.position, (row) => row.item)
  })
