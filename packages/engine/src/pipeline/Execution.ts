import { Cause, Duration, Effect, Exit, Result, Schedule } from "effect"
import type { SqlError } from "effect/sql"
import { ApiError, type Operation } from "@ledger/api"
import { reference } from "../kernel/Actor.ts"
import { Faults } from "../kernel/Faults.ts"
import type { Result as HandlerResult } from "../kernel/Handler.ts"
import type { RequestInfo } from "../kernel/RequestContext.ts"
import * as DatabaseError from "../store/DatabaseError.ts"
import * as Alongside from "./Alongside.ts"
import * as Audit from "./Audit.ts"
import * as Idempotency from "./Idempotency.ts"
import * as Outbox from "./Outbox.ts"
import type * as RequestDecoding from "./RequestDecoding.ts"
import { again, errorOutcome, internalError, type Outcome, type Pipeline, refuse, type Run } from "./Run.ts"

/**
 * 8. The handler, once every check passed: a read as it is; a write in one transaction with its
 * audit event, outbox events and idempotency record, or in a batch of its operation's writes
 * (GroupCommit.ts), or answered by the record its key already holds.
 */

/** The handler's Effect for this request, ready to run, and what the write needs besides. */
export interface Work {
  readonly request: RequestInfo
  readonly decoded: RequestDecoding.Decoded
  readonly handled: Effect.Effect<HandlerResult, ApiError.LedgerError>
  readonly dryRun: boolean
  /**
   * A write in steps (kernel/Handler.ts `makeInSteps`): run outside any transaction, its steps
   * commit on their own; the last step it returns runs as `handled` would.
   */
  readonly inSteps?: Effect.Effect<Effect.Effect<HandlerResult, ApiError.LedgerError>, ApiError.LedgerError>
}

export const successStatus = (operation: Operation.Any): number =>
  Number(Object.keys(operation.responses).find((status) => operation.responses[Number(status)] === operation.success) ?? 200)

/** A read, or a request of no one's (an operation that takes no credential): run as it is. */
export const read = (pipeline: Pipeline, run: Run, work: Work): Effect.Effect<Outcome, SqlError.SqlError> =>
  run.recalled ? again(pipeline, run) : Effect.flatMap(Effect.exit(work.handled), (exit) =>
    Exit.isSuccess(exit)
      ? Effect.succeed({ status: exit.value.status ?? successStatus(run.operation), body: exit.value.body, headers: run.headers })
      : settle(pipeline, run, exit.cause))

/** The key's record as the claim of this request on it: scoped to the tenant and the principal. */
const claimOf = (run: Run, work: Work): Idempotency.KeyedRequest | null => {
  const { actor, invocation } = run
  if (work.request.idempotencyKey === null || actor === null) return null
  const companyId = run.company?.companyId ?? null
  return {
    tenant: companyId === null ? actor.type : `company:${companyId}`,
    principal: reference(actor),
    key: work.request.idempotencyKey,
    requestHash: Idempotency.requestHashOf(run.operation.id, work.decoded),
    now: run.now,
    credential: invocation.credential
  }
}

const replayed = (run: Run, replay: Idempotency.Replay): Outcome => ({
  status: replay.status,
  body: replay.body,
  headers: { ...run.headers, "Idempotent-Replayed": "true" }
})

const answered = (pipeline: Pipeline, run: Run, claim: Idempotency.KeyedRequest | null): void => {
  if (run.secretHash !== null && claim !== null) pipeline.credentials.answered(run.secretHash, claim.key)
}

/**
 * A write: answered by its key's record when that came with the credential, else in a batch when
 * its operation commits in groups and the batch takes it, else alone in its own transaction.
 */
