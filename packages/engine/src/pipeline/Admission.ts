import { Clock, Context, Effect, Result } from "effect"
import { SqlClient, type SqlError } from "effect/sql"
import { ApiError, Limits, type Operation, Scope } from "@ledger/api"
import { isAgent } from "../kernel/Actor.ts"
import { Registry } from "../kernel/Registry.ts"
import type { Arrival } from "./batching/GroupCommit.ts"
import * as Authenticate from "./Authenticate.ts"
import * as Idempotency from "./Idempotency.ts"
import * as RequestDecoding from "./RequestDecoding.ts"
import {
  again,
  answer,
  Answered,
  type Authentication,
  auditRefusal,
  errorOutcome,
  type Invocation,
  type Pipeline,
  refuse,
  type Run
} from "./Run.ts"

/**
 * The checks before the handler, in the order of docs/decisions/0007-request-pipeline-order.md:
 * who is asking, the rate limit, the caller's identity fields, scope (people-only, the agent's
 * model, the kill switch), the Idempotency-Key, then the body and the request's Schemas. A step
 * that ends the run fails with `Answered`; the checks that need no I/O return their refusal.
 */

/**
 * 1. Who is asking (Authenticate.identify). A key from memory came without its statement: only its batch's
 * statement, which checks the key, may then answer the request; any other outcome runs it again
 * from the start with the key read afresh (`again`). A credential refused is answered here; an
 * ended key's refusal is audited at a bounded rate of its own, before any rate limit, so a leaked
 * revoked key cannot flood the company's log.
 */
export const identify = Effect.fnUntraced(function*(
  pipeline: Pipeline,
  received: Invocation,
  operation: Operation.Any,
  arrival: Arrival,
  authentication: Authentication
): Effect.fn.Return<Run, Answered | SqlError.SqlError> {
  const nowMs = yield* Clock.currentTimeMillis
  const now = new Date(nowMs).toISOString()
  // The agent's model and run id go into the audit log only when they fit in it; otherwise the
  // request is refused (`authorization`), and that refusal is recorded without them.
  const identityIssues = RequestDecoding.agentIdentityIssues(received.agentModel, received.agentRunId)
  const invocation = identityIssues.length === 0 ? received : { ...received, agentModel: null, agentRunId: null }
  // Failed authentications are counted per address and refused past their limit (answerRefused);
  // a valid credential is served whatever the address got wrong before, so an attacker behind a
  // shared address cannot lock out the others behind it (issue 41 item 4, ADR 2300).
  const failures = failedAuthenticationAddress(operation, invocation)
  const caller = yield* Authenticate.identify(pipeline.sql, pipeline.credentials, pipeline.doors, {
    operation,
    credential: invocation.credential,
    idempotencyKey: invocation.idempotencyKey,
    company: invocation.company,
    now,
    nowMs,
    batched: pipeline.groupCommit.commitsInGroups(operation.id),
    recall: authentication.recall
  })
  if (Result.isFailure(caller.authenticated)) {
    return yield* answerRefused(pipeline, { operation, invocation, now }, failures, caller.authenticated.failure)
  }
  const authenticated = caller.authenticated.success
  yield* refuseOtherCompany(pipeline, { operation, invocation, now }, authenticated)
  return {
    received,
    invocation,
    identityIssues,
    operation,
    now,
    arrival,
    authentication,
    recalled: caller.recalled,
    secretHash: caller.secretHash,
    authenticated,
    actor: authenticated?.actor ?? null,
    company: authenticated?.company ?? null,
    headers: { ...authentication.counted },
    counted: authentication.counted
  }
})

type Asked = Parameters<typeof auditRefusal>[1]

/**
 * A credential refused: counted against the address when it was no known credential, in the
 * database so every replica shares the count, and answered 429 past the limit, so guessing costs a
 * minute per few dozen tries (issue 19 item 7); an ended key's refusal audited at a bounded rate of
 * its own, so a leaked revoked key cannot flood the log.
 */
