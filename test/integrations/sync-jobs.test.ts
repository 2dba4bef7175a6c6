import { Clock, Effect } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import type { FakeCommerce } from "@ledger/testkit"
import * as Worker from "@ledger/server/workers"
import type { TestApp } from "../support/index.ts"
import { drainJobs, makeProviderApp, writer } from "./support.ts"

/**
 * Syncs as background jobs on the test clock (ADR 1604): `POST .../sync` answers the queued run,
 * the integrations worker runs it; a schedule per connection; two workers never sync one
 * connection twice; a failure is recorded on the connection and emitted as `integration.error`.
 */

let app: TestApp
let commerce: FakeCommerce.FakeCommerce
beforeAll(async () => {
  const made = await makeProviderApp({ clock: "2026-05-01T09:00:00Z" })
  app = made.app
  commerce = made.commerce
})
afterAll(() => app.close())

const connectProcessor = async (name: string, account: string) => {
  const company = await app.createCompany({ name })
  const owner = writer(app, company.ownerKey)
  const bank = (await app.query<{ code: string }>(`SELECT code FROM accounts WHERE company_id = $1 AND subtype = 'bank' ORDER BY code LIMIT 1`, [company.companyId]))[0]!.code
  const started = await owner.post("/v1/integrations/connections", { provider: "provider_a", payout_bank_account_id: bank })
  const consent = commerce.consent(started.body.consent_url, { id: account, name: "Processor account" })
  const connection = (await owner.post("/v1/integrations/connections/complete", { state: consent.state, code: consent.code, posting_threshold_cents: 100_000 })).body
  // The first scheduled sync is due as soon as the connection is made.
  expect(connection.next_sync_at).toBe(connection.created_at)
  expect((await owner.post(`/v1/integrations/connections/${connection.id}/mappings/approve`, {})).status).toBe(200)
  return { company, owner, connection }
}

const runsOf = async (owner: ReturnType<typeof writer>, id: number) =>
  (await owner.get(`/v1/integrations/connections/${id}/sync-runs?limit=50`)).body.data as Array<any>

const entryCount = async (companyId: string) =>
  Number((await app.query<{ count: unknown }>(`SELECT count(*) AS count FROM journal_entries WHERE company_id = $1`, [companyId]))[0]!.count)

/** The scan of due syncs, as the workers keep it scheduled. */
const scan = () =>
  app.runtime.runPromise((Worker.schedulePeriodic("integrations.schedule", 0) as Effect.Effect<void>).pipe(Effect.provideService(Clock.Clock, app.clock!)))

