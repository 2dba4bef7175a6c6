import { Clock, Context, Effect, Layer, Result } from "effect"
import { SqlClient } from "effect/sql"
import { ApiError, Catalog } from "@ledger/api"
import type { Actor } from "../kernel/Actor.ts"
import { EngineInfo } from "../kernel/EngineInfo.ts"
import type { Handler } from "../kernel/Handler.ts"
import { RequestContext, type RequestInfo } from "../kernel/RequestContext.ts"
import * as Admission from "./Admission.ts"
import { Credentials } from "./Authenticate.ts"
import { CredentialMemory } from "./batching/CredentialMemory.ts"
import { Arrival, GroupCommit } from "./batching/GroupCommit.ts"
import * as Execution from "./Execution.ts"
import { RateLimiter } from "./RateLimiter.ts"
import * as ReadReplica from "../store/ReadReplica.ts"
import * as ReadGate from "./shedding/ReadGate.ts"
import type * as RequestDecoding from "./RequestDecoding.ts"
import {
  again,
  type Authentication,
  errorOutcome,
  type HandlerServices,
  internalError,
  type Invocation,
  type Outcome,
  type Pipeline,
  refuse,
  type Run
} from "./Run.ts"

export type { Invocation, Outcome } from "./Run.ts"

/** The handler of every operation, by operation id. */
export class Handlers extends Context.Service<Handlers, ReadonlyMap<string, Handler>>()("@ledger/engine/Handlers") {}

/**
 * The one pipeline behind HTTP, MCP and embedding, in this order (Admission.ts): authenticate,
 * rate limit, scope (with people-only, the agent's model and the kill switch), the
 * Idempotency-Key, the body, the request's Schemas; then the handler (Execution.ts): a read as it
 * is, a write in one transaction with its audit event and its idempotency result. Every refusal
 * by a known credential is audited.
 *
 * Time comes from the `Clock` the layer was built with, for every request whoever runs it, so a
 * test or the testkit that provides its own clock moves keys' expiry and rate limits with it.
 */
export class Dispatcher extends Context.Service<Dispatcher, {
  readonly execute: (invocation: Invocation) => Effect.Effect<Outcome>
  /**
   * Who is asking, and nothing more: null when the invocation's credential is accepted, else the
   * refusal to answer. HTTP asks this before reading a large body (a statement import), so no
   * caller without a valid credential can make the server read and parse megabytes (issue 19
   * item 7). The request then runs through `execute` as any other.
   */
  readonly admits: (invocation: Invocation) => Effect.Effect<Outcome | null>
}>()("@ledger/engine/Dispatcher") {
  static readonly layer = Layer.effect(Dispatcher)(Effect.gen(function*() {
    const clock = yield* Clock.Clock
    const context = yield* Effect.context<HandlerServices>()
    const tracing = Context.get(context, EngineInfo).tracing
    const pipeline: Pipeline = {
      sql: yield* SqlClient.SqlClient,
      handlers: yield* Handlers,
      rateLimiter: yield* RateLimiter,
      groupCommit: yield* GroupCommit,
      context,
      credentials: new CredentialMemory(),
      replica: yield* ReadReplica.ReadReplica,
      doors: yield* Credentials,
      attempt: (invocation, authentication) => attempt(invocation, authentication)
    }
    const run = runWith(pipeline)
    const readLimits = yield* ReadGate.ReadLimits
    const reads = ReadGate.make(readLimits)
    const shed = () => {
      const overloaded = ReadGate.overloaded(readLimits)
      return errorOutcome(overloaded.error, overloaded.headers)
    }

    /** One run of the pipeline; a run from memory that is not answered by its batch makes another. */
    const attempt = (invocation: Invocation, authentication: Authentication) =>
      Effect.suspend(() => {
        // A keyed request of an operation that commits in groups is expected by its batch from now
        // until it submits or turns away (GroupCommit.Arrival).
        const arrival = invocation.idempotencyKey === null ? Arrival.none : pipeline.groupCommit.arrive(invocation.operationId)
        return run(invocation, arrival, authentication).pipe(
          Effect.catchTag("Answered", (answered) => Effect.succeed(answered.outcome)),
          Effect.ensuring(arrival.leave)
        )
      })

    const execute = (invocation: Invocation): Effect.Effect<Outcome> => {
      const executed = attempt(invocation, { recall: true, counted: null, firstRefusal: false }).pipe(
        // The database failed outside any transaction (authentication, an audited refusal): a fault.
        Effect.catchTag("SqlError", (error) =>
          Effect.as(Effect.logError("Unexpected failure", error), errorOutcome(internalError()))),
        Effect.provideService(Clock.Clock, clock),
        Effect.withTracerEnabled(tracing)
      )
      // Reads take a turn at the read gate before any work, authentication included (ReadGate.ts).
      return Catalog.get(invocation.operationId)?.mode === "R" ? reads.admit(executed, shed) : executed
    }

    const admits = (invocation: Invocation): Effect.Effect<Outcome | null> => {
      const operation = Catalog.get(invocation.operationId)
      if (operation === undefined) return Effect.succeed(null)
      return Admission.identify(pipeline, invocation, operation, Arrival.none, { recall: false, counted: null, firstRefusal: false }).pipe(
        Effect.as(null),
        Effect.catchTag("Answered", (answered) => Effect.succeed(answered.outcome)),
        Effect.catchTag("SqlError", (error) => Effect.as(Effect.logError("Unexpected failure", error), errorOutcome(internalError()))),
        Effect.provideService(Clock.Clock, clock)
      )
    }

    return Dispatcher.of({ execute, admits })
  }))
}

