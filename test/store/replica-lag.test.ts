import fc from "fast-check"
import { describe, expect, it } from "vitest"
import { ReplicaLag } from "@ledger/engine"

/**
 * The rules that decide whether a report may read the replica (ADR 2410): the replica counts as
 * caught up only to a primary WAL position it has replayed, never moves back, and a read is fresh
 * only when that position was the primary's within the bound and after the reader's last write.
 */

const hex = (value: number) => value.toString(16).toUpperCase()

/** Probes as the router makes them: time and WAL position never go back; writes only grow. */
const probes = fc.array(
  fc.record({ dt: fc.integer({ min: 1, max: 500 }), dlsn: fc.integer({ min: 0, max: 1000 }), dwrites: fc.integer({ min: 0, max: 3 }), behind: fc.integer({ min: 0, max: 3000 }) }),
  { minLength: 1, maxLength: 300 }
)

const replay = (steps: ReadonlyArray<{ dt: number; dlsn: number; dwrites: number; behind: number }>) => {
  let lag = ReplicaLag.initial
  let at = 1_000
  let lsn = 0x3000000n
  let writes = 0
  let replayed = 0n
  const samples: Array<ReplicaLag.Sample> = []
  const states: Array<{ lag: ReplicaLag.Lag; replayed: bigint; now: number; samples: ReadonlyArray<ReplicaLag.Sample> }> = []
  for (const step of steps) {
    at += step.dt
    lsn += BigInt(step.dlsn)
    writes += step.dwrites
    const sample = { at, lsn, writes }
    samples.push(sample)
    // The replica replays forward only, up to what the primary has.
    const target = lsn - BigInt(step.behind)
    if (target > replayed) replayed = target
    lag = ReplicaLag.observe(lag, sample, replayed)
    states.push({ lag, replayed, now: at, samples: [...samples] })
  }
  return states
}

describe("replica lag", () => {
  it("reads a WAL position as PostgreSQL prints it", () => {
    fc.assert(fc.property(fc.nat({ max: 0xffffffff }), fc.nat({ max: 0xffffffff }), (high, low) => {
      expect(ReplicaLag.parseLsn(`${hex(high)}/${hex(low)}`)).toBe((BigInt(high) << 32n) + BigInt(low))
    }))
    expect(ReplicaLag.parseLsn("0/3016038")).toBe(0x3016038n)
    for (const bad of [null, "", "3016038", "0/", "G/1", "1/2/3", "123456789/0"]) expect(ReplicaLag.parseLsn(bad)).toBeNull()
  })

  it("counts the replica caught up only to a position it replayed, the newest such, and never moves back", () => {
    fc.assert(fc.property(probes, (steps) => {
      let previousAt = -Infinity
      for (const state of replay(steps)) {
        const caughtUp = state.lag.caughtUp
        const reached = state.samples.filter((sample) => sample.lsn <= state.replayed)
        if (caughtUp === null) {
          expect(reached).toEqual([])
          continue
        }
        expect(caughtUp.lsn <= state.replayed).toBe(true)
        // Fewer samples than the memory holds: the newest reached one, exactly.
        if (state.samples.length <= ReplicaLag.pendingMax) expect(caughtUp).toEqual(reached[reached.length - 1])
        expect(caughtUp.at >= previousAt).toBe(true)
        previousAt = caughtUp.at
        expect(state.lag.pending.every((sample) => sample.lsn > state.replayed)).toBe(true)
        expect(state.lag.pending.length <= ReplicaLag.pendingMax).toBe(true)
      }
    }))
  })

  it("calls a read fresh only within the bound and past the reader's last write", () => {
    fc.assert(fc.property(probes, fc.integer({ min: 0, max: 5000 }), fc.integer({ min: 0, max: 2000 }), fc.nat({ max: 600 }), (steps, bound, wait, mustSee) => {
      const states = replay(steps)
      const last = states[states.length - 1]!
      const now = last.now + wait
      const fresh = ReplicaLag.fresh(last.lag, now, bound, mustSee)
      const witness = last.samples.some((sample) => sample.lsn <= last.replayed && now - sample.at <= bound && sample.writes >= mustSee)
      // Fresh means some sample the replica replayed was the primary's within the bound, after the write.
      if (fresh) expect(witness).toBe(true)
      // And the newest replayed sample is never wasted while few enough are kept.
      if (last.samples.length <= ReplicaLag.pendingMax) {
        const newest = last.samples.filter((sample) => sample.lsn <= last.replayed).at(-1)
        expect(fresh).toBe(newest !== undefined && now - newest.at <= bound && newest.writes >= mustSee)
      }
    }))
  })
})