describe("integration syncs as jobs", () => {
  it("queues a requested sync once, and two workers run it once", async () => {
    const { company, owner, connection } = await connectProcessor("Two Workers Co", "acct_two")
    commerce.addCharge("acct_two", { id: "txn_a", amountCents: 4_000, feeCents: 146, date: "2026-04-28" })
    const first = await owner.post(`/v1/integrations/connections/${connection.id}/sync`)
    const second = await owner.post(`/v1/integrations/connections/${connection.id}/sync`)
    expect(first.status).toBe(202)
    expect(second.body.id).toBe(first.body.id)
    expect(first.body).toMatchObject({ status: "queued", trigger: "request" })
    const jobs = await app.query<{ count: unknown }>(`SELECT count(*) AS count FROM jobs WHERE kind = 'integrations.sync' AND company_id = $1
      AND status = 'pending'`, [company.companyId])
    expect(Number(jobs[0]!.count)).toBe(1)
    // Nothing is written before a worker runs it; the connection shows the run waiting.
    expect(await entryCount(company.companyId)).toBe(0)
    expect((await owner.get(`/v1/integrations/connections/${connection.id}`)).body.last_sync).toMatchObject({ id: first.body.id, status: "queued", finished_at: null })

    const options = (id: string) => ({ id, ...Worker.defaults })
    await app.runtime.runPromise(Effect.all([Worker.runOnce(options("w1")), Worker.runOnce(options("w2"))], { concurrency: 2 }) as Effect.Effect<unknown>)
    await drainJobs(app)
    const runs = await runsOf(owner, connection.id)
    expect(runs).toHaveLength(1)
    expect(runs[0]).toMatchObject({ id: first.body.id, status: "succeeded", counts: { fetched: 1, posted: 1 } })
    expect(await entryCount(company.companyId)).toBe(1)
    const state = (await owner.get(`/v1/integrations/connections/${connection.id}`)).body
    expect(state).toMatchObject({ last_sync: { id: first.body.id, status: "succeeded" }, last_error: null, health: "ok" })
  })

  it("syncs each connection on its schedule, within bounds set in its settings", async () => {
    const { company, owner, connection } = await connectProcessor("Schedule Co", "acct_sched")
    commerce.addCharge("acct_sched", { id: "txn_s1", amountCents: 2_000, date: "2026-04-30" })
    await scan()
    await drainJobs(app)
    let runs = (await runsOf(owner, connection.id))
    expect(runs.map((run) => [run.trigger, run.status, run.counts.posted])).toEqual([["schedule", "succeeded", 1]])
    expect((await owner.get(`/v1/integrations/connections/${connection.id}`)).body.next_sync_at).toBe("2026-05-01T10:00:00.000Z")

    // Not due yet: the scan enqueues nothing for it.
    app.clock!.advance("50 minutes")
    await scan()
    await drainJobs(app)
    expect(await runsOf(owner, connection.id)).toHaveLength(1)

    app.clock!.advance("11 minutes")
    commerce.addCharge("acct_sched", { id: "txn_s2", amountCents: 3_000, date: "2026-05-01" })
    await scan()
    await drainJobs(app)
    runs = await runsOf(owner, connection.id)
    expect(runs).toHaveLength(2)
    expect(runs[0]).toMatchObject({ trigger: "schedule", status: "succeeded", counts: { fetched: 1, posted: 1 } })
    expect(await entryCount(company.companyId)).toBe(2)

    const tooOften = await app.call("POST", `/v1/integrations/connections/${connection.id}/settings`, { token: company.ownerKey, body: { sync_interval_minutes: 5 } })
    expect(tooOften.status).toBeGreaterThanOrEqual(400)
    const daily = await app.call("POST", `/v1/integrations/connections/${connection.id}/settings`, { token: company.ownerKey, body: { sync_interval_minutes: 1440 } })
    expect(daily.body).toMatchObject({ sync_interval_minutes: 1440 })
    app.clock!.advance("2 hours")
    await scan()
    await drainJobs(app)
    expect(await runsOf(owner, connection.id)).toHaveLength(2)

    // Paused: no scheduled sync, however late.
    await app.call("POST", `/v1/integrations/connections/${connection.id}/settings`, { token: company.ownerKey, body: { paused: true } })
    app.clock!.advance("2 days")
    await scan()
    await drainJobs(app)
    expect(await runsOf(owner, connection.id)).toHaveLength(2)
    expect((await owner.get(`/v1/integrations/connections/${connection.id}`)).body.next_sync_at).toBeNull()
  })

  it("records a failed sync on the connection and emits integration.error; the next good sync clears it", async () => {
    const { company, owner, connection } = await connectProcessor("Failing Co", "acct_fail")
    // Events are kept only for an endpoint that wants them (ADR 0709): one that wants integration.error.
    await app.query(`INSERT INTO webhook_endpoints (company_id, event_types) VALUES ($1, ARRAY['integration.error'])`, [company.companyId])
    commerce.failNext()
    const asked = await owner.post(`/v1/integrations/connections/${connection.id}/sync`)
    await drainJobs(app)
    const failed = (await runsOf(owner, connection.id))[0]
    expect(failed).toMatchObject({ id: asked.body.id, status: "failed" })
    expect(failed.errors[0]).toContain("unavailable")
    const state = (await owner.get(`/v1/integrations/connections/${connection.id}`)).body
    expect(state.health).toBe("needs_attention")
    expect(state.last_error).toContain("unavailable")
    expect(state.last_error_at).not.toBeNull()
    const events = await app.query<{ payload: any }>(`SELECT payload FROM outbox_events WHERE company_id = $1 AND event_type = 'integration.error'`, [company.companyId])
    expect(events).toHaveLength(1)
    const payload = typeof events[0]!.payload === "string" ? JSON.parse(events[0]!.payload) : events[0]!.payload
    expect(payload).toMatchObject({ connection_id: connection.id, provider: "provider_a", sync_run_id: asked.body.id })

    commerce.addCharge("acct_fail", { id: "txn_f1", amountCents: 900, date: "2026-04-30" })
    await owner.post(`/v1/integrations/connections/${connection.id}/sync`)
    await drainJobs(app)
    const recovered = (await owner.get(`/v1/integrations/connections/${connection.id}`)).body
    expect(recovered).toMatchObject({ last_error: null, last_error_at: null, health: "ok", last_sync: { status: "succeeded" } })
    expect(await entryCount(company.companyId)).toBe(1)
  })
})
