import { Effect, Exit } from "effect"
import * as fc from "fast-check"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { HeavyWork } from "@ledger/engine"
import { WorkerPool } from "@ledger/server"
import { InboundMail } from "@ledger/server/adapters"
import { jobs } from "@ledger/engine/jobs"
import { csvStatement, type PoolHandle, startPool } from "./heavy-work-support.ts"

/**
 * The server's pool of worker threads (server/offload/Pool.ts, ADR 2320) on its own, as
 * `ledger serve` starts it: a job past its time limit or its worker's memory is refused with the
 * typed failure and its worker replaced (the next job is answered), and a job answers the same
 * in a worker as on the calling thread.
 */

const readStatement = jobs.get("statement.read")!
const source = (content: string) => ({ format: "csv" as const, content, contentEncoding: "text" as const, profile: null, mask: null })
const readAll = (content: string) => ({ source: source(content), linesMax: 200_001, countOnly: false })

const run = <O>(runner: HeavyWork.Runner, job: HeavyWork.Job<any, O>, input: unknown) => Effect.runPromise(Effect.exit(runner.run(job, input)))

const refusalOf = (exit: Exit.Exit<unknown, HeavyWork.HeavyWorkRefused>) =>
  Exit.isFailure(exit) && exit.cause.reasons[0]?._tag === "Fail" ? (exit.cause.reasons[0] as { error: HeavyWork.HeavyWorkRefused }).error : null

describe("a job past its time limit", () => {
  let pool: PoolHandle
  // One second from the job's start: the 200,000-line file takes several on an idle machine.
  beforeAll(async () => (pool = await startPool({ threads: 1, jobTimeoutMs: 1_000, jobMemoryMb: 512, queueMax: 8 })), 240_000)
  afterAll(() => pool?.close())

  it("is refused with reason time, and its worker is replaced: the next job is answered", async () => {
    const slow = await run(pool.runner, readStatement, readAll(csvStatement(200_000)))
    expect(refusalOf(slow)).toMatchObject({ _tag: "HeavyWorkRefused", job: "statement.read", reason: "time" })
    const next = await run(pool.runner, readStatement, readAll(csvStatement(3)))
    expect(Exit.isSuccess(next) && (next.value as { read: number }).read).toBe(3)
  }, 300_000)
})

describe("a job past its worker's memory", () => {
  let pool: PoolHandle
  // 96 MiB of heap holds the worker and a small file, not 200,000 lines read into objects (about 90 MiB more).
  beforeAll(async () => (pool = await startPool({ threads: 1, jobTimeoutMs: 600_000, jobMemoryMb: 96, queueMax: 8 })), 240_000)
  afterAll(() => pool?.close())

  it("is refused with reason memory, and its worker is replaced: the next job is answered", async () => {
    const big = await run(pool.runner, readStatement, readAll(csvStatement(200_000)))
    expect(refusalOf(big)).toMatchObject({ _tag: "HeavyWorkRefused", job: "statement.read", reason: "memory" })
    const next = await run(pool.runner, readStatement, readAll(csvStatement(3)))
    expect(Exit.isSuccess(next) && (next.value as { read: number }).read).toBe(3)
  }, 300_000)
})