const answerRefused = (pipeline: Pipeline, asked: Asked, failures: string | null, refused: Authenticate.Refused) =>
  Effect.gen(function*() {
    if (failures !== null && refused.known === null) {
      const counted = yield* pipeline.rateLimiter.failedAuthentication(pipeline.sql, failures)
      if (!counted.allowed) return yield* Effect.fail(new Answered(tooManyFailures(counted.retryAfterSeconds)))
    }
    if (refused.known !== null) {
      const budget = yield* pipeline.rateLimiter.take(`ended-key:${refused.known.actor.keyId}`, Limits.endedKeyAuditsPerMinute)
      if (budget.allowed) {
        const companyId = refused.known.company?.companyId ?? null
        yield* auditRefusal(pipeline, asked, refused.known.actor, companyId, refused.error)
      }
    }
    return yield* Effect.fail(new Answered(errorOutcome(refused.error)))
  })

/**
 * `X-Ledger-Company` chooses the client of a firm credential (or of a firm's AI connection). A
 * credential of one company that names another is a mistake to say out loud, never to ignore: the
 * caller believes it is writing in the company it named (issue 19 item 5).
 */
const refuseOtherCompany = (pipeline: Pipeline, asked: Asked, authenticated: Authenticate.Authenticated | null) =>
  Effect.gen(function*() {
    const named = asked.invocation.company
    if (named === null || authenticated === null || authenticated.actor.firmId !== null || authenticated.company === null) return
    if (named === authenticated.company.companyId) return
    const error = ApiError.fail(
      "invalid_request",
      "X-Ledger-Company names another company than this credential's own; a company credential acts only in its company.",
      { header: "X-Ledger-Company" }
    )
    yield* auditRefusal(pipeline, asked, authenticated.actor, authenticated.company.companyId, error)
    return yield* Effect.fail(new Answered(errorOutcome(error)))
  })

/** The address whose failed authentications count, for an operation that takes a credential. */
const failedAuthenticationAddress = (operation: Operation.Any, invocation: Invocation): string | null =>
  operation.credential === "none" || invocation.clientAddress === undefined || invocation.clientAddress === null
    ? null
    : invocation.clientAddress.slice(0, 100)

const tooManyFailures = (retryAfterSeconds: number) =>
  errorOutcome(
    ApiError.fail("rate_limited", "Too many failed authentications from this address: wait before trying again.", {
      limit_per_minute: Limits.failedAuthenticationsPerAddressPerMinute,
      retry_after_seconds: retryAfterSeconds
    }),
    { "Retry-After": String(retryAfterSeconds) }
  )

/**
 * 2. The rate limit, once per request (a run again was counted by the run before it). Only the
 * first refusal of a run of them is audited: a client past its limit must not turn every refused
 * request into a write.
 */
export const rateLimit = Effect.fnUntraced(function*(pipeline: Pipeline, run: Run): Effect.fn.Return<void, Answered | SqlError.SqlError> {
  if (run.actor === null || run.counted !== null) return
  // Firm credentials are limited at the firm level too (their own bucket; ADR 0903).
  if (run.company === null && run.actor.firmId === null) return
  const verdict = yield* pipeline.rateLimiter.check(run.actor, run.company)
  if (Number.isFinite(verdict.limitPerMinute)) {
    run.headers["RateLimit-Limit"] = String(verdict.limitPerMinute)
    run.headers["RateLimit-Remaining"] = String(verdict.remaining)
  }
  if (!verdict.allowed) {
    run.headers["Retry-After"] = String(verdict.retryAfterSeconds)
    const error = ApiError.fail("rate_limited", `Rate limit of ${verdict.limitPerMinute} requests a minute reached.`, {
      limit_per_minute: verdict.limitPerMinute,
      retry_after_seconds: verdict.retryAfterSeconds
    })
    if (run.recalled) return yield* answer(again(pipeline, run, verdict.firstRefusal))
    if (verdict.firstRefusal || run.authentication.firstRefusal) return yield* answer(refuse(pipeline, run, error))
    return yield* Effect.fail(new Answered(errorOutcome(error, run.headers)))
  }
  run.counted = { ...run.headers }
})

/**
 * 3. and 4. The caller's identity fields, then scope, people-only, signed-in, and for an agent's write its
 * model and the company's kill switch: the refusal, or null.
 */
