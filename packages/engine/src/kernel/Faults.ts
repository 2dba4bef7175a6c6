import { Context, Effect } from "effect"

/**
 * Named points where a reliability test may make the process die (kill -9 from inside), to prove
 * that a crash at that exact moment loses nothing and doubles nothing (issue 19 item 15,
 * docs/reliability.md):
 *
 * - `beforeCommit`: a lone write's transaction has done all its work (change, audit event, outbox
 *   events, idempotency record) but has not committed: the database must roll it all back;
 * - `afterCommit`: the transaction committed but the caller has no answer yet: the retry with the
 *   same Idempotency-Key must get the committed answer, not a second change;
 * - `betweenImportBatches`: a statement import (banking/Imports.ts) committed a batch of lines and
 *   has not begun the next: the retry must go on from that batch, every line once, one answer.
 *
 * By default every point does nothing. Only `ledger serve` with `LEDGER_FAULT_CRASH` set (a test
 * setting, documented as such) provides points that crash.
 */
export interface FaultPoints {
  readonly beforeCommit: Effect.Effect<void>
  readonly afterCommit: Effect.Effect<void>
  readonly betweenImportBatches: Effect.Effect<void>
}

export const none: FaultPoints = { beforeCommit: Effect.void, afterCommit: Effect.void, betweenImportBatches: Effect.void }

export class Faults extends Context.Reference<FaultPoints>("@ledger/engine/Faults", { defaultValue: () => none }) {}

export type Point = keyof FaultPoints

/** Each point by its name in the setting. */
const points: Record<string, Point> = {
  before_commit: "beforeCommit",
  after_commit: "afterCommit",
  between_import_batches: "betweenImportBatches"
}

/**
 * `point:n`: the n-th write (for `between_import_batches`, the n-th committed batch of any
 * import) to reach `point` calls `crash` (which is expected not to return).
 * Answers `none` for an empty setting; throws for a malformed one, so a typo is not a silent no-op.
 */
export const fromSetting = (setting: string | undefined, crash: () => void): FaultPoints => {
  if (setting === undefined || setting === "") return none
  const match = /^([a-z_]+):([1-9]\d{0,6})$/.exec(setting)
  const point = match !== null && Object.hasOwn(points, match[1]!) ? points[match[1]!] : undefined
  if (match === null || point === undefined) {
    throw new Error(`LEDGER_FAULT_CRASH must be one of ${Object.keys(points).join(", ")} followed by :N, got ${setting}`)
  }
  const nth = Number(match[2])
  let reached = 0
  const counting = Effect.sync(() => {
    reached += 1
    if (reached === nth) crash()
  })
  return { ...none, [point]: counting }
}
