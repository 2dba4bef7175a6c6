import { Cause, Clock, Context, Effect, Exit, Layer, Result } from "effect"
import { SqlClient } from "effect/sql"
import { ApiError, Catalog, Limits, type Operation, Scope } from "@ledger/api"
import { type Actor, isAgent, reference } from "../kernel/Actor.ts"
import * as Alongside from "./Alongside.ts"
import * as Audit from "./Audit.ts"
import * as Caller from "./Caller.ts"
import { CredentialMemory } from "./batching/CredentialMemory.ts"
import type { Entropy } from "../ports/Entropy.ts"
import { EngineInfo } from "../kernel/EngineInfo.ts"
import type { Handler } from "../kernel/Handler.ts"
import { Arrival, GroupCommit } from "./batching/GroupCommit.ts"
import * as Idempotency from "./Idempotency.ts"
import * as Outbox from "./Outbox.ts"
import { RateLimiter } from "./RateLimiter.ts"
import { RequestContext, type RequestInfo } from "../kernel/RequestContext.ts"
import * as RequestDecoding from "./RequestDecoding.ts"

/** One call of one operation, from HTTP, MCP or an embedding program. */
export interface Invocation {
  readonly operationId: string
  /** Path parameters; strings from a URL are coerced by `coerce`. */
  readonly path: Record<string, unknown>
  readonly query: Record<string, unknown>
  /** The parsed JSON body; undefined when there was none. */
  readonly body: unknown
  /**
   * Why the body could not be read (too large, not JSON, not a JSON media type), when it could
   * not. The refusal comes after authentication, so a known credential's bad body is audited.
   */
  readonly unreadableBody?: ApiError.LedgerError | undefined
  /** The Bearer token, without the word Bearer. */
  readonly credential: string | null
  readonly idempotencyKey: string | null
  readonly agentModel: string | null
  readonly agentRunId: string | null
  /** `X-Ledger-Company`: the client a firm credential acts in. */
  readonly company: string | null
  readonly via: "http" | "mcp" | "engine"
  /** Path and query values are URL strings to be coerced to the schema's types. */
  readonly coerce: boolean
}

export interface Outcome {
  readonly status: number
  readonly body: unknown
  readonly headers: Readonly<Record<string, string>>
}

/** The handler of every operation, by operation id. */
export class Handlers extends Context.Service<Handlers, ReadonlyMap<string, Handler>>()("@ledger/engine/Handlers") {}

const errorOutcome = (error: ApiError.LedgerError, headers: Record<string, string> = {}): Outcome => ({
  status: error.status,
  body: error.toBody(),
  headers
})

const internalError = () => ApiError.fail("internal_error", "Something went wrong on our side. It has been logged.")

const acceptsDryRun = (operation: Operation.Any): boolean =>
  operation.governed || RequestDecoding.fieldNames(operation.body).includes("dry_run")

/**
 * How a run of the pipeline authenticates: from the pipeline's memory when it may (`recall`), else
 * by its statement. A run after a run from memory that was not answered has the rate limit's
 * headers of that run (`counted`), which already took the request from its limit.
 */
interface Authentication {
  readonly recall: boolean
  readonly counted: Readonly<Record<string, string>> | null
  /** The run from memory met its rate limit's first refusal: this run's refusal is that one, and audited. */
  readonly firstRefusal: boolean
}

const successStatus = (operation: Operation.Any): number =>
  Number(Object.keys(operation.responses).find((status) => operation.responses[Number(status)] === operation.success) ?? 200)

/**
 * The one pipeline behind HTTP, MCP and embedding, in this order: authenticate, rate limit, scope
 * (with people-only, the agent's model and the kill switch), the Idempotency-Key, the body, the
 * request's Schemas, then the handler: a read as it is, a write in one transaction with its audit
 * event and its idempotency result. Every refusal by a known credential is audited.
 *
 * Time comes from the `Clock` the layer was built with, for every request whoever runs it, so a
 * test or the testkit that provides its own clock moves keys' expiry and rate limits with it.
 */
