import { Effect } from "effect"
import { ApiError, type Operation, Scope } from "@ledger/api"
import type { Actor } from "../kernel/Actor.ts"
import { RequestContext } from "../kernel/RequestContext.ts"

/**
 * Who calls a firm operation. The pipeline authenticates firm credentials (firms/credentials/
 * FirmKey.ts, FirmSession.ts) and checks scopes of company operations; a firm operation's own
 * scope and people-only rule are checked here, from its declaration, before its handler runs.
 */

export interface FirmCaller {
  readonly firmId: number
  readonly actor: Actor
  readonly isAdmin: boolean
}

export const caller = (operation: Operation.Any) =>
  Effect.gen(function*() {
    const request = yield* RequestContext
    const actor = request.actor
    if (actor.firmId === null || actor.id === null) {
      return yield* Effect.fail(ApiError.fail("unauthorized", "A firm key or firm session is required."))
    }
    if (!Scope.satisfies(actor.scopes, operation.scope)) {
      return yield* Effect.fail(ApiError.fail("insufficient_scope", `This operation needs the ${operation.scope} scope.`, {
        required_scope: operation.scope
      }))
    }
    if (operation.peopleOnly && !actor.isPerson) {
      return yield* Effect.fail(ApiError.fail("insufficient_scope", "Only a firm member may do this."))
    }
    return { firmId: actor.firmId, actor, isAdmin: Scope.satisfies(actor.scopes, "admin") } satisfies FirmCaller
  })

/** The company's own people only: never a firm principal, an agent or an AI app. */
export const requireOwnPerson = Effect.gen(function*() {
  const request = yield* RequestContext
  if (request.actor.firmId !== null || !request.actor.isPerson) {
    return yield* Effect.fail(ApiError.fail("insufficient_scope", "Only the company's own people may grant firm access."))
  }
  return request.actor
})

export const daysLater = (now: string, days: number): string => new Date(Date.parse(now) + days * 86_400_000).toISOString()
export const secondsLater = (now: string, seconds: number): string => new Date(Date.parse(now) + seconds * 1_000).toISOString()
