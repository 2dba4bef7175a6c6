import { Effect, Layer } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { Mail, Sales } from "@ledger/engine"
import * as Worker from "@ledger/server/workers"
import { makeTestApp, type TestApp } from "../support/index.ts"

let app: TestApp
beforeAll(async () => {
  app = await makeTestApp()
})
afterAll(() => app.close())

const run = <A>(effect: Effect.Effect<A, never, any>) => app.runtime.runPromise(effect as Effect.Effect<A>)

describe("the job queue", () => {
  it("hands a job to one worker, and to another once the first's lease runs out", async () => {
    const kind = `test.lease.${Date.now()}`
    await run(Sales.Jobs.enqueue({ kind, companyId: null, payload: { n: 1 } }))
    const first = (await run(Sales.Jobs.claim("worker-a", 50, 60))).filter((job) => job.kind === kind)
    expect(first).toHaveLength(1)
    expect(first[0]!.attempts).toBe(1)
    // While worker-a holds the lease, nobody else gets it.
    expect((await run(Sales.Jobs.claim("worker-b", 50, 60))).filter((job) => job.kind === kind)).toHaveLength(0)
    // worker-a dies; its lease runs out.
    await app.query(`UPDATE jobs SET locked_until = now() - interval '1 second' WHERE kind = $1`, [kind])
    const second = (await run(Sales.Jobs.claim("worker-b", 50, 60))).filter((job) => job.kind === kind)
    expect(second).toHaveLength(1)
    expect(second[0]!.attempts).toBe(2)
    // The dead worker's late completion changes nothing; the live worker's does.
    await run(Sales.Jobs.complete(first[0]!, "worker-a"))
    expect((await app.query<{ status: string }>(`SELECT status FROM jobs WHERE kind = $1`, [kind]))[0]!.status).toBe("running")
    await run(Sales.Jobs.complete(second[0]!, "worker-b"))
    expect((await app.query<{ status: string }>(`SELECT status FROM jobs WHERE kind = $1`, [kind]))[0]!.status).toBe("done")
  })

  it("never gives one job to two workers claiming at once", async () => {
    const kind = `test.concurrent.${Date.now()}`
    for (let index = 0; index < 30; index++) await run(Sales.Jobs.enqueue({ kind, companyId: null, payload: { index } }))
    const claims = await Promise.all(["w1", "w2", "w3"].map((worker) => run(Sales.Jobs.claim(worker, 12, 60))))
    const ids = claims.flatMap((jobs) => jobs.filter((job) => job.kind === kind).map((job) => job.id))
    expect(new Set(ids).size).toBe(ids.length)
    const rest = (await run(Sales.Jobs.claim("w4", 100, 60))).filter((job) => job.kind === kind)
    expect(ids.length + rest.length).toBe(30)
  })

  it("backs off after a failure and gives up after the last attempt", async () => {
    const kind = `test.retry.${Date.now()}`
    await run(Sales.Jobs.enqueue({ kind, companyId: null, maxAttempts: 2 }))
    const [job] = (await run(Sales.Jobs.claim("w", 50, 60))).filter((claimed) => claimed.kind === kind)
    expect(await run(Sales.Jobs.fail(job!, "w", "boom"))).toBe(false)
    const pending = (await app.query<{ status: string; run_at: Date | string }>(`SELECT status, run_at FROM jobs WHERE kind = $1`, [kind]))[0]!
    expect(pending.status).toBe("pending")
    expect(new Date(pending.run_at).getTime()).toBeGreaterThan(Date.now() + 20_000)
    // A second in the past: the claim compares with the app's clock in milliseconds, now() has microseconds.
    await app.query(`UPDATE jobs SET run_at = now() - interval '1 second' WHERE kind = $1`, [kind])
    const [again] = (await run(Sales.Jobs.claim("w", 50, 60))).filter((claimed) => claimed.kind === kind)
    expect(await run(Sales.Jobs.fail(again!, "w", "boom again"))).toBe(true)
    expect((await app.query<{ status: string; last_error: string }>(`SELECT status, last_error FROM jobs WHERE kind = $1`, [kind]))[0])
      .toMatchObject({ status: "failed", last_error: "boom again" })
    expect(Sales.Jobs.retryDelaySeconds(1)).toBe(30)
    expect(Sales.Jobs.retryDelaySeconds(3)).toBe(480)
    expect(Sales.Jobs.retryDelaySeconds(20)).toBe(6 * 3600)
  })

  it("fails an email whose delivery job keeps faulting, instead of leaving it queued", async () => {
    const company = await app.createCompany({ name: "Faulty Co" })
    const key = () => `faulty-${Date.now()}-${Math.random()}`
    const customer = await app.call("POST", "/v1/contacts", { token: company.ownerKey, key: key(), body: { kind: "customer", name: "C", email: "c@c.test" } })
    const invoice = await app.call("POST", "/v1/invoices", { token: company.ownerKey, key: key(), body: { contact_id: customer.body.id, doc_date: "2026-01-05", lines: [{ amount_cents: 100 }] } })
    const email = await app.call("POST", `/v1/documents/${invoice.body.id}/email`, { token: company.ownerKey, key: key(), body: {} })
    await app.query(`UPDATE jobs SET max_attempts = 1 WHERE payload->>'email_id' = $1`, [String(email.body.id)])
    // A mail port that faults (a defect, not an SMTP refusal).
    const faulty = Layer.succeed(Mail)(Mail.of({ send: () => Effect.die(new Error("template exploded")) }))
    await app.runtime.runPromise(Worker.drain({ id: "w", ...Worker.defaults }).pipe(Effect.provide(faulty)))
    const after = await app.call("GET", `/v1/email/outbox/${email.body.id}`, { token: company.ownerKey })
    expect(after.body.status).toBe("failed")
    expect(after.body.last_error).toContain("template exploded")
  })
})
