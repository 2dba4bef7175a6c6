import { Effect, Exit, Option } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { createClient } from "@ledger/client"
import { LedgerClient } from "@ledger/client/effect"
import type { TestLedger } from "@ledger/testkit"
import { instrumentedFetch, testLedger } from "./support.ts"

/**
 * The Promise client (Fetch.ts) and the Effect client (Call.ts) each run the retry loop, so the
 * Promise client carries no Effect (ADR 0606). Both ask RetryPolicy what to do, but the loops
 * around it are two: this table runs every case through both and asks for the same attempts, the
 * same waits, one Idempotency-Key, and the same outcome, so the two cannot drift apart.
 */

type Fault = "drop-before-server" | "drop-after-server" | Response

const json = (status: number, body: unknown, headers: Record<string, string> = {}) =>
  new Response(JSON.stringify(body), { status, headers: { "content-type": "application/json", ...headers } })

interface Case {
  readonly name: string
  /** What the network does to attempt n (index), before the real server answers the rest. */
  readonly faults: ReadonlyArray<() => Fault>
  readonly retriesMax?: number
  /** The outcome both clients must end with: `ok` or the error's type. */
  readonly outcome: string
  readonly attempts: number
  /** Exact waits, where the server named them (Retry-After); otherwise only their count. */
  readonly waitsMs?: ReadonlyArray<number>
}

const busy = () => json(503, { error: { type: "service_unavailable", message: "busy" } })
const cases: ReadonlyArray<Case> = [
  { name: "no fault", faults: [], outcome: "ok", attempts: 1 },
  { name: "a connection refused, then the server", faults: [() => "drop-before-server"], outcome: "ok", attempts: 2 },
  { name: "an answer lost after the commit", faults: [() => "drop-after-server"], outcome: "ok", attempts: 2 },
  { name: "two 503s", faults: [busy, busy], outcome: "ok", attempts: 3 },
  {
    name: "429 with Retry-After",
    faults: [() => json(429, { error: { type: "rate_limited", message: "slow down" } }, { "retry-after": "2" })],
    outcome: "ok",
    attempts: 2,
    waitsMs: [2_000]
  },
  {
    name: "the same key still running",
    faults: [() => json(409, { error: { type: "idempotency_in_progress", message: "still running" } })],
    outcome: "ok",
    attempts: 2
  },
  {
    name: "a refusal",
    faults: [() => json(422, { error: { type: "validation_failed", message: "no" } })],
    outcome: "validation_failed",
    attempts: 1
  },
  {
    name: "a Retry-After past the client's patience",
    faults: [() => json(429, { error: { type: "rate_limited", message: "later" } }, { "retry-after": "3600" })],
    outcome: "rate_limited",
    attempts: 1
  },
  {
    name: "the network down past the budget",
    faults: [() => "drop-before-server", () => "drop-before-server", () => "drop-before-server"],
    retriesMax: 2,
    outcome: "network_error",
    attempts: 3
  }
]

interface Observed {
  readonly outcome: string
  readonly attempts: number
  readonly keys: ReadonlyArray<string | null>
  readonly waitsMs: ReadonlyArray<number>
}

let ledger: TestLedger
let ownerKey: string
beforeAll(async () => {
  ledger = await testLedger({ seed: 29 })
  ownerKey = (await ledger.createCompany()).ownerKey
})
afterAll(() => ledger.close())

const typeOf = (cause: unknown): string =>
  typeof cause === "object" && cause !== null && "type" in cause ? String(cause.type) : `untyped: ${String(cause)}`

const faulty = (scenario: Case) =>
  instrumentedFetch(ledger.fetch, (_, index) => scenario.faults[index]?.())

const viaPromise = async (scenario: Case, name: string): Promise<Observed> => {
  const { fetch, exchanges } = faulty(scenario)
  const waitsMs: Array<number> = []
  const client = createClient({
    baseUrl: ledger.baseUrl,
    token: ownerKey,
    fetch,
    retry: { retriesMax: scenario.retriesMax ?? 3 },
    sleep: async (milliseconds) => void waitsMs.push(milliseconds)
  })
  const outcome = await client.createUser({ name, role: "staff" }).then(() => "ok", typeOf)
  return { outcome, attempts: exchanges.length, keys: exchanges.map((e) => e.headers.get("idempotency-key")), waitsMs }
}

const viaEffect = async (scenario: Case, name: string): Promise<Observed> => {
  const { fetch, exchanges } = faulty(scenario)
  const waitsMs: Array<number> = []
  const program = Effect.gen(function*() {
    const client = yield* LedgerClient
    return yield* client.createUser({ name, role: "staff" })
  }).pipe(
    Effect.provide(LedgerClient.layer({
      baseUrl: ledger.baseUrl,
      token: ownerKey,
      fetch,
      retry: { retriesMax: scenario.retriesMax ?? 3 },
      sleep: (milliseconds) => Effect.sync(() => void waitsMs.push(milliseconds))
    }))
  )
  const exit = await Effect.runPromiseExit(program)
  const outcome = Exit.isSuccess(exit) ? "ok" : typeOf(Exit.findErrorOption(exit).pipe(Option.getOrUndefined))
  return { outcome, attempts: exchanges.length, keys: exchanges.map((e) => e.headers.get("idempotency-key")), waitsMs }
}

describe("the Promise and Effect clients retry alike", () => {
  it.each(cases.map((scenario, index) => [scenario.name, scenario, index] as const))("%s", async (_, scenario, index) => {
    const promise = await viaPromise(scenario, `Parity promise ${index}`)
    const effect = await viaEffect(scenario, `Parity effect ${index}`)
    for (const observed of [promise, effect]) {
      expect(observed.outcome).toBe(scenario.outcome)
      expect(observed.attempts).toBe(scenario.attempts)
      expect(new Set(observed.keys).size).toBe(1)
      expect(observed.keys[0]).toMatch(/^[0-9a-f-]{36}$/)
      expect(observed.waitsMs).toHaveLength(scenario.attempts - 1)
      if (scenario.waitsMs !== undefined) expect(observed.waitsMs).toEqual(scenario.waitsMs)
    }
    // Jitter makes backoff waits random; each wait is bounded the same way in both.
    expect(effect.waitsMs.length).toBe(promise.waitsMs.length)
  })
})