export const write = Effect.fnUntraced(function*(pipeline: Pipeline, run: Run, work: Work): Effect.fn.Return<Outcome, SqlError.SqlError> {
  const claim = claimOf(run, work)
  // The key's record came with the credential: a finished answer to this request is replayed,
  // another request's is a conflict, both without a transaction. (A key from memory came
  // without it: its batch's statement finds the record, and the request runs again.)
  if (claim !== null && !run.recalled) {
    const stored = yield* Effect.result(Idempotency.answerOf(run.authenticated?.stored, claim))
    if (Result.isFailure(stored)) return yield* refuse(pipeline, run, stored.failure)
    if (stored.success !== null) {
      answered(pipeline, run, claim)
      return replayed(run, stored.success)
    }
  }
  // A write that can commit with others waiting for the same operation does (GroupCommit.ts);
  // what its batch does not write runs alone below, as any other write.
  if (claim !== null && !work.dryRun && pipeline.groupCommit.accepts(run.operation.id, work.decoded.body, work.request)) {
    // A company key's state, or a firm credential's in its client: the batch's statement re-checks it.
    const credential = run.authenticated?.apiKey ?? run.authenticated?.firmCredential ?? null
    const item = { request: work.request, claim, body: work.decoded.body, credential }
    const batched = yield* pipeline.groupCommit.submit(run.operation.id, item, run.arrival)
    if (batched !== null) {
      answered(pipeline, run, claim)
      return { status: batched.status, body: batched.body, headers: run.headers }
    }
  }
  if (run.recalled) return yield* again(pipeline, run)
  yield* run.arrival.leave
  const exit = yield* Effect.exit(work.inSteps === undefined
    ? retryingTransient(alone(pipeline, run, work, claim))
    : Effect.flatMap(work.inSteps, (last) => retryingTransient(alone(pipeline, run, { ...work, handled: last }, claim))))
  if (Exit.isSuccess(exit)) {
    answered(pipeline, run, claim)
    if (!work.dryRun) yield* (yield* Faults).afterCommit
    return { status: exit.value.status, body: exit.value.body, headers: run.headers }
  }
  return yield* rolledBack(pipeline, run, claim, exit.cause)
})

/**
 * The write in a transaction of its own: the handler, then its audit event and outbox events in
 * the statement that completes its key (one round trip for all its closing writes).
 */
const alone = (pipeline: Pipeline, run: Run, work: Work, claim: Idempotency.KeyedRequest | null) => {
  const { sql } = pipeline
  const transaction = Effect.gen(function*() {
    const events: Array<Outbox.PendingEvent> = []
    const result = yield* Effect.provideService(work.handled, Outbox.Pending, events)
    const status = result.status ?? successStatus(run.operation)
    // A dry run writes nothing, not even its audit event.
    const auditEvent = work.dryRun ? null : Audit.ofWrite(work.request, status, result.audit)
    const closing = [
      auditEvent === null ? null : Audit.insert(sql, auditEvent),
      Outbox.insertPending(sql, events)
    ].filter((fragment) => fragment !== null)
    if (claim !== null) {
      yield* Idempotency.record(claim, status, result.body, closing)
    } else if (closing.length > 0) {
      const [first, ...rest] = closing
      yield* Alongside.statement(sql, rest, first!)
    }
    if (!work.dryRun) yield* (yield* Faults).beforeCommit
    return { status, body: result.body }
  })
  return sql.withTransaction(transaction).pipe(Effect.provide(pipeline.context))
}

/** How many times, at most, a write's transaction runs when the database asks for it to run again. */
export const transactionAttemptsMax = 5

/**
 * The waits before the third and later runs: 10 ms doubling (10, 20, 40), each jittered by ±20%
 * so that the transactions that met do not meet again; on the Clock. The second run follows the
 * first at once: the transaction it met has gone on (a deadlock's victim was this one).
 */
const transientRetries = Schedule.exponential(Duration.millis(10)).pipe(
  Schedule.jittered,
  Schedule.upTo({ times: transactionAttemptsMax - 2 })
)

/** The write's last transaction failed as a serialization failure or a deadlock: the database was too busy. */
export class Contended {
  readonly _tag = "Contended"
  constructor(readonly cause: Cause.Cause<unknown>) {}
}

