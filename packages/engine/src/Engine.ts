import { Clock, Effect, Layer } from "effect"
import type { SqlClient } from "effect/sql"
import { Dispatcher, Handlers, type Invocation } from "./pipeline/Dispatcher.ts"
import { EngineInfo, version } from "./kernel/EngineInfo.ts"
import { Entropy } from "./ports/Entropy.ts"
import { type BatchWriter, GroupCommit } from "./pipeline/batching/GroupCommit.ts"
import * as handlers from "./Handlers.ts"
import * as JournalBatch from "./ledger/JournalBatch.ts"
import { RateLimiter } from "./pipeline/RateLimiter.ts"

export interface Options {
  readonly storage: "postgresql" | "pglite"
  /** Off for embedding and benchmarks; on for servers. */
  readonly rateLimits?: boolean
  /** A seed makes ids and secrets repeatable (tests only). */
  readonly seed?: number
  /**
   * The clock every request reads its time from (keys' expiry, rotation overlaps, rate limits,
   * `RequestContext.now`); the default is the system clock. Tests and the testkit pass a clock
   * they move.
   */
  readonly clock?: Clock.Clock
  /** Record spans for each request (default off: see EngineInfo.tracing). */
  readonly tracing?: boolean
  /**
   * Commit concurrent journal-entry postings together (default on: GroupCommit.ts). Off makes
   * every write its own transaction (the equivalence test runs both).
   */
  readonly groupCommit?: boolean
}

/** The operations whose writes commit in groups, with their batch writers: new ones for each engine. */
const batchWriters = (): ReadonlyMap<string, BatchWriter> => new Map([["proposeJournalEntry", JournalBatch.writer()]])

/**
 * The engine: every operation behind one `Dispatcher`, over whatever `SqlClient` is provided.
 * Servers put HTTP and MCP in front of it; embedders call it directly.
 */
export const layer = (options: Options): Layer.Layer<Dispatcher, never, SqlClient.SqlClient> => {
  const entropy = options.seed === undefined ? Entropy.layer : Entropy.layerSeeded(options.seed)
  return Dispatcher.layer.pipe(
    Layer.provide(Layer.mergeAll(
      Layer.succeed(Handlers)(handlers.all),
      options.clock === undefined ? Layer.empty : Layer.succeed(Clock.Clock)(options.clock),
      options.rateLimits === false ? RateLimiter.layerUnlimited : RateLimiter.layer,
      Layer.succeed(EngineInfo)(EngineInfo.of({ storage: options.storage, version, tracing: options.tracing ?? false })),
      options.groupCommit === false ? GroupCommit.layerOff : GroupCommit.layer(batchWriters)
    ).pipe(Layer.provideMerge(entropy)))
  )
}

/** Calls one operation as an embedding program would: no HTTP, the same rules. */
export const call = (
  operationId: string,
  input: {
    readonly credential: string | null
    readonly path?: Record<string, unknown>
    readonly query?: Record<string, unknown>
    readonly body?: unknown
    readonly idempotencyKey?: string
    readonly agentModel?: string
    readonly agentRunId?: string
    readonly company?: string
  }
) =>
  Effect.flatMap(Dispatcher, (dispatcher) =>
    dispatcher.execute({
      operationId,
      path: input.path ?? {},
      query: input.query ?? {},
      body: input.body,
      credential: input.credential,
      idempotencyKey: input.idempotencyKey ?? null,
      agentModel: input.agentModel ?? null,
      agentRunId: input.agentRunId ?? null,
      company: input.company ?? null,
      via: "engine",
      coerce: false
    } satisfies Invocation))
