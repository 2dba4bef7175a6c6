import { Effect } from "effect"
import { ApiError } from "@ledger/api"
import type { Actor } from "./Actor.ts"
import { RequestContext } from "./RequestContext.ts"

/**
 * Step-up (spec 1-concepts 5.5): sensitive changes made in a browser session (keys, payment
 * settings, exports, passkeys and two-step, owner invitations, AI apps that post, crypto wallets,
 * billing) need a strong authentication within the last 10 minutes; signing in counts as one. A
 * handler of such a change calls `requireStepUp` first. Only sessions are checked: an API key is
 * no browser session, and its own rules (scopes, people-only) apply instead.
 */

export const validMs = 10 * 60_000

/** Until when the actor's step-up holds, or null when it has none (not a session, or never stepped up). */
export const validUntil = (actor: Actor): string | null =>
  actor.credentialKind !== "session" || actor.steppedUpAt === undefined || actor.steppedUpAt === null
    ? null
    : new Date(Date.parse(actor.steppedUpAt) + validMs).toISOString()

/** True when the actor is a session stepped up within the last 10 minutes at `now`. */
export const isRecent = (actor: Actor, now: string): boolean => {
  const until = validUntil(actor)
  return until !== null && Date.parse(until) > Date.parse(now)
}

/** Fails with 403 `step_up_required` when the request is a browser session without a recent step-up. */
export const requireStepUp: Effect.Effect<void, ApiError.LedgerError, RequestContext> = Effect.gen(function*() {
  const request = yield* RequestContext
  if (request.actor.credentialKind !== "session") return
  if (isRecent(request.actor, request.now)) return
  return yield* Effect.fail(ApiError.fail(
    "step_up_required",
    "Confirm it is you first: POST /v1/me/step-up (a step-up lasts 10 minutes).",
    { step_up: "/v1/me/step-up/challenge" }
  ))
})