/**
 * Whether a failed transaction may be run again as a whole: a serialization failure (40001) or a
 * deadlock (40P01) anywhere in it, whether a handler let it through as an error or as a defect.
 * PostgreSQL rolled all of it back, so nothing of it is kept.
 */
export const isTransient = (cause: Cause.Cause<unknown>): boolean =>
  cause.reasons.some((reason) => {
    const error: unknown = Cause.isFailReason(reason) ? reason.error : Cause.isDieReason(reason) ? reason.defect : undefined
    return DatabaseError.isTransient(error) || DatabaseError.isTransient((error as { cause?: unknown } | undefined)?.cause)
  })

/**
 * Runs `transaction` again, whole, while it fails transiently (`isTransient`), up to
 * `transactionAttemptsMax` runs in all; then fails with `Contended`. A first run that succeeds or
 * fails otherwise costs nothing more than itself: the retries are set up on a transient failure.
 */
export const retryingTransient = <A, E, R>(transaction: Effect.Effect<A, E, R>): Effect.Effect<A, E | Contended, R> => {
  const contended = (cause: Cause.Cause<E>): Effect.Effect<never, E | Contended> =>
    isTransient(cause) ? Effect.fail(new Contended(cause)) : Effect.failCause(cause)
  const again = Effect.catchCause(transaction, contended).pipe(Effect.retry(transientRetries))
  return Effect.catchCause(transaction, (cause): Effect.Effect<A, E | Contended, R> => isTransient(cause) ? again : Effect.failCause(cause))
}

/**
 * The write rolled back. A concurrent duplicate that recorded its answer first answered this
 * request, or holds the key with another request's answer; a duplicate still running holds it.
 */
const rolledBack = Effect.fnUntraced(function*(
  pipeline: Pipeline,
  run: Run,
  claim: Idempotency.KeyedRequest | null,
  cause: Cause.Cause<unknown>
): Effect.fn.Return<Outcome, SqlError.SqlError> {
  if (claim !== null) {
    const settled = yield* Effect.result(Idempotency.settledElsewhere(claim).pipe(Effect.provide(pipeline.context)))
    if (Result.isFailure(settled)) {
      if (settled.failure instanceof ApiError.LedgerError) return yield* refuse(pipeline, run, settled.failure)
      return yield* Effect.fail(settled.failure)
    }
    if (settled.success !== null) return replayed(run, settled.success)
    const taken = Cause.findErrorOption(cause)
    if (taken._tag === "Some" && taken.value instanceof Idempotency.KeyTaken) return yield* refuse(pipeline, run, Idempotency.inProgress())
  }
  return yield* settle(pipeline, run, cause)
})

/** What a caller is told of a write the database kept refusing as contended: retry it shortly, same key. */
export const contendedError = () =>
  ApiError.fail("service_unavailable", "The database is too busy for this write now; retry it shortly with the same Idempotency-Key.")

/**
 * A failure as the caller sees it: a refusal is the spec's error body (audited); a transaction
 * the database kept refusing as contended is a 503 to retry shortly (the SDK does, with the same
 * key); anything else is a fault, logged in full, and a 500 that says nothing of the inside.
 */
export const settle = (pipeline: Pipeline, run: Run, cause: Cause.Cause<unknown>): Effect.Effect<Outcome, SqlError.SqlError> => {
  const error = Cause.findErrorOption(cause)
  if (error._tag === "Some" && error.value instanceof ApiError.LedgerError) return refuse(pipeline, run, error.value)
  if (error._tag === "Some" && error.value instanceof Contended) {
    return Effect.as(
      Effect.logWarning(`A write's transaction was contended ${transactionAttemptsMax} times in a row`, error.value.cause),
      errorOutcome(contendedError(), { ...run.headers, "Retry-After": "1" })
    )
  }
  return Effect.as(Effect.logError("Unexpected failure", cause), errorOutcome(internalError(), run.headers))
}