describe("a job in a worker and on the calling thread", () => {
  let pool: PoolHandle
  beforeAll(async () => (pool = await startPool({ threads: 1, jobTimeoutMs: 600_000, jobMemoryMb: 256, queueMax: 8 })), 240_000)
  afterAll(() => pool?.close())

  const cell = fc.string({ maxLength: 12 }).map((text) => text.replace(/[\r\n]/gu, " "))
  const row = fc.record({
    day: fc.integer({ min: 1, max: 31 }),
    cents: fc.integer({ min: -9_999_999, max: 9_999_999 }),
    payee: cell,
    // Now and then a line that cannot be read, so failures are compared too.
    broken: fc.integer({ min: 0, max: 19 }).map((draw) => draw === 0)
  })
  const csv = (rows: ReadonlyArray<typeof row extends fc.Arbitrary<infer T> ? T : never>) =>
    ["Date,Description,Amount", ...rows.map((each) => {
      const amount = `${each.cents < 0 ? "-" : ""}${Math.floor(Math.abs(each.cents) / 100)}.${String(Math.abs(each.cents) % 100).padStart(2, "0")}`
      return `2026-01-${String(each.day).padStart(2, "0")},"${each.payee.replace(/"/gu, "\"\"")}",${each.broken ? "twelve" : amount}`
    })].join("\n")

  it("reads a statement to the same lines, statements and stop", async () => {
    await fc.assert(fc.asyncProperty(fc.array(row, { maxLength: 40 }), async (rows) => {
      const input = readAll(csv(rows))
      const inline = await run(HeavyWork.inline, readStatement, input)
      const pooled = await run(pool.runner, readStatement, input)
      expect(pooled).toEqual(inline)
    }), { numRuns: 40 })
  }, 300_000)

  it("parses a mail to the same message, its attachment's bytes included", async () => {
    const pdf = "%PDF-1.4 receipt bytes"
    const raw = new TextEncoder().encode([
      "From: Vendor <billing@vendor.example>", "To: r-abc@inbox.localhost", "Subject: Your receipt", "Message-ID: <m1@vendor.example>",
      "MIME-Version: 1.0", "Content-Type: multipart/mixed; boundary=b1", "", "--b1", "Content-Type: text/html; charset=utf-8", "",
      "<p>Total $12.34</p>", "--b1", "Content-Type: application/pdf; name=receipt.pdf", "Content-Disposition: attachment; filename=receipt.pdf",
      "Content-Transfer-Encoding: base64", "", Buffer.from(pdf).toString("base64"), "--b1--", ""
    ].join("\r\n"))
    const input = { raw, envelope: { mailFrom: "bounce@vendor.example", recipients: ["r-abc@inbox.localhost"] }, trustedAuthservId: null }
    const inline = await run(HeavyWork.inline, InboundMail.parseMail, input)
    const pooled = await run(pool.runner, InboundMail.parseMail, input)
    expect(pooled).toEqual(inline)
    expect(Exit.isSuccess(pooled) && new TextDecoder().decode(pooled.value.attachments[0]!.bytes)).toBe(pdf)
  }, 120_000)

  it("answers a mail past the parse's memory 552, and defers one past its time or with no worker free (451)", async () => {
    const refusing = (reason: "time" | "memory" | "unavailable"): HeavyWork.Runner => ({
      kind: "pool",
      run: (job) => Effect.fail(new HeavyWork.HeavyWorkRefused({ job: job.name, reason, message: reason }))
    })
    const reply = (reason: "time" | "memory" | "unavailable") =>
      Effect.runPromise(InboundMail.parseAndReceive(new Uint8Array(8), { mailFrom: "", recipients: [] }, null).pipe(
        Effect.provideService(HeavyWork.HeavyWork, refusing(reason))
      ) as Effect.Effect<InboundMail.SmtpReply>)
    expect(await reply("time")).toMatchObject({ code: 451, message: expect.stringMatching(/^4\.3\.0 /) })
    expect((await reply("memory")).code).toBe(552)
    expect((await reply("unavailable")).code).toBe(451)
  })

  it("counts the settings from the environment, and none means the inline default", () => {
    expect(WorkerPool.fromEnvironment({ LEDGER_WORKER_THREADS: "3", LEDGER_WORKER_JOB_TIMEOUT_MS: "5000", LEDGER_WORKER_JOB_MEMORY_MB: "128" }))
      .toMatchObject({ threads: 3, jobTimeoutMs: 5_000, jobMemoryMb: 128 })
    expect(() => WorkerPool.fromEnvironment({ LEDGER_WORKER_THREADS: "-1" })).toThrow(/LEDGER_WORKER_THREADS must be a whole number/)
    expect(WorkerPool.fromEnvironment({ LEDGER_WORKER_THREADS: "0" }).threads).toBe(0)
  })
})
