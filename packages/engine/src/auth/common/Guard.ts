import { Effect } from "effect"
import { ApiError } from "@ledger/api"
import type { Actor } from "../../kernel/Actor.ts"
import { RequestContext } from "../../kernel/RequestContext.ts"
import { FirmAudit } from "../../firms/index.ts"
import * as Audit from "../../pipeline/Audit.ts"
import { type Person, personKey } from "./SignInRules.ts"

/**
 * Who may use a person's own security operations (spec 5.5): the person's own browser session
 * only; API keys, agents and AI apps are refused with `insufficient_scope`.
 */
export const ownSession = Effect.gen(function*() {
  const request = yield* RequestContext
  const actor = request.actor
  if (actor.credentialKind !== "session" || !actor.isPerson || actor.id === null || actor.keyId === null) {
    return yield* Effect.fail(ApiError.fail("insufficient_scope", "Only your own browser session may do this (not a key, an agent or an AI app)."))
  }
  // A firm member's session is theirs in the firm, whichever client it acts in.
  const person: Person | null = actor.type === "firm_member" && actor.firmId !== null
    ? { type: "firm_member", firmId: actor.firmId, id: actor.id }
    : actor.type === "user" && actor.companyId !== null
    ? { type: "user", companyId: actor.companyId, id: actor.id }
    : null
  if (person === null) return yield* Effect.die(new Error("a session names a company person or a firm member"))
  // A console session opened with a firm key (POST /v1/firm/sessions) is the key holder's, not a
  // sign-in of the member: it never carries a step-up, and may not change the member's sign-in.
  if (person.type === "firm_member" && (actor.steppedUpAt === undefined || actor.steppedUpAt === null)) {
    return yield* Effect.fail(ApiError.fail("insufficient_scope", "Only your own browser session may do this: a console session opened with a firm key may not."))
  }
  return { request, actor, person, key: personKey(person), sessionId: actor.keyId }
})

/** The actor a public sign-in step acts as in the audit log: the person it named. */
export const personActor = (person: Person, name: string): Actor => ({
  type: person.type === "user" ? "user" : "firm_member",
  id: person.id,
  name,
  role: null,
  companyId: person.type === "user" ? person.companyId : null,
  scopes: [],
  isPerson: true,
  keyId: null,
  credentialKind: "none",
  postingThresholdCents: null,
  rateLimitRpm: null,
  firmId: person.type === "firm_member" ? person.firmId : null
})

/** Records a public step's outcome in the person's company log, or a firm member's in their firm's (hash-chained) log. */
export const auditPublic = Effect.fn("Guard.auditPublic")(function*(
  person: Person,
  name: string,
  outcome: { readonly ok: boolean; readonly status: number; readonly errorType?: string; readonly details?: Record<string, unknown> }
) {
  const request = yield* RequestContext
  if (person.type === "firm_member") {
    yield* FirmAudit.append(person.firmId, {
      action: request.operationId,
      targetType: "person",
      targetId: personKey(person),
      actor: personActor(person, name),
      details: { outcome: outcome.ok ? "ok" : "refused", status: outcome.status, error_type: outcome.errorType ?? null, ...outcome.details }
    })
    return
  }
  yield* Audit.record({
    companyId: person.companyId,
    occurredAt: request.now,
    action: request.operationId,
    outcome: outcome.ok ? "ok" : "refused",
    status: outcome.status,
    errorType: outcome.errorType ?? null,
    actor: personActor(person, name),
    targetType: "person",
    targetId: personKey(person),
    via: request.via,
    details: outcome.details ?? {}
  }).pipe(Effect.orDie)
})

/**
 * A firm member's change to their own sign-in made at the firm level has no company log for the
 * pipeline to write it in: it goes in the firm's (hash-chained) log, in the change's transaction.
 * A company person's, or a member's acting in a client, is the pipeline's to audit.
 */
export const auditFirmLevel = Effect.fn("Guard.auditFirmLevel")(function*(
  own: { readonly person: Person; readonly actor: Actor; readonly request: { readonly operationId: string } },
  note: { readonly targetType: string; readonly targetId?: string | number | null; readonly details?: Record<string, unknown> }
) {
  if (own.person.type !== "firm_member" || own.actor.companyId !== null) return
  yield* FirmAudit.append(own.person.firmId, { action: own.request.operationId, ...note })
})
