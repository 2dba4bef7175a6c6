import { randomBytes } from "node:crypto"
import fc from "fast-check"
import { describe, expect, it } from "vitest"
import { Config, Processes } from "@ledger/server"
import { call, createCompany, entriesWithMemo, idempotencyStorm } from "../support/processes/calls.ts"
import { freshStore, runLedger, startServer } from "../support/server-process.ts"

/**
 * `ledger serve --processes N` (issue 43 item 5, docs/decisions/2400-several-processes-one-port.md):
 * N processes share the port, each answers requests, an idempotency storm spread over them makes
 * one change per key, a process that dies is started again, and SIGTERM stops them all cleanly.
 */

const onPostgres = (process.env.DATABASE_URL ?? "") !== ""

describe("the number of processes", () => {
  it("is read from --processes, then LEDGER_PROCESSES, and bounded", () => {
    expect(Processes.countOf([], {})).toBe(1)
    expect(Processes.countOf([], { LEDGER_PROCESSES: "3" })).toBe(3)
    expect(Processes.countOf(["--processes", "4"], { LEDGER_PROCESSES: "3" })).toBe(4)
    expect(Processes.countOf(["--processes=2"], {})).toBe(2)
    for (const bad of ["0", "-1", "1.5", "two", String(Processes.processesMax + 1)]) {
      expect(() => Processes.countOf(["--processes", bad], {}), bad).toThrow(/must be a whole number from 1 to 64/)
    }
  })

  it("past one needs PostgreSQL", () => {
    expect(Processes.refusal(1, undefined)).toBeNull()
    expect(Processes.refusal(2, "postgres://localhost/ledger")).toBeNull()
    expect(Processes.refusal(2, undefined)).toMatch(/needs PostgreSQL/)
  })

  it("LEDGER_DATABASE_POOLER names a transaction pooler or none (test/store/pgbouncer.test.ts runs behind one)", () => {
    expect(Config.fromEnvironment({ LEDGER_DATABASE_POOLER: "transaction" }).databasePooler).toBe("transaction")
    expect(Config.fromEnvironment({ LEDGER_DATABASE_POOLER: "none" }).databasePooler).toBeUndefined()
    expect(Config.fromEnvironment({}).databasePooler).toBeUndefined()
    expect(() => Config.fromEnvironment({ LEDGER_DATABASE_POOLER: "session" })).toThrow(/LEDGER_DATABASE_POOLER must be transaction or none/)
  })

  it("restarts a failing process after a delay that grows to a bound", () => {
    fc.assert(fc.property(fc.nat(100), (quickExits) => {
      const delay = Processes.restartDelayMs(quickExits)
      expect(delay).toBeGreaterThan(0)
      expect(delay).toBeLessThanOrEqual(30_000)
      expect(Processes.restartDelayMs(quickExits + 1)).toBeGreaterThanOrEqual(delay)
    }))
    expect(Processes.restartDelayMs(0)).toBeLessThan(Processes.restartDelayMs(3))
  })
})

describe.skipIf(onPostgres)("ledger serve --processes on embedded PGlite", () => {
  it("is refused with the reason, before anything starts", async () => {
    const store = await freshStore()
    try {
      const result = await runLedger(store, ["serve", "--processes", "2"])
      expect(result.code).toBe(2)
      expect(result.stderr).toMatch(/needs PostgreSQL \(DATABASE_URL\): embedded PGlite is opened by one process only/)
    } finally {
      await store.remove()
    }
  }, 120_000)
})

/** The annotations of every JSON log line (LEDGER_LOG_FORMAT=json): an access line's request_id, the process. */
const logAnnotations = (output: string): Array<{ process?: number; request_id?: string }> =>
  output.split("\n").filter((line) => line.startsWith("{")).flatMap((line) => {
    try {
      return [JSON.parse(line).annotations ?? {}]
    } catch {
      return []
    }
  })

describe.skipIf(!onPostgres)("ledger serve --processes 2 on PostgreSQL", () => {
  it("answers from both processes, makes one change per key across them, restarts one that dies, stops on SIGTERM", async () => {
    const store = await freshStore()
    const operatorToken = `operator-${randomBytes(12).toString("hex")}`
    const server = await startServer(store, {
      LEDGER_PROCESSES: "2",
      LEDGER_OPERATOR_TOKEN: operatorToken,
      LEDGER_RATE_LIMITS: "off",
      LEDGER_LOG_FORMAT: "json"
    })
    try {
      // Each worker starts on its own: wait until both say they listen.
      const deadline = Date.now() + 240_000
      while ((server.output().match(/Ledger listening on .* \(process \d of 2, pid \d+\)/g) ?? []).length < 2 && Date.now() < deadline) {
        await new Promise((resolve) => setTimeout(resolve, 200))
      }
      const marker = `probe-${Date.now()}`
      for (let index = 0; index < 8; index++) {
        expect((await call(server.url, "GET", "/health", { requestId: `${marker}-${index}` })).status).toBe(200)
      }
      // Log lines are written in batches a few milliseconds apart (Logging.ts): wait for the eighth.
      const probesOf = () => logAnnotations(server.output()).filter((line) => line.request_id?.startsWith(marker) === true)
      const logDeadline = Date.now() + 30_000
      while (probesOf().length < 8 && Date.now() < logDeadline) await new Promise((resolve) => setTimeout(resolve, 100))
      const probes = probesOf()
      expect(probes).toHaveLength(8)
      expect(new Set(probes.map((line) => line.process))).toEqual(new Set([1, 2]))

      const { companyId, owner } = await createCompany(server.url, operatorToken, "Two Processes Co")
      const storm = await idempotencyStorm(server.url, owner, "spread", 10, 3)
      for (const [at, answers] of storm) {
        for (const answer of answers) expect([201, 409], `key ${at}: ${answer.text}`).toContain(answer.status)
        expect(new Set(answers.filter((answer) => answer.status === 201).map((answer) => answer.text)).size).toBeLessThanOrEqual(1)
      }
      expect(await entriesWithMemo(store, companyId, "spread")).toBe(10)

      // A worker killed outright is started again in its place.
      const workerPid = Number(/\(process 2 of 2, pid (\d+)\)/.exec(server.output())![1])
      process.kill(workerPid, "SIGKILL")
      const restartDeadline = Date.now() + 240_000
      while (!/process 2 \(pid \d+\) exited \(SIGKILL\); restarting/.test(server.output()) ||
        (server.output().match(/\(process 2 of 2, pid \d+\)/g) ?? []).length < 2) {
        if (Date.now() > restartDeadline) throw new Error(`process 2 was not restarted:\n${server.output()}`)
        await new Promise((resolve) => setTimeout(resolve, 200))
      }
      expect((await call(server.url, "GET", "/health")).status).toBe(200)

      expect(await server.stop()).toBe(0)
      expect(server.output()).toMatch(/Ledger stopped \(process 1 of 2/)
      expect(server.output()).toMatch(/Ledger stopped\.\n/)
    } finally {
      await server.kill()
      await store.remove()
    }
  }, 600_000)
})