/** The steps of one run, in order; each may end it (a refusal, a replay, a run again). */
const runWith = (pipeline: Pipeline) =>
  Effect.fn("Dispatcher.execute")(function*(received: Invocation, arrival: Arrival, authentication: Authentication) {
    const operation = Catalog.get(received.operationId)
    if (operation === undefined) return errorOutcome(ApiError.fail("not_found", "No such operation."))
    const run = yield* Admission.identify(pipeline, received, operation, arrival, authentication)
    yield* Admission.rateLimit(pipeline, run)
    const refusal = Admission.authorization(run) ?? (yield* Admission.guardWrites(pipeline, run))
    if (refusal !== null) return yield* refuse(pipeline, run, refusal)
    const dryRun = Admission.isDryRun(run)
    const idempotencyKey = Admission.idempotencyKey(run, dryRun)
    if (Result.isFailure(idempotencyKey)) return yield* refuse(pipeline, run, idempotencyKey.failure)
    const decoded = Admission.decode(run)
    if (Result.isFailure(decoded)) return yield* refuse(pipeline, run, decoded.failure)

    // The contract above holds for every declared operation, whether or not it is served yet.
    const handler = pipeline.handlers.get(operation.id)
    if (handler === undefined) {
      return run.recalled
        ? yield* again(pipeline, run)
        : errorOutcome(ApiError.fail("not_found", "This operation is not available yet."), run.headers)
    }
    const work = workOf(pipeline, run, handler, decoded.success, idempotencyKey.success, dryRun)
    if (operation.mode === "R" || run.actor === null) return yield* Execution.read(pipeline, run, work)
    // Told once the write is over, committed or not (a failure may have committed): the company's
    // next reports wait for the replica to replay past it (ADR 2410).
    return yield* Execution.write(pipeline, run, work).pipe(
      Effect.ensuring(Effect.sync(() => {
        if (!dryRun) pipeline.replica.wrote(run.company?.companyId ?? null)
      })))
  })

/** The handler's Effect for the request, with the request's context and the layer's services. */
const workOf = (
  pipeline: Pipeline,
  run: Run,
  handler: Handler,
  decoded: RequestDecoding.Decoded,
  idempotencyKey: string | null,
  dryRun: boolean
): Execution.Work => {
  const request: RequestInfo = {
    actor: run.actor ?? { ...anonymous },
    companyId: run.company?.companyId ?? null,
    operationId: run.operation.id,
    via: run.invocation.via,
    now: run.now,
    today: run.now.slice(0, 10),
    agentModel: run.invocation.agentModel,
    agentRunId: run.invocation.agentRunId,
    idempotencyKey,
    killSwitchSuspended: run.company?.killSwitchSuspended === true,
    clientAddress: run.invocation.clientAddress ?? null,
    raw: run.operation.rawBody ? run.invocation.raw : undefined
  }
  const provided = <A, E>(effect: Effect.Effect<A, E, HandlerServices | RequestContext>) =>
    effect.pipe(Effect.provideService(RequestContext, request), Effect.provide(pipeline.context))
  const input = { path: decoded.path, query: decoded.query, body: decoded.body }
  const handled = provided(handler(input))
  // A write in steps (kernel/Handler.ts): its steps, then its last step, each with the request's services.
  const inSteps = handler.inSteps === undefined ? undefined : provided(Effect.map(handler.inSteps(input), provided))
  return { request, decoded, handled, dryRun, ...(inSteps === undefined ? {} : { inSteps }) }
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
