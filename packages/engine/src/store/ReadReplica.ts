import { Cause, Clock, Context, Duration, Effect, Layer, Option, Schedule } from "effect"
import { SqlClient, SqlError } from "effect/sql"
import { Catalog } from "@ledger/api"
import { RequestContext } from "../kernel/RequestContext.ts"
import * as ReplicaLag from "./ReplicaLag.ts"

/**
 * Reports read from a streaming replica when one is configured (LEDGER_READ_DATABASE_URL, ADR
 * 2410), and only while it is fresh: caught up to the primary as it was at most `maxStalenessMs`
 * ago, and past the last write the reader's company made in this process (read-your-writes).
 * Otherwise, and whenever the replica fails a read, the read runs on the primary. Writes never
 * reach the replica: only `onReplica` hands it out, and only report reads call that.
 */

export interface Status {
  readonly configured: boolean
  readonly maxStalenessMs: number
  /** How long ago the replica last held all the primary had, at the last probe; null: unknown. */
  readonly lagMs: number | null
  /** Whether the last probe reached both databases. */
  readonly reachable: boolean
  /** Reads served by the replica, and reads that were meant for it but ran on the primary. */
  readonly readsOnReplica: number
  readonly readsOnPrimary: number
}

export interface Router {
  /** The replica for a read of `companyId`'s books, or null: read the primary. */
  readonly clientFor: (companyId: string | null) => Effect.Effect<SqlClient.SqlClient | null>
  /** A write for `companyId` (null: for no one company, so for every reader) has finished. */
  readonly wrote: (companyId: string | null) => void
  /** Counts where a read ended up. */
  readonly served: (where: "replica" | "primary") => void
  readonly status: Effect.Effect<Status>
}

const none: Router = {
  clientFor: () => Effect.succeed(null),
  wrote: () => {},
  served: () => {},
  status: Effect.succeed({ configured: false, maxStalenessMs: 0, lagMs: null, reachable: false, readsOnReplica: 0, readsOnPrimary: 0 })
}

/** The read router; by default none (every read on the primary, nothing counted). */
export class ReadReplica extends Context.Reference<Router>("@ledger/engine/ReadReplica", { defaultValue: () => none }) {}

export interface Options {
  /** The replica's client: a read-only connection to a hot standby of the primary. */
  readonly replica: SqlClient.SqlClient
  readonly maxStalenessMs: number
  /** How often the WAL positions are compared; default a twentieth of the bound, 50 ms to 1 s. */
  readonly probeEveryMs?: number
}

/** Companies remembered with their last write; past it every reader waits for the newest write. */
const companiesMax = 100_000
/** How long a probe's statement may take before the replica counts as unreachable. */
const probeTimeout = Duration.seconds(2)

const lsnOf = (rows: ReadonlyArray<{ readonly lsn: unknown }>) => ReplicaLag.parseLsn(rows[0]?.lsn)

/**
 * The router over `options.replica`, with the primary the `SqlClient` in context. A fiber probes
 * both for as long as the layer lives: the primary's WAL write position first, then the replica's
 * replay position (`ReplicaLag`). pg_current_wal_lsn is at or past the end of every commit the
 * primary acknowledged (with synchronous_commit on, a commit returns once its WAL is written).
 */
