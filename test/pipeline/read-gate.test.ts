import { Deferred, Effect, Fiber } from "effect"
import * as fc from "fast-check"
import { describe, expect, it } from "vitest"
import { ReadGate } from "@ledger/engine"

/**
 * The read gate (engine pipeline/shedding/ReadGate.ts, ADR 2421) without a server: at most `concurrent`
 * reads run, at most `queued` wait, a turn freed goes to the longest waiting read, a wait past
 * `queueWaitMs` or a full queue is answered 503 `service_unavailable` with Retry-After, and a read
 * that gives up (its client gone) gives its turn or its place back.
 */

const served: { status: number; body: unknown; headers: Record<string, string> } = { status: 200, body: { ok: true }, headers: {} }

/** A read that runs until `done` is completed, recording that it started and how many ran at once. */
const heldRead = (log: { running: number; most: number; started: Array<number> }, index: number, done: Deferred.Deferred<void>) =>
  Effect.gen(function*() {
    log.running++
    log.most = Math.max(log.most, log.running)
    log.started.push(index)
    yield* Deferred.await(done)
    log.running--
    return served
  })

/** What the Dispatcher answers a shed read with (pipeline/Dispatcher.ts). */
const shed = (limits: ReadGate.Limits) => () => {
  const overloaded = ReadGate.overloaded(limits)
  return { status: overloaded.error.status, body: overloaded.error.toBody() as unknown, headers: overloaded.headers }
}

const settle = Effect.promise(() => new Promise((resolve) => setTimeout(resolve, 5)))

describe("the read gate", () => {
  it("runs at most `concurrent`, queues at most `queued`, sheds the rest at once, and serves the queue in order", async () => {
    await fc.assert(fc.asyncProperty(
      fc.integer({ min: 1, max: 4 }),
      fc.integer({ min: 0, max: 4 }),
      fc.integer({ min: 1, max: 14 }),
      async (concurrent, queued, count) => {
        const limits = { concurrent, queued, queueWaitMs: 60_000 }
        const gate = ReadGate.make(limits)
        const log = { running: 0, most: 0, started: [] as Array<number> }
        const program = Effect.gen(function*() {
          const dones = yield* Effect.forEach(Array.from({ length: count }), () => Deferred.make<void>())
          const fibers = yield* Effect.forEach(dones, (done, index) => Effect.forkChild(gate.admit(heldRead(log, index, done), shed(limits))))
          yield* settle
          expect(log.started).toEqual(Array.from({ length: Math.min(count, concurrent) }, (_, index) => index))
          expect(gate.state()).toEqual({ running: Math.min(count, concurrent), waiting: Math.min(Math.max(0, count - concurrent), queued) })
          // Finish the reads one at a time, in the order they started.
          for (let step = 0; step < count; step++) {
            const next = log.started[step]
            if (next === undefined) break
            yield* Deferred.succeed(dones[next]!, undefined)
            yield* settle
          }
          const outcomes = yield* Effect.forEach(fibers, Fiber.join)
          return outcomes
        })
        const outcomes = await Effect.runPromise(program)
        const admitted = Math.min(count, concurrent + queued)
        expect(log.most).toBeLessThanOrEqual(concurrent)
        expect(log.started).toEqual(Array.from({ length: admitted }, (_, index) => index))
        expect(outcomes.filter((outcome) => outcome.status === 200)).toHaveLength(admitted)
        for (const refused of outcomes.slice(admitted)) {
          expect(refused.status).toBe(503)
          expect(refused.headers).toEqual({ "Retry-After": "60" })
          expect(refused.body).toMatchObject({ error: { type: "service_unavailable", details: { reason: "overloaded", retry_after_seconds: 60 } } })
        }
        expect(gate.state()).toEqual({ running: 0, waiting: 0 })
      }
    ), { numRuns: 40 })
  }, 120_000)

  it("refuses a read that waited past queueWaitMs, and gives a turn back when its read is interrupted", async () => {
    const limits = { concurrent: 1, queued: 2, queueWaitMs: 20 }
    const gate = ReadGate.make(limits)
    const log = { running: 0, most: 0, started: [] as Array<number> }
    const outcome = await Effect.runPromise(Effect.gen(function*() {
      const held = yield* Deferred.make<void>()
      const first = yield* Effect.forkChild(gate.admit(heldRead(log, 0, held), shed(limits)))
      yield* settle
      const waited = yield* gate.admit(Effect.succeed(served), shed(limits))
      // The first read's client goes away: its turn comes back, and the next read runs at once.
      yield* Fiber.interrupt(first)
      expect(gate.state()).toEqual({ running: 0, waiting: 0 })
      const next = yield* gate.admit(Effect.succeed(served), shed(limits))
      return { waited, next }
    }))
    expect(outcome.waited.status).toBe(503)
    expect(outcome.waited.headers).toEqual({ "Retry-After": "1" })
    expect(outcome.next.status).toBe(200)
  })

  it("forgets a queued read whose client went away, so it takes no turn", async () => {
    const limits = { concurrent: 1, queued: 1, queueWaitMs: 60_000 }
    const gate = ReadGate.make(limits)
    const log = { running: 0, most: 0, started: [] as Array<number> }
    const outcome = await Effect.runPromise(Effect.gen(function*() {
      const held = yield* Deferred.make<void>()
      const first = yield* Effect.forkChild(gate.admit(heldRead(log, 0, held), shed(limits)))
      yield* settle
      const queued = yield* Effect.forkChild(gate.admit(heldRead(log, 1, held), shed(limits)))
      yield* settle
      expect(gate.state()).toEqual({ running: 1, waiting: 1 })
      yield* Fiber.interrupt(queued)
      expect(gate.state()).toEqual({ running: 1, waiting: 0 })
      yield* Deferred.succeed(held, undefined)
      return yield* Fiber.join(first)
    }))
    expect(outcome.status).toBe(200)
    expect(log.started).toEqual([0])
    expect(gate.state()).toEqual({ running: 0, waiting: 0 })
  })

  it("admits every read at once when unbounded, as an embedded engine's gate", async () => {
    const gate = ReadGate.make(ReadGate.unbounded)
    const log = { running: 0, most: 0, started: [] as Array<number> }
    const outcomes = await Effect.runPromise(Effect.gen(function*() {
      const held = yield* Deferred.make<void>()
      const fibers = yield* Effect.forEach(Array.from({ length: 300 }), (_, index) =>
        Effect.forkChild(gate.admit(heldRead(log, index, held), shed(ReadGate.unbounded))))
      yield* settle
      expect(gate.state()).toEqual({ running: 300, waiting: 0 })
      yield* Deferred.succeed(held, undefined)
      return yield* Effect.forEach(fibers, Fiber.join)
    }))
    expect(log.most).toBe(300)
    expect(outcomes.every((outcome) => outcome.status === 200)).toBe(true)
  })
})