export const authorization = (run: Run): ApiError.LedgerError | null => {
  if (run.identityIssues.length > 0) return ApiError.invalidRequest(run.identityIssues)
  const { actor, operation } = run
  if (actor === null || operation.credential !== "company") return null
  if (!Scope.satisfies(actor.scopes, operation.scope)) {
    return ApiError.fail("insufficient_scope", `This operation needs the ${operation.scope} scope.`, {
      required_scope: operation.scope
    })
  }
  if (operation.peopleOnly && !actor.isPerson) return ApiError.fail("insufficient_scope", "Only a person may do this.")
  // For a person signed in (DECISIONS "People-only and signed-in operations"): a key, the owner's
  // included, cannot step up (concepts 5.5), so only the person's own session may call it.
  if (operation.signedIn && actor.credentialKind !== "session") {
    return ApiError.fail("session_required", "Only the person's own signed-in browser session may do this: sign in to the web app (an API key is refused).", {
      sign_in: "/v1/auth/email-links"
    })
  }
  if (operation.mode === "R" || !isAgent(actor)) return null
  if (run.invocation.agentModel === null || run.invocation.agentModel.trim() === "") {
    return ApiError.fail(
      "agent_model_required",
      "Agent writes must name the model in X-Agent-Model (MCP: _meta dev.ledger/model)."
    )
  }
  // A governed dry run under the kill switch is answered: its preview's verdict is the refusal.
  if (run.company?.killSwitchSuspended === true && !(operation.governed && isDryRun(run))) {
    const whose = run.company.killSwitchOfFirm === true ? "firm's" : "company's"
    return ApiError.fail("kill_switch_active", `Agent writes are suspended by the ${whose} kill switch.`)
  }
  return null
}

/**
 * 4b. What areas refuse of a company's writes whatever the caller (kernel/Registry.ts `WriteGuard`:
 * billing's read-only books): asked for every write by a company credential, dry runs included,
 * once its scope passed, before its key and body; the first refusal, or null. Reads never ask.
 */
export const guardWrites = Effect.fnUntraced(function*(pipeline: Pipeline, run: Run): Effect.fn.Return<ApiError.LedgerError | null> {
  if (run.operation.mode === "R" || run.operation.credential !== "company" || run.company === null || run.actor === null) return null
  const guards = Context.get(pipeline.context, Registry).writeGuards ?? []
  for (const guard of guards) {
    const refusal = yield* guard({ companyId: run.company.companyId, operation: run.operation, nowMs: Date.parse(run.now) }).pipe(
      Effect.provideService(SqlClient.SqlClient, pipeline.sql)
    )
    if (refusal !== null) return refusal
  }
  return null
})

const acceptsDryRun = (operation: Operation.Any): boolean =>
  operation.governed || RequestDecoding.fieldNames(operation.body).includes("dry_run")

/** `dry_run: true` in the raw body of an operation that takes it: no key needed, nothing written. */
export const isDryRun = (run: Run): boolean => RequestDecoding.isDryRun(acceptsDryRun(run.operation), run.invocation.body)

/**
 * 5. The Idempotency-Key, before the body: a write without a key is refused for that, even when
 * its body is wrong too. Only `dry_run: true` in the raw body exempts it. The valid key of a keyed
 * write, else null.
 */
export const idempotencyKey = (run: Run, dryRun: boolean): Result.Result<string | null, ApiError.LedgerError> => {
  if (run.operation.mode !== "K" || dryRun) return Result.succeed(null)
  const key = run.invocation.idempotencyKey
  if (key === null) return Result.fail(ApiError.fail("idempotency_key_required", "This write needs an Idempotency-Key."))
  return Idempotency.isValidKey(key) ? Result.succeed(key) : Result.fail(Idempotency.invalidKey())
}

/** 6. and 7. The body as read, then the request against the operation's Schemas. */
export const decode = (run: Run): Result.Result<RequestDecoding.Decoded, ApiError.LedgerError> => {
  if (run.invocation.unreadableBody !== undefined) return Result.fail(run.invocation.unreadableBody)
  const decoding = RequestDecoding.decodeRequest(run.operation, run.invocation, run.invocation.coerce)
  return Result.isFailure(decoding) ? Result.fail(ApiError.invalidRequest(decoding.failure)) : Result.succeed(decoding.success)
}