export class Dispatcher extends Context.Service<Dispatcher, {
  readonly execute: (invocation: Invocation) => Effect.Effect<Outcome>
}>()("@ledger/engine/Dispatcher") {
  static readonly layer = Layer.effect(Dispatcher)(Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const handlers = yield* Handlers
    const rateLimiter = yield* RateLimiter
    const groupCommit = yield* GroupCommit
    const clock = yield* Clock.Clock
    const context = yield* Effect.context<SqlClient.SqlClient | Entropy | EngineInfo>()
    const tracing = Context.get(context, EngineInfo).tracing
    // API keys recently authenticated, for the writes a group commit carries (CredentialMemory.ts).
    const credentials = new CredentialMemory()

    /** Refusals by a known credential go into the company's log (spec 5.7), in their own transaction. */
    const auditRefusal = (
      actor: Actor,
      companyId: string | null,
      operation: Operation.Any,
      invocation: Invocation,
      now: string,
      error: ApiError.LedgerError
    ) =>
      companyId === null ? Effect.void : Audit.record(Audit.ofRefusal({
        actor,
        companyId,
        action: operation.id,
        agentModel: invocation.agentModel,
        agentRunId: invocation.agentRunId,
        via: invocation.via,
        now,
        error
      })).pipe(Effect.provideService(SqlClient.SqlClient, sql), Effect.orDie)

    const run = Effect.fn("Dispatcher.execute")(function*(
      received: Invocation,
      arrival: Arrival,
      authentication: Authentication
    ): Effect.fn.Return<Outcome> {
      const operation = Catalog.get(received.operationId)
      if (operation === undefined) return errorOutcome(ApiError.fail("not_found", "No such operation."))

      const nowMs = yield* Clock.currentTimeMillis
      const now = new Date(nowMs).toISOString()
      // The agent's model and run id go into the audit log only when they fit in it; otherwise
      // the request is refused below, and that refusal is recorded without them.
      const identityIssues = RequestDecoding.agentIdentityIssues(received.agentModel, received.agentRunId)
      const invocation = identityIssues.length === 0 ? received : { ...received, agentModel: null, agentRunId: null }

      // 1. Who is asking (Caller.ts). A key from memory came without its statement: only its
      // batch's statement, which checks the key, may then answer the request; any other outcome
      // runs it again from here with the key read afresh (`again`).
      const caller = yield* Caller.identify(sql, credentials, {
        operation,
        credential: invocation.credential,
        idempotencyKey: invocation.idempotencyKey,
        now,
        nowMs,
        batched: groupCommit.commitsInGroups(operation.id),
        recall: authentication.recall
      })
      const { authenticated, recalled, secretHash } = caller
      if (Result.isFailure(authenticated)) {
        const refused = authenticated.failure
        if (refused.known !== null) {
          // An ended key is refused before any rate limit, so its refusals are audited at a
          // bounded rate of their own: a leaked revoked key cannot flood the company's log.
          const budget = yield* rateLimiter.take(`ended-key:${refused.known.actor.keyId}`, Limits.endedKeyAuditsPerMinute)
          if (budget.allowed) {
            yield* auditRefusal(refused.known.actor, refused.known.company?.companyId ?? null, operation, invocation, now, refused.error)
          }
        }
        return errorOutcome(refused.error)
      }
      const actor = authenticated.success?.actor ?? null
      const company = authenticated.success?.company ?? null
      const companyId = company?.companyId ?? null
      const headers: Record<string, string> = { ...authentication.counted }
      // Set once this run takes the request from its rate limit: a run after it must not again.
      let counted = authentication.counted
      const again = (firstRefusal = false): Effect.Effect<Outcome> =>
        Effect.suspend(() => {
          if (secretHash !== null) credentials.forget(secretHash)
          return Effect.andThen(arrival.leave, attempt(received, { recall: false, counted, firstRefusal }))
        })

      const refuse = (error: ApiError.LedgerError): Effect.Effect<Outcome> =>
        recalled ? again() : Effect.as(
          actor === null ? Effect.void : auditRefusal(actor, companyId, operation, invocation, now, error),
          errorOutcome(error, headers)
        )

      // 2. Rate limit. Only the first refusal of a run of them is audited: a client past its
      // limit must not turn every refused request into a write.
      if (actor !== null && company !== null && counted === null) {
        const verdict = yield* rateLimiter.check(actor, company)
        if (Number.isFinite(verdict.limitPerMinute)) {
          headers["RateLimit-Limit"] = String(verdict.limitPerMinute)
          headers["RateLimit-Remaining"] = String(verdict.remaining)
        }
        if (!verdict.allowed) {
          headers["Retry-After"] = String(verdict.retryAfterSeconds)
          const error = ApiError.fail("rate_limited", `Rate limit of ${verdict.limitPerMinute} requests a minute reached.`, {
            limit_per_minute: verdict.limitPerMinute,
            retry_after_seconds: verdict.retryAfterSeconds
          })
          if (recalled) return yield* again(verdict.firstRefusal)
          return verdict.firstRefusal || authentication.firstRefusal ? yield* refuse(error) : errorOutcome(error, headers)
        }
        counted = { ...headers }
      }

      if (identityIssues.length > 0) return yield* refuse(ApiError.invalidRequest(identityIssues))

      // 3. Scope, people-only, agent identity, kill switch.
      if (actor !== null && operation.credential === "company") {
        if (!Scope.satisfies(actor.scopes, operation.scope)) {
          return yield* refuse(ApiError.fail("insufficient_scope", `This operation needs the ${operation.scope} scope.`, {
            required_scope: operation.scope
          }))
        }
        if (operation.peopleOnly && !actor.isPerson) {
          return yield* refuse(ApiError.fail("insufficient_scope", "Only a person may do this."))
        }
        if (operation.mode !== "R" && isAgent(actor)) {
          if (invocation.agentModel === null || invocation.agentModel.trim() === "") {
            return yield* refuse(ApiError.fail(
              "agent_model_required",
              "Agent writes must name the model in X-Agent-Model (MCP: _meta dev.ledger/model)."
            ))
          }
          if (company?.killSwitchSuspended === true) {
            return yield* refuse(ApiError.fail("kill_switch_active", "Agent writes are suspended by the company's kill switch."))
          }
        }
      }

      // 4. The Idempotency-Key, before the body: a write without a key is refused for that, even
      // when its body is wrong too. Only `dry_run: true` in the raw body exempts it.
      const dryRun = RequestDecoding.isDryRun(acceptsDryRun(operation), invocation.body)
      let idempotencyKey: string | null = null
      if (operation.mode === "K" && !dryRun) {
        if (invocation.idempotencyKey === null) {
          return yield* refuse(ApiError.fail("idempotency_key_required", "This write needs an Idempotency-Key."))
        }
        const checked = yield* Effect.result(Idempotency.checkKey(invocation.idempotencyKey))
        if (Result.isFailure(checked)) return yield* refuse(checked.failure)
        idempotencyKey = checked.success
      }

      // 5. The body, then the request against the operation's Schemas.
      if (invocation.unreadableBody !== undefined) return yield* refuse(invocation.unreadableBody)
      const decoding = RequestDecoding.decodeRequest(operation, invocation, invocation.coerce)
      if (Result.isFailure(decoding)) return yield* refuse(ApiError.invalidRequest(decoding.failure))
      const decoded = decoding.success

      // The contract above holds for every declared operation, whether or not it is served yet.
      const handler = handlers.get(operation.id)
      if (handler === undefined) {
        return recalled
          ? yield* again()
          : errorOutcome(ApiError.fail("not_found", "This operation is not available yet."), headers)
      }

      const request: RequestInfo = {
        actor: actor ?? { ...anonymous },
        companyId,
        operationId: operation.id,
        via: invocation.via,
        now,
        today: now.slice(0, 10),
        agentModel: invocation.agentModel,
        agentRunId: invocation.agentRunId,
        idempotencyKey
      }
      const defaultStatus = successStatus(operation)
      const handled = handler({ path: decoded.path, query: decoded.query, body: decoded.body }).pipe(
        Effect.provideService(RequestContext, request),
        Effect.provide(context)
      )

      // 6. Reads run as they are; writes run in one transaction with their audit event and key.
      if (recalled && (operation.mode === "R" || actor === null)) return yield* again()
      if (operation.mode === "R" || actor === null) {
        const exit = yield* Effect.exit(handled)
        if (Exit.isSuccess(exit)) return { status: exit.value.status ?? defaultStatus, body: exit.value.body, headers }
        return yield* failure(exit.cause)
      }

      const claim: Idempotency.KeyedRequest | null = idempotencyKey === null ? null : {
        tenant: companyId === null ? actor.type : `company:${companyId}`,
        principal: reference(actor),
        key: idempotencyKey,
        requestHash: Idempotency.requestHashOf(operation.id, { path: decoded.path, query: decoded.query, body: decoded.body }),
        now,
        credential: invocation.credential
      }
      const replayed = (replay: Idempotency.Replay): Outcome => ({
        status: replay.status,
        body: replay.body,
        headers: { ...headers, "Idempotent-Replayed": "true" }
      })
      // The key's record came with the credential: a finished answer to this request is replayed,
      // another request's is a conflict, both without a transaction. (A key from memory came
      // without it: its batch's statement finds the record, and the request runs again.)
      if (claim !== null && !recalled) {
        const answer = yield* Effect.result(Idempotency.answerOf(authenticated.success?.stored, claim))
        if (Result.isFailure(answer)) return yield* refuse(answer.failure)
        if (answer.success !== null) {
          if (secretHash !== null) credentials.answered(secretHash, claim.key)
          return replayed(answer.success)
        }
      }
      // A write that can commit with others waiting for the same operation does (GroupCommit.ts);
      // what its batch does not write runs alone below, as any other write.
      if (claim !== null && !dryRun && groupCommit.accepts(operation.id, decoded.body, request)) {
        const credential = authenticated.success?.apiKey ?? null
        const answer = yield* groupCommit.submit(operation.id, { request, claim, body: decoded.body, credential }, arrival)
        if (answer !== null) {
          if (secretHash !== null) credentials.answered(secretHash, claim.key)
          return { status: answer.status, body: answer.body, headers }
        }
      }
      if (recalled) return yield* again()
      yield* arrival.leave
      const transaction = Effect.gen(function*() {
        const events: Array<Outbox.PendingEvent> = []
        const result = yield* Effect.provideService(handled, Outbox.Pending, events)
        const status = result.status ?? defaultStatus
        // A dry run writes nothing, not even its audit event.
        const auditEvent = dryRun ? null : Audit.ofWrite(request, status, result.audit)
        // The audit event and the outbox events go in the statement that completes the key: one
        // round trip for all the request's closing writes.
        const closing = [
          auditEvent === null ? null : Audit.insert(sql, auditEvent),
          Outbox.insertPending(sql, events)
        ].filter((fragment) => fragment !== null)
        if (claim !== null) {
          yield* Idempotency.record(claim, status, result.body, closing)
        } else if (closing.length > 0) {
          const [first, ...rest] = closing
          yield* Alongside.statement(sql, rest, first!).pipe(Effect.orDie)
        }
        return { status, body: result.body }
      })
      const exit = yield* Effect.exit(sql.withTransaction(transaction).pipe(Effect.provide(context)))
      if (Exit.isSuccess(exit)) {
        if (secretHash !== null && claim !== null) credentials.answered(secretHash, claim.key)
        return { status: exit.value.status, body: exit.value.body, headers }
      }
      if (claim !== null) {
        // Rolled back. A concurrent duplicate that recorded its answer first answered this request.
        const settled = yield* Effect.result(Idempotency.settledElsewhere(claim).pipe(Effect.provide(context)))
        if (Result.isFailure(settled)) return yield* refuse(settled.failure)
        if (settled.success !== null) return replayed(settled.success)
        const taken = Cause.findErrorOption(exit.cause)
        if (taken._tag === "Some" && taken.value instanceof Idempotency.KeyTaken) return yield* refuse(Idempotency.inProgress())
      }
      return yield* failure(exit.cause)

      /** A refusal is the spec's error body (audited); anything else is a fault, logged in full. */
      function failure(cause: Cause.Cause<unknown>): Effect.Effect<Outcome> {
        const error = Cause.findErrorOption(cause)
        if (error._tag === "Some" && error.value instanceof ApiError.LedgerError) return refuse(error.value)
        return Effect.as(Effect.logError("Unexpected failure", cause), errorOutcome(internalError(), headers))
      }
    })

    /** One run of the pipeline; a run from memory that is not answered by its batch makes another. */
    const attempt = (invocation: Invocation, authentication: Authentication): Effect.Effect<Outcome> =>
      Effect.suspend(() => {
        // A keyed request of an operation that commits in groups is expected by its batch from now
        // until it submits or turns away (GroupCommit.Arrival).
        const arrival = invocation.idempotencyKey === null ? Arrival.none : groupCommit.arrive(invocation.operationId)
        return run(invocation, arrival, authentication).pipe(Effect.ensuring(arrival.leave))
      })

    const execute = (invocation: Invocation): Effect.Effect<Outcome> =>
      attempt(invocation, { recall: true, counted: null, firstRefusal: false }).pipe(
        Effect.provideService(Clock.Clock, clock),
        Effect.withTracerEnabled(tracing)
      )

    return Dispatcher.of({ execute })
  }))
}

const anonymous: Actor = {
  type: "user",
  id: null,
  name: "anonymous",
  role: null,
  companyId: null,
  scopes: [],
  isPerson: false,
  keyId: null,
  credentialKind: "none",
  postingThresholdCents: null,
  rateLimitRpm: null,
  firmId: null
}
