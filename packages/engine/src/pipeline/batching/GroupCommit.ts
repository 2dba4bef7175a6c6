import { Cause, Context, Deferred, Effect, Exit, Fiber, Layer, Metric, Queue, type Scope } from "effect"
import { SqlClient } from "effect/sql"
import type { CredentialState, KeyedRequest } from "../authenticate/Credential.ts"
import type { Entropy } from "../../ports/Entropy.ts"
import { Faults } from "../../kernel/Faults.ts"
import type { RequestInfo } from "../../kernel/RequestContext.ts"

/**
 * GROUP COMMIT: concurrent keyed writes of one operation committed together, by a few statements
 * and one transaction, instead of a transaction of several statements each
 * (docs/decisions/0705-group-commit.md).
 *
 * A write's cost was mostly per statement (a socket write and a wake-up of the other process on
 * each side, and PostgreSQL's per-statement work), not per row. So the Dispatcher hands a write it
 * has authenticated, authorised and decoded to this service when its operation has a batch
 * writer; a worker takes whatever writes of that operation are waiting (at least one, at most
 * `batchSizeMax`), and the writer carries them all out in one statement, its own transaction: each
 * change with its own audit event, outbox events and idempotency record, as the Dispatcher would
 * have written them.
 *
 * Nothing waits to fill a batch: a batch is what arrived while the previous one was committing,
 * and what the requests then on their way bring within a millisecond (`lingerMilliseconds`), so a
 * lone request commits at once and a busy server commits many per round trip.
 *
 * What a batch does not write alone, the request's usual path does: the writer answers null for
 * any write that is not the plain case (a refusal, a proposal, a locked period, a key used twice in
 * the batch), and if the batch's statement fails for any reason (a key a concurrent duplicate
 * took first, a deadlock, a defect), nothing of it stays and every write of it runs alone. A
 * change is therefore never half written, and never answered differently from the usual path.
 */

/** One write waiting for its batch. */
export interface Item {
  readonly request: RequestInfo
  readonly claim: KeyedRequest
  /** The decoded body. */
  readonly body: unknown
  /**
   * The API key the request was authenticated with, in the state authentication found it (or the
   * pipeline remembered it in: CredentialMemory.ts). A writer's statement counts the keys still in
   * that state and refuses itself when one is not (`Authenticate.currentCredentialsCount`).
   */
  readonly credential: CredentialState | null
}

/** What a batched write answers: the status and body its usual path would have answered. */
export interface Answer {
  readonly status: number
  readonly body: unknown
}

/** The batch form of one operation's write. */
export interface BatchWriter {
  /** Whether a request may go into a batch at all, from its body and context alone (pure). */
  readonly accepts: (body: unknown, request: RequestInfo) => boolean
  /**
   * Writes the items it can and answers each: its answer, or null when that item is to run alone
   * (nothing of it written). It runs on a connection of its own, outside any transaction, so it
   * must make its writes atomic itself: one statement, which PostgreSQL runs as one transaction.
   * A failure means nothing of the batch was written.
   */
  readonly write: (
    items: ReadonlyArray<Item>
  ) => Effect.Effect<ReadonlyArray<Answer | null>, unknown, SqlClient.SqlClient | Entropy>
}

/** The most writes one batch commits: bounds a batch's statements (about 20 parameters' worth of JSON each). */
export const batchSizeMax = 128

/** Writes per group-commit statement, by operation: the `/metrics` histogram operators read. */
const batchSizes = Metric.histogram("ledger_group_commit_batch_size", {
  description: "Writes carried out by one group-commit statement, by operation.",
  boundaries: [1, 2, 4, 8, 16, 32, 64, 128]
})

/**
 * What a batch leaves behind: a warning when it failed (its writes then run alone), its size in
 * `/metrics`, from which operators read whether batching pays off (all 1s: requests arrive one by
 * one and the linger is pure cost; issue 20 item 7), and a reliability test's crash point once it
 * committed with nobody answered yet (kernel/Faults.ts).
 */
const observeBatch = (operationId: string, size: number, exit: Exit.Exit<unknown, unknown>) =>
  Effect.gen(function*() {
    if (Exit.isFailure(exit) && Cause.hasDies(exit.cause)) {
      yield* Effect.logWarning("A group commit failed; its writes run alone", exit.cause)
    }
    yield* Metric.update(Metric.withAttributes(batchSizes, { operation: operationId }), size)
    if (Exit.isSuccess(exit)) yield* (yield* Faults).afterCommit
  })

