/**
 * How far a streaming replica is behind its primary, measured in WAL positions rather than in
 * replay timestamps (ADR 2410). `pg_last_xact_replay_timestamp()` is the time of the last
 * transaction replayed: on an idle primary it ages although nothing is missing, and under load it
 * says nothing of the writes still in flight. Instead the primary's WAL position is sampled now and
 * then, each sample with the time it was taken and the count of this process's writes finished
 * before it; the replica is caught up to the newest sample its replay position has reached. What
 * the primary had committed by that sample's time is on the replica, and so is every write of this
 * process counted in it.
 */

/** A WAL position of the primary, as it was at `at` (ms), after `writes` writes of this process had finished. */
export interface Sample {
  readonly at: number
  readonly lsn: bigint
  readonly writes: number
}

/** The samples the replica has not reached yet (oldest first), and the newest one it has. */
export interface Lag {
  readonly pending: ReadonlyArray<Sample>
  readonly caughtUp: Sample | null
}

export const initial: Lag = { pending: [], caughtUp: null }

/** How many samples are kept waiting for the replica: past it the oldest go (which only makes it look further behind). */
export const pendingMax = 256

/** A WAL position as PostgreSQL prints it (`16/B374D848`: two hexadecimal halves), or null. */
export const parseLsn = (text: unknown): bigint | null => {
  if (typeof text !== "string") return null
  const match = /^([0-9A-Fa-f]{1,8})\/([0-9A-Fa-f]{1,8})$/.exec(text)
  return match === null ? null : (BigInt(`0x${match[1]}`) << 32n) + BigInt(`0x${match[2]}`)
}

/**
 * After a probe: `sample` was taken on the primary, then the replica said it had replayed up to
 * `replayed` (null: it could not say). The newest sample at or below `replayed` becomes the
 * caught-up one; a caught-up sample never moves back.
 */
export const observe = (lag: Lag, sample: Sample, replayed: bigint | null): Lag => {
  const all = [...lag.pending, sample]
  let reached = -1
  if (replayed !== null) {
    for (let index = all.length - 1; index >= 0; index--) {
      if (all[index]!.lsn <= replayed) {
        reached = index
        break
      }
    }
  }
  const pending = all.slice(reached + 1)
  return {
    pending: pending.length > pendingMax ? pending.slice(pending.length - pendingMax) : pending,
    caughtUp: reached >= 0 ? all[reached]! : lag.caughtUp
  }
}

/** How long ago the replica was last known to hold all the primary had (ms); null when never. */
export const lagMs = (lag: Lag, now: number): number | null => lag.caughtUp === null ? null : Math.max(0, now - lag.caughtUp.at)

/**
 * Whether a read may go to the replica: it is caught up to a sample no older than the bound, and
 * that sample counts `mustSee`, the last write the reader's company made in this process.
 */
export const fresh = (lag: Lag, now: number, maxStalenessMs: number, mustSee: number): boolean =>
  lag.caughtUp !== null && now - lag.caughtUp.at <= maxStalenessMs && lag.caughtUp.writes >= mustSee
