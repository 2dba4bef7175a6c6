import { Effect, Layer, ManagedRuntime } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { HeavyWork } from "@ledger/engine"
import { Config, Server, WorkerPool } from "@ledger/server"
import { freePort } from "../support/server-process.ts"
import { csvStatement, type PoolHandle, startPool } from "./heavy-work-support.ts"

/**
 * Heavy work off the request thread on a real server (HTTP on a port, embedded store; issue 41
 * item 1, ADR 2320): while one company's large statement is read, another company's request is
 * answered. The server's HeavyWork is watched (each job's post and end noted, then handed to the
 * pool or to the inline runner), so the test asserts the order of events, not their times: with
 * the pool the other company is answered before the reading ends; inline, as a control, it is not.
 */

const operatorToken = `operator-heavy-${Date.now().toString(36)}`
const settings: WorkerPool.Settings = { threads: 1, jobTimeoutMs: 600_000, jobMemoryMb: 512, queueMax: 8 }

let pool: PoolHandle
let runtime: ManagedRuntime.ManagedRuntime<never, unknown> | null = null
let url = ""
/** The runner the server's jobs go to now. */
let current: HeavyWork.Runner = HeavyWork.inline
const events: Array<string> = []
let posted: ((name: string) => void) | null = null

const watched: HeavyWork.Runner = {
  kind: "pool",
  run: (job, input) =>
    Effect.suspend(() => {
      events.push(`${job.name} posted`)
      posted?.(job.name)
      return current.run(job, input).pipe(Effect.ensuring(Effect.sync(() => events.push(`${job.name} ended`))))
    })
}

const post = async (path: string, key: string, body: unknown, bearer: string) => {
  const response = await fetch(`${url}${path}`, {
    method: "POST",
    headers: { authorization: `Bearer ${bearer}`, "idempotency-key": key, "content-type": "application/json" },
    body: JSON.stringify(body)
  })
  return { status: response.status, body: await response.json() as any }
}

const company = async (name: string) => {
  const created = await post("/v1/companies", `company-${name}`, { name, owner_name: "Owner", plan: "owned" }, operatorToken)
  expect(created.status, JSON.stringify(created.body)).toBe(201)
  const token = created.body.secret as string
  const bank = await post("/v1/bank-accounts", `bank-${name}`, { name, kind: "checking", ledger_account: "1010", institution: "First Bank" }, token)
  expect(bank.status, JSON.stringify(bank.body)).toBe(201)
  return { token, bankAccountId: bank.body.id as number }
}

beforeAll(async () => {
  pool = await startPool(settings)
  // The job runner's background workers are not under test here (read from the environment as the
  // layer is built; put back at once, since test files share this process).
  const workers = process.env.LEDGER_WORKERS
  process.env.LEDGER_WORKERS = "off"
  const port = await freePort()
  const config = Config.fromEnvironment({
    PORT: String(port), HOST: "127.0.0.1", LEDGER_DATA_DIR: "memory", LEDGER_OPERATOR_TOKEN: operatorToken,
    LEDGER_ACCESS_LOG: "off", LEDGER_WORKER_THREADS: "0"
  })
  runtime = ManagedRuntime.make(Server.serverLayer(config).pipe(Layer.provide(Layer.succeed(HeavyWork.HeavyWork)(watched))) as Layer.Layer<never, unknown>)
  await runtime.runPromise(Effect.void).finally(() => {
    if (workers === undefined) delete process.env.LEDGER_WORKERS
    else process.env.LEDGER_WORKERS = workers
  })
  url = `http://127.0.0.1:${port}`
}, 300_000)
afterAll(async () => {
  await runtime?.dispose()
  await pool?.close()
})

/**
 * Company A's dry run of `lines` lines is sent; once its reading is posted, company B asks for its
 * chart of accounts. Answers the events in order, B's answer among them.
 */
const raceOtherCompany = async (runner: HeavyWork.Runner, lines: number, tag: string) => {
  current = runner
  events.length = 0
  const [a, b] = [await company(`A ${tag}`), await company(`B ${tag}`)]
  const reading = new Promise<void>((resolve) => (posted = (name) => name === "statement.read" && resolve()))
  const heavy = post(`/v1/bank-accounts/${a.bankAccountId}/imports`, `import-${tag}`, { format: "csv", content: csvStatement(lines), filename: "big.csv", dry_run: true }, a.token)
  await reading
  const ask = () => fetch(`${url}/v1/accounts`, { headers: { authorization: `Bearer ${b.token}` } })
  // Inline, a kept-alive connection may be reset by the stalled server: asked again on a new one.
  const other = await ask().catch(ask)
  events.push(`other company answered ${other.status}`)
  const answered = await heavy
  posted = null
  return { events: [...events], heavy: answered }
}

describe("a large statement read while another company asks", () => {
  it("with the pool, the other company is answered before the reading ends", async () => {
    const { events: order, heavy } = await raceOtherCompany(pool.runner, 150_000, "pool")
    expect(heavy.status, JSON.stringify(heavy.body).slice(0, 300)).toBe(200)
    expect(heavy.body.lines_read).toBe(150_000)
    expect(order).toEqual(["statement.read posted", "other company answered 200", "statement.read ended"])
  }, 600_000)

  it("inline (the control), the other company waits for the reading to end", async () => {
    const { events: order, heavy } = await raceOtherCompany(HeavyWork.inline, 150_000, "inline")
    expect(heavy.status).toBe(200)
    expect(order).toEqual(["statement.read posted", "statement.read ended", "other company answered 200"])
  }, 600_000)

  it("a file past the job's time is refused with the spec's body, and the next file is read", async () => {
    current = pool.runnerWith(1_000)
    const a = await company("A slow")
    const path = `/v1/bank-accounts/${a.bankAccountId}/imports`
    const refused = await post(path, "import-slow", { format: "csv", content: csvStatement(200_000), filename: "slow.csv", dry_run: true }, a.token)
    expect(refused.status).toBe(422)
    expect(refused.body.error).toMatchObject({ type: "statement_unreadable", details: { reason: "the file took too long to read" } })
    const next = await post(path, "import-next", { format: "csv", content: csvStatement(3), filename: "small.csv", dry_run: true }, a.token)
    expect(next.status, JSON.stringify(next.body)).toBe(200)
    expect(next.body.lines_read).toBe(3)
  }, 600_000)
})
