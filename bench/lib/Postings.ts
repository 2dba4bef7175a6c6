import * as Engine from "./Engine.ts"
import { type LatencySummary, now, round, Samples } from "./Stats.ts"

/** The spec paths of the ledger operations the benchmarks drive. */
export const paths = {
  propose: ["POST", "/v1/journal-entries/propose"],
  createAccount: ["POST", "/v1/accounts"],
  listAccounts: ["GET", "/v1/accounts"],
  trialBalance: ["GET", "/v1/reports/trial-balance"],
  balanceSheet: ["GET", "/v1/reports/balance-sheet"]
} as const

/** Account codes the benchmarks create: out of the starter charts' ranges. */
export const accountCode = (index: number): string => String(100_000 + index)

/** Creates `count` accounts (half assets, half expenses, so any pair can post), a few at a time. */
export const createAccounts = async (
  engine: Engine.BenchEngine,
  company: Engine.Company,
  operationId: string,
  count: number
): Promise<ReadonlyArray<string>> => {
  const codes = Array.from({ length: count }, (_, index) => accountCode(index))
  let next = 0
  const worker = async () => {
    while (next < codes.length) {
      const index = next++
      Engine.expectStatus(
        await engine.call(operationId, {
          credential: company.ownerKey,
          idempotencyKey: Engine.newKey("account"),
          body: { code: codes[index]!, name: `Bench account ${index}`, type: index % 2 === 0 ? "asset" : "expense" }
        }),
        [201],
        `account ${codes[index]}`
      )
    }
  }
  await Promise.all(Array.from({ length: 8 }, worker))
  return codes
}

/** A balanced two-line entry: debit one account, credit another, for the same amount. */
export const twoLineEntry = (debit: string, credit: string, amountCents: number, entryDate: string) => ({
  entry_date: entryDate,
  memo: "bench",
  lines: [
    { account: debit, debit_cents: amountCents },
    { account: credit, credit_cents: amountCents }
  ]
})

/** A small deterministic generator so runs are repeatable. */
export const random = (seed: number) => {
  let state = seed >>> 0 || 1
  return (bound: number): number => {
    state ^= state << 13
    state >>>= 0
    state ^= state >>> 17
    state ^= state << 5
    state >>>= 0
    return state % bound
  }
}

/**
 * The next call of a caller that posts balanced two-line entries between two different accounts
 * drawn at random (seeded) from `codes`, each with a fresh Idempotency-Key.
 */
export const randomPostings = (options: {
  readonly propose: string
  readonly credential: string
  readonly codes: ReadonlyArray<string>
  readonly seed: number
  readonly entryDate: string
  readonly keyPrefix?: string
  /** The Idempotency-Key of each call; by default a short bench key (`keyPrefix`, caller, count). */
  readonly newKey?: () => string
}) => {
  const draw = random(options.seed)
  const { codes } = options
  return (caller: number): { operationId: string; input: Engine.Input } => {
    const debit = draw(codes.length)
    const credit = (debit + 1 + draw(codes.length - 1)) % codes.length
    return {
      operationId: options.propose,
      input: {
        credential: options.credential,
        idempotencyKey: options.newKey?.() ?? Engine.newKey(`${options.keyPrefix ?? "p"}${caller}`),
        body: twoLineEntry(codes[debit]!, codes[credit]!, 1 + draw(100_000), options.entryDate)
      }
    }
  }
}

export interface CallersResult {
  readonly succeeded: number
  readonly failed: number
  readonly failures: Record<string, number>
  readonly rate_per_s: number
  readonly latency: LatencySummary
  /**
   * This process's CPU (user + system) per successful call, in microseconds: what a call costs the
   * Node side whatever else the machine is doing, so a shared machine's figures can still be compared.
   */
  readonly node_cpu_us_per_call: number
}

/**
 * `concurrency` callers, each calling the engine again as soon as its last call returns, for a
 * fixed time: the engine's throughput at that concurrency, with each call's latency.
 */
export const runCallers = async (options: {
  readonly engine: Engine.BenchEngine
  readonly concurrency: number
  readonly durationSeconds: number
  readonly next: (caller: number, index: number) => { readonly operationId: string; readonly input: Engine.Input }
  readonly isSuccess?: (status: number) => boolean
}): Promise<CallersResult> => {
  const isSuccess = options.isSuccess ?? ((status: number) => status === 201 || status === 200)
  const samples = new Samples()
  const failures: Record<string, number> = {}
  let succeeded = 0
  let failed = 0
  const started = now()
  const cpuBefore = process.cpuUsage()
  const deadline = started + options.durationSeconds * 1000
  const caller = async (callerIndex: number) => {
    let index = 0
    while (now() < deadline) {
      const { operationId, input } = options.next(callerIndex, index++)
      const begin = now()
      const outcome = await options.engine.call(operationId, input)
      samples.add(now() - begin)
      if (isSuccess(outcome.status)) {
        succeeded++
      } else {
        failed++
        const type = (outcome.body as { error?: { type?: string } } | null)?.error?.type ?? String(outcome.status)
        failures[type] = (failures[type] ?? 0) + 1
      }
    }
  }
  await Promise.all(Array.from({ length: options.concurrency }, (_, index) => caller(index)))
  const elapsed = (now() - started) / 1000
  const cpu = process.cpuUsage(cpuBefore)
  return {
    succeeded,
    failed,
    failures,
    rate_per_s: round(succeeded / elapsed),
    latency: samples.summary(),
    node_cpu_us_per_call: Math.round((cpu.user + cpu.system) / Math.max(1, succeeded))
  }
}