export const layer = (options: Options): Layer.Layer<never, never, SqlClient.SqlClient> =>
  Layer.effect(ReadReplica)(Effect.gen(function*() {
    const primary = yield* SqlClient.SqlClient
    const clock = yield* Clock.Clock
    const probeEveryMs = options.probeEveryMs ?? Math.min(1000, Math.max(50, Math.floor(options.maxStalenessMs / 20)))
    let lag = ReplicaLag.initial
    let reachable = false
    let writes = 0
    // The last write of each company (by the count of writes), and a floor for every company.
    const lastWrite = new Map<string, number>()
    let everyone = 0
    let readsOnReplica = 0
    let readsOnPrimary = 0

    const probe = Effect.gen(function*() {
      const before = writes
      const at = clock.currentTimeMillisUnsafe()
      const sent = yield* primary<{ lsn: unknown }>`SELECT pg_current_wal_lsn()::text AS lsn`.pipe(Effect.timeout(probeTimeout))
      const replayed = yield* options.replica<{ lsn: unknown }>`SELECT pg_last_wal_replay_lsn()::text AS lsn`.pipe(Effect.timeout(probeTimeout))
      const lsn = lsnOf(sent)
      // Null replay position: not a standby (promoted, or the primary itself): never read from it.
      if (lsn === null || lsnOf(replayed) === null) return yield* Effect.fail(new Error("the read database is not a standby of the primary"))
      lag = ReplicaLag.observe(lag, { at, lsn, writes: before }, lsnOf(replayed))
      if (!reachable) yield* Effect.logInfo("Read replica reachable; reports read from it while fresh")
      reachable = true
      // Companies whose last write the replica holds need no memory of it.
      const seen = lag.caughtUp?.writes ?? 0
      for (const [companyId, write] of lastWrite) if (write <= seen) lastWrite.delete(companyId)
    }).pipe(Effect.catchCause((cause) => Effect.gen(function*() {
      if (reachable) yield* Effect.logWarning("Read replica unreachable or not a standby; reports read from the primary", Cause.squash(cause))
      reachable = false
    })))
    yield* Effect.forkScoped(Effect.repeat(probe, Schedule.spaced(Duration.millis(probeEveryMs))))

    const router: Router = {
      clientFor: (companyId) => Effect.sync(() => {
        const mustSee = Math.max(everyone, companyId === null ? writes : lastWrite.get(companyId) ?? 0)
        return reachable && ReplicaLag.fresh(lag, clock.currentTimeMillisUnsafe(), options.maxStalenessMs, mustSee) ? options.replica : null
      }),
      wrote: (companyId) => {
        writes += 1
        if (companyId === null) everyone = writes
        else if (lastWrite.size < companiesMax || lastWrite.has(companyId)) lastWrite.set(companyId, writes)
        else everyone = writes
      },
      served: (where) => {
        if (where === "replica") readsOnReplica += 1
        else readsOnPrimary += 1
      },
      status: Effect.sync(() => ({
        configured: true,
        maxStalenessMs: options.maxStalenessMs,
        lagMs: ReplicaLag.lagMs(lag, clock.currentTimeMillisUnsafe()),
        reachable,
        readsOnReplica,
        readsOnPrimary
      }))
    }
    return router
  }))

/** A database failure, as a failure or a defect (report reads turn their SqlErrors into defects). */
const isDatabaseFailure = (cause: Cause.Cause<unknown>): boolean =>
  cause.reasons.some((reason) =>
    (Cause.isFailReason(reason) && SqlError.isSqlError(reason.error)) || (Cause.isDieReason(reason) && SqlError.isSqlError(reason.defect)))

/**
 * A report read by a write (inside its transaction, or by a request that writes) reads the
 * primary: what it reads decides what the write does, so it must see every commit.
 */
const partOfWrite = Effect.gen(function*() {
  const primary = yield* SqlClient.SqlClient
  if (Option.isSome(yield* Effect.serviceOption(primary.transactionService))) return true
  const request = yield* Effect.serviceOption(RequestContext)
  return Option.isSome(request) && Catalog.get(request.value.operationId)?.mode !== "R"
})

/**
 * Runs a read of `companyId`'s books on the replica when it is fresh enough, else on the primary.
 * A read the replica fails (a conflict with recovery cancels it, the connection drops) runs again
 * on the primary: a report is never refused for the replica's sake.
 */
export const onReplica = <A, E, R>(companyId: string | null, read: Effect.Effect<A, E, R>): Effect.Effect<A, E, R | SqlClient.SqlClient> =>
  Effect.gen(function*() {
    const router = yield* ReadReplica
    const replica = (yield* partOfWrite) ? null : yield* router.clientFor(companyId)
    const onPrimary = Effect.tap(read, () => Effect.sync(() => router.served("primary")))
    if (replica === null) return yield* onPrimary
    return yield* read.pipe(
      Effect.provideService(SqlClient.SqlClient, replica),
      Effect.tap(() => Effect.sync(() => router.served("replica"))),
      Effect.catchCause((cause) =>
        isDatabaseFailure(cause)
          ? Effect.andThen(Effect.logWarning("A read failed on the replica; reading the primary", Cause.squash(cause)), onPrimary)
          : Effect.failCause(cause))
    )
  })