/**
 * A request of a batched operation on its way to a batch (authenticating, decoding). It leaves
 * the way when it is queued (`submit`) or turns away (`leave`); leaving twice is leaving once.
 */
export class Arrival {
  /** A request no batch waits for: of an operation that does not commit in groups, or unkeyed. */
  static readonly none = new Arrival(null)

  #left = false

  constructor(private readonly lane: Lane | null) {
    if (lane !== null) lane.onTheWay++
  }

  /** Turned away: the last request on the way wakes a batch waiting for it. */
  readonly leave: Effect.Effect<void> = Effect.sync(() => this.depart(true))

  /** Gone from the way; `wake` when it did not join the queue (joining it wakes a batch already). */
  depart(wake: boolean): void {
    if (this.#left || this.lane === null) return
    this.#left = true
    this.lane.onTheWay--
    if (this.lane.onTheWay === 0 && wake) Queue.offerUnsafe(this.lane.queue, wakeUp)
  }
}

/**
 * How long a batch may wait, at most, for requests still on their way: it starts with what is
 * queued, then takes what the requests on their way bring while any are on their way, for at most
 * this long. Under load a batch then holds every concurrent request instead of half of them (the
 * other half still authenticating while it commits): 16 concurrent posters went from about 2,300
 * to about 2,850 postings a second. A lone request has nobody on its way and waits for nobody.
 */
export const lingerMilliseconds = 1

export class GroupCommit extends Context.Service<GroupCommit, {
  /** A keyed request of `operationId` has started (see `Arrival`). */
  readonly arrive: (operationId: string) => Arrival
  /** Whether requests of this operation may go through a batch at all. */
  readonly commitsInGroups: (operationId: string) => boolean
  /** Whether this request of this operation goes through a batch. */
  readonly accepts: (operationId: string, body: unknown, request: RequestInfo) => boolean
  /**
   * Commits the write in a batch and answers it, or answers null when it is to run alone. The
   * request's `arrival` leaves once it is queued.
   */
  readonly submit: (operationId: string, item: Item, arrival: Arrival) => Effect.Effect<Answer | null>
}>()("@ledger/engine/GroupCommit") {
  /**
   * The writers `makeWriters` makes, by operation id. One batch of an operation is under way at a
   * time: two at once were measured no faster (each half the size, and more CPU per posting), and
   * one at a time never waits on another's row locks (the totals of accounts both touch).
   */
  static readonly layer = (
    makeWriters: () => ReadonlyMap<string, BatchWriter>
  ): Layer.Layer<GroupCommit, never, SqlClient.SqlClient | Entropy> =>
    Layer.effect(GroupCommit)(Effect.gen(function*() {
      // Made with the layer: a writer may remember things between its batches, for this engine only.
      const writers = makeWriters()
      const sql = yield* SqlClient.SqlClient
      const context = yield* Effect.context<SqlClient.SqlClient | Entropy>()
      const lanes = new Map<string, Lane>()

      for (const [operationId, writer] of writers) lanes.set(operationId, yield* startLane(operationId, writer, sql, context))

      return GroupCommit.of({
        arrive: (operationId) => {
          const lane = lanes.get(operationId)
          return lane === undefined ? Arrival.none : new Arrival(lane)
        },
        commitsInGroups: (operationId) => lanes.has(operationId),
        accepts: (operationId, body, request) => {
          const lane = lanes.get(operationId)
          return lane !== undefined && lane.writer.accepts(body, request)
        },
        submit: (operationId, item, arrival) => {
          const lane = lanes.get(operationId)
          if (lane === undefined) return Effect.as(arrival.leave, null)
          return Effect.gen(function*() {
            const answer = yield* Deferred.make<Answer | null>()
            yield* Queue.offer(lane.queue, { item, answer })
            // Queued first, then gone from the way: a batch waiting for this request finds it.
            yield* Effect.sync(() => arrival.depart(false))
            return yield* Deferred.await(answer)
          })
        }
      })
    }))

  /** No batches: every write runs alone. */
  static readonly layerOff: Layer.Layer<GroupCommit> = Layer.succeed(GroupCommit)(GroupCommit.of({
    arrive: () => Arrival.none,
    commitsInGroups: () => false,
    accepts: () => false,
    submit: (_operationId, _item, arrival) => Effect.as(arrival.leave, null)
  }))
}

/** One operation's batches: its writer, its queue, and how many of its requests are on their way. */
interface Lane {
  readonly writer: BatchWriter
  readonly queue: Queue.Queue<Waiting | WakeUp>
  onTheWay: number
}

/**
 * What the last request on its way puts in the queue when it turns away, and the linger when it
 * ends: a waiting batch then looks again whether to go on waiting.
 */
const wakeUp = Symbol.for("@ledger/engine/GroupCommit/wakeUp")
type WakeUp = typeof wakeUp
const isWaiting = (entry: Waiting | WakeUp): entry is Waiting => entry !== wakeUp

interface Waiting {
  readonly item: Item
  readonly answer: Deferred.Deferred<Answer | null>
}

/**
 * Starts one operation's lane: its queue and the worker that commits what waits there, one batch
 * at a time, for as long as the layer lives. Built once per operation, when the layer is; nothing
 * here runs per request.
 */
const startLane = (
  operationId: string,
  writer: BatchWriter,
  sql: SqlClient.SqlClient,
  context: Context.Context<SqlClient.SqlClient | Entropy>
): Effect.Effect<Lane, never, Scope.Scope> =>
  Effect.gen(function*() {
    const queue = yield* Queue.unbounded<Waiting | WakeUp>()
    const lane: Lane = { writer, queue, onTheWay: 0 }
    const take = (most: number) => Effect.map(Queue.takeBetween(queue, 1, most), (taken) => taken.filter(isWaiting))
    const gather = Effect.gen(function*() {
      const waiting: Array<Waiting> = []
      while (waiting.length === 0) waiting.push(...yield* take(batchSizeMax))
      if (lane.onTheWay === 0) return waiting
      // While requests are on their way, take what they bring, for at most the linger: each of
      // them either joins the queue or, turning away as the last of them, puts a wake there,
      // and so does the linger's end. Nothing interrupts a take (a take cut short could drop
      // what it had taken): the wait ends on what arrives.
      const linger = { over: false }
      const timer = yield* Effect.forkChild(Effect.andThen(
        Effect.sleep(lingerMilliseconds),
        Effect.sync(() => {
          linger.over = true
          Queue.offerUnsafe(queue, wakeUp)
        })
      ))
      while (!linger.over && lane.onTheWay > 0 && waiting.length < batchSizeMax) {
        waiting.push(...yield* take(batchSizeMax - waiting.length))
      }
      yield* Fiber.interrupt(timer)
      return waiting
    })
    const commitBatch = Effect.flatMap(gather, (waiting) =>
      Effect.gen(function*() {
        // A connection of the batch's own: its statements do not queue behind other requests'
        // statements multiplexed on a shared connection, nor those behind its commit.
        const exit = yield* Effect.exit(Effect.scoped(Effect.flatMap(sql.reserve, (connection) =>
          writer.write(waiting.map((entry) => entry.item)).pipe(
            Effect.provideService(sql.transactionService, [connection, 0]),
            Effect.provide(context)
          ))))
        yield* observeBatch(operationId, waiting.length, exit)
        for (const [index, entry] of waiting.entries()) {
          yield* Deferred.succeed(entry.answer, Exit.isSuccess(exit) ? exit.value[index] ?? null : null)
        }
      }).pipe(
        // A worker stopped mid-batch (the engine is closing) leaves no write waiting: answers
        // already given stay (a second completion does nothing), the others run alone.
        Effect.ensuring(Effect.forEach(waiting, (entry) => Deferred.succeed(entry.answer, null), { discard: true }))
      ))
    yield* Effect.forkScoped(Effect.forever(commitBatch))
    // Writes still waiting when the engine stops are answered null: they run alone or fail
    // with the engine, never hang.
    yield* Effect.addFinalizer(() =>
      Effect.flatMap(Queue.clear(queue), (left) =>
        Effect.forEach(left.filter(isWaiting), (entry) => Deferred.succeed(entry.answer, null)))
    )
    return lane
  })
