import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { agentWithThreshold, makeTestApp, newKey, subscribeToEvents, type TestApp, type TestCompany } from "../support/index.ts"
import { propose, simpleLines, today } from "./support.ts"

let app: TestApp
beforeAll(async () => {
  app = await makeTestApp()
})
afterAll(() => app.close())

const post = (company: TestCompany, path: string, body: unknown, headers?: Record<string, string>, token = company.ownerKey) =>
  app.call("POST", path, { token, key: newKey(), body, ...(headers === undefined ? {} : { headers }) })

describe("periods", () => {
  let company: TestCompany
  beforeAll(async () => {
    company = await app.createCompany({ name: "Periods Co", periods: false })
    await subscribeToEvents(app, company)
  })

  it("creates periods that never overlap and are at most a year long", async () => {
    const created = await post(company, "/v1/periods", { start_date: "2024-01-01", end_date: "2024-03-31" })
    expect(created.status).toBe(201)
    expect(created.body).toMatchObject({ start_date: "2024-01-01", end_date: "2024-03-31", status: "open", fiscal_year: 2024 })
    const overlap = await post(company, "/v1/periods", { start_date: "2024-03-31", end_date: "2024-04-30" })
    expect(overlap.status).toBe(409)
    expect(overlap.body.error.details.overlapping_period_ids).toEqual([created.body.id])
    const backwards = await post(company, "/v1/periods", { start_date: "2024-05-01", end_date: "2024-04-30" })
    expect(backwards.status).toBe(422)
    const long = await post(company, "/v1/periods", { start_date: "2024-04-01", end_date: "2025-04-02" })
    expect(long.status).toBe(422)
    const notADate = await post(company, "/v1/periods", { start_date: "2024-02-30", end_date: "2024-03-01" })
    expect(notADate.status).toBe(400)
  })

  it("creates a fiscal year's missing months, around existing periods", async () => {
    const year = await post(company, "/v1/fiscal-years/periods", { fiscal_year: 2024 })
    expect(year.status).toBe(201)
    expect(year.body).toMatchObject({ fiscal_year: 2024, start_date: "2024-01-01", end_date: "2024-12-31" })
    expect(year.body.created.map((period: { start_date: string }) => period.start_date)).toEqual([
      "2024-04-01", "2024-05-01", "2024-06-01", "2024-07-01", "2024-08-01", "2024-09-01", "2024-10-01", "2024-11-01", "2024-12-01"
    ])
    expect(year.body.periods).toHaveLength(10)
    const again = await post(company, "/v1/fiscal-years/periods", { fiscal_year: 2024 })
    expect(again.body.created).toHaveLength(0)
    const listed = await app.call("GET", "/v1/periods?fiscal_year=2024&limit=4", { token: company.ownerKey })
    expect(listed.body.data).toHaveLength(4)
    expect(listed.body.has_more).toBe(true)
    const rest = await app.call("GET", `/v1/periods?fiscal_year=2024&cursor=${listed.body.next_cursor}`, { token: company.ownerKey })
    expect(rest.body.data.map((period: { start_date: string }) => period.start_date)[0]).toBe("2024-07-01")
    expect(rest.body.data).toHaveLength(6)
  })

  it("moves statuses as spec 3.2 says, emitting period.status_changed", async () => {
    const [first] = (await app.call("GET", "/v1/periods?limit=1", { token: company.ownerKey })).body.data
    const soft = await post(company, `/v1/periods/${first.id}/status`, { status: "soft_locked", reason: "Q1 review" })
    expect(soft.status).toBe(200)
    expect(soft.body).toMatchObject({ status: "soft_locked", status_reason: "Q1 review" })
    const hard = await post(company, `/v1/periods/${first.id}/status`, { status: "hard_locked" })
    expect(hard.body.status).toBe("hard_locked")
    const toSoft = await post(company, `/v1/periods/${first.id}/status`, { status: "soft_locked", reason: "Oops" })
    expect(toSoft.status).toBe(422)
    expect(toSoft.body.error.type).toBe("invalid_period_transition")
    const noReason = await post(company, `/v1/periods/${first.id}/status`, { status: "open" })
    expect(noReason.status).toBe(422)
    expect(noReason.body.error.details.issues[0].path).toEqual(["body", "reason"])
    const agent = await agentWithThreshold(app, company, { thresholdCents: 0, scopes: ["read", "propose", "approve", "admin"] })
    const byAgent = await post(company, `/v1/periods/${first.id}/status`, { status: "open", reason: "Agent wants it" }, agent.headers, agent.key)
    expect(byAgent.status).toBe(403)
    expect(byAgent.body.error.type).toBe("insufficient_scope")
    const reopened = await post(company, `/v1/periods/${first.id}/status`, { status: "open", reason: "Audit adjustment" })
    expect(reopened.status).toBe(200)
    expect(reopened.body.status).toBe("open")
    // Agents with admin may lock; only reopening a hard lock is a person's act.
    const agentLocks = await post(company, `/v1/periods/${first.id}/status`, { status: "hard_locked", reason: "Agent closes" }, agent.headers, agent.key)
    expect(agentLocks.status).toBe(200)
    const events = await app.query<{ payload: any }>(
      `SELECT payload FROM outbox_events WHERE company_id = $1 AND event_type = 'period.status_changed' ORDER BY id`,
      [company.companyId]
    )
    const moves = events.map((event) => (typeof event.payload === "string" ? JSON.parse(event.payload) : event.payload))
      .filter((payload) => payload.period_id === first.id)
      .map((payload) => `${payload.from}->${payload.to}`)
    expect(moves).toEqual(["open->soft_locked", "soft_locked->hard_locked", "hard_locked->open", "open->hard_locked"])
  })

  it("locks and reopens a whole fiscal year, all or none, auditing each period", async () => {
    const locked = await post(company, "/v1/fiscal-years/status", { fiscal_year: 2024, status: "hard_locked", reason: "Year end" })
    expect(locked.status).toBe(200)
    expect(locked.body.periods.every((period: { status: string }) => period.status === "hard_locked")).toBe(true)
    expect(locked.body.changed).toHaveLength(9)
    const perPeriod = await app.query<{ count: string }>(
      `SELECT count(*) AS count FROM audit_events WHERE company_id = $1 AND action = 'period.status_changed'`,
      [company.companyId]
    )
    expect(Number(perPeriod[0]!.count)).toBe(9)
    const fiscalStart = await post(company, "/v1/company/fiscal-year", { start_month: 7, reason: "New year end" })
    expect(fiscalStart.status).toBe(422)
    expect(fiscalStart.body.error.type).toBe("period_hard_locked")
    const soft = await post(company, "/v1/fiscal-years/status", { fiscal_year: 2024, status: "soft_locked", reason: "No" })
    expect(soft.status).toBe(422)
    expect((await app.call("GET", "/v1/periods?status=hard_locked&limit=100", { token: company.ownerKey })).body.data).toHaveLength(10)
    // Issue 38 item 8: a lock made here carries its reason and the owner's stamp; neither is a reopening's.
    const fromSql = await app.query(`UPDATE periods SET status = 'open' WHERE company_id = $1 AND status = 'hard_locked'`, [company.companyId])
      .then(() => "accepted", (error: unknown) => {
        // The SQLSTATE, wherever the client's error wraps it.
        for (let cause: any = error; cause !== null && typeof cause === "object"; cause = cause.cause) {
          if (typeof cause.code === "string") return cause.code as string
        }
        return String(error)
      })
    expect(fromSql).toBe("LD011")
    const sameReason = await post(company, "/v1/fiscal-years/status", { fiscal_year: 2024, status: "open", reason: "Year end" })
    expect(sameReason.status).toBe(422)
    expect(sameReason.body.error.details.issues[0].path).toEqual(["body", "reason"])
    expect((await app.call("GET", "/v1/periods?status=hard_locked&limit=100", { token: company.ownerKey })).body.data).toHaveLength(10)
    const reopened = await post(company, "/v1/fiscal-years/status", { fiscal_year: 2024, status: "open", reason: "Restatement" })
    expect(reopened.status).toBe(200)
    expect(reopened.body.changed).toHaveLength(10)
    const empty = await post(company, "/v1/fiscal-years/status", { fiscal_year: 2030, status: "open" })
    expect(empty.status).toBe(422)
    expect(empty.body.error.type).toBe("period_not_found")
    expect((await post(company, "/v1/company/fiscal-year", { start_month: 7, reason: "New year end" })).status).toBe(200)
  })

  it("names fiscal years by the calendar year they end", async () => {
    const july = await app.createCompany({ name: "July Co", periods: false })
    expect((await post(july, "/v1/company/fiscal-year", { start_month: 7 })).status).toBe(200)
    const year = await post(july, "/v1/fiscal-years/periods", { fiscal_year: 2025 })
    expect(year.body).toMatchObject({ start_date: "2024-07-01", end_date: "2025-06-30" })
    expect(year.body.created[0]).toMatchObject({ start_date: "2024-07-01", end_date: "2024-07-31", fiscal_year: 2025 })
    expect(year.body.created[7]).toMatchObject({ start_date: "2025-02-01", end_date: "2025-02-28" })
  })

  it("creates this fiscal year's and the next one's months with a new company", async () => {
    const fresh = await app.createCompany({ name: "Fresh Co" })
    const periods = (await app.call("GET", "/v1/periods?limit=100", { token: fresh.ownerKey })).body.data
    expect(periods).toHaveLength(24)
    const year = Number(today().slice(0, 4))
    expect(periods[0].start_date).toBe(`${year}-01-01`)
    expect(periods[23].end_date).toBe(`${year + 1}-12-31`)
  })
})

describe("periods on the governed path", () => {
  let lockedCompany: TestCompany
  let periods: Array<{ id: number; start_date: string; end_date: string; status: string }>
  beforeAll(async () => {
    lockedCompany = await app.createCompany({ name: "Locks Co" })
    periods = (await app.call("GET", "/v1/periods?limit=100", { token: lockedCompany.ownerKey })).body.data
  })

  const lock = async (periodId: number, status: string, reason?: string) => {
    const result = await app.call("POST", `/v1/periods/${periodId}/status`, {
      token: lockedCompany.ownerKey,
      key: newKey(),
      body: { status, ...(reason === undefined ? {} : { reason }) }
    })
    expect(result.status).toBe(200)
    return result.body
  }

  it("refuses a hard-locked date for everyone, even with a reason", async () => {
    const period = periods[0]!
    await lock(period.id, "hard_locked")
    const result = await propose(app, lockedCompany.ownerKey, {
      entry_date: period.start_date,
      lines: simpleLines("6070", "1010", 100),
      soft_lock_override_reason: "Please"
    })
    expect(result.status).toBe(422)
    expect(result.body.error.type).toBe("period_hard_locked")
    const preview = await propose(app, lockedCompany.ownerKey, {
      entry_date: period.start_date,
      lines: simpleLines("6070", "1010", 100),
      dry_run: true
    }, { key: null })
    expect(preview.status).toBe(200)
    expect(preview.body.verdict).toBe("refuse")
    expect(preview.body.reasons.map((reason: { type: string }) => reason.type)).toEqual(["period_hard_locked"])
  })

  it("posts into a soft-locked date only with a reason, which is recorded", async () => {
    const period = periods[1]!
    await lock(period.id, "soft_locked", "Closing")
    const without = await propose(app, lockedCompany.ownerKey, { entry_date: period.end_date, lines: simpleLines("6070", "1010", 100) })
    expect(without.status).toBe(422)
    expect(without.body.error.type).toBe("soft_lock_reason_required")
    const withReason = await propose(app, lockedCompany.ownerKey, {
      entry_date: period.end_date,
      lines: simpleLines("6070", "1010", 100),
      soft_lock_override_reason: "Late supplier invoice"
    })
    expect(withReason.status).toBe(201)
    expect(withReason.body.soft_lock_override_reason).toBe("Late supplier invoice")
    const stored = await app.call("GET", `/v1/journal-entries/${withReason.body.id}`, { token: lockedCompany.ownerKey })
    expect(stored.body.soft_lock_override_reason).toBe("Late supplier invoice")
    const audit = await app.query<{ reason: string }>(
      `SELECT reason FROM audit_events WHERE company_id = $1 AND action = 'proposeJournalEntry' AND target_id = $2`,
      [lockedCompany.companyId, String(withReason.body.id)]
    )
    expect(audit.map((row) => row.reason)).toEqual(["Late supplier invoice"])
  })

  it("re-checks the period when a proposal is approved", async () => {
    const agentOfLocked = await agentWithThreshold(app, lockedCompany, { thresholdCents: 0 })
    const period = periods[2]!
    const queued = await propose(app, agentOfLocked.key, { entry_date: period.start_date, lines: simpleLines("6070", "1010", 700) }, {
      headers: agentOfLocked.headers
    })
    expect(queued.status).toBe(202)
    await lock(period.id, "hard_locked")
    const refused = await app.call("POST", `/v1/proposals/${queued.body.proposal.id}/approve`, {
      token: lockedCompany.ownerKey,
      key: newKey(),
      body: {}
    })
    expect(refused.status).toBe(422)
    expect(refused.body.error.type).toBe("period_hard_locked")
    expect((await app.call("GET", `/v1/proposals/${queued.body.proposal.id}`, { token: lockedCompany.ownerKey })).body.status).toBe("pending")
    const toSoft = await app.call("POST", `/v1/periods/${period.id}/status`, {
      token: lockedCompany.ownerKey,
      key: newKey(),
      body: { status: "soft_locked", reason: "Only reopening is allowed" }
    })
    expect(toSoft.status).toBe(422)
    expect(toSoft.body.error.type).toBe("invalid_period_transition")
    await lock(period.id, "open", "Late approval")
    await lock(period.id, "soft_locked", "Closing again")
    const withoutReason = await app.call("POST", `/v1/proposals/${queued.body.proposal.id}/approve`, {
      token: lockedCompany.ownerKey,
      key: newKey(),
      body: {}
    })
    expect(withoutReason.status).toBe(422)
    expect(withoutReason.body.error.type).toBe("soft_lock_reason_required")
    const approved = await app.call("POST", `/v1/proposals/${queued.body.proposal.id}/approve`, {
      token: lockedCompany.ownerKey,
      key: newKey(),
      body: { reason: "Approved after the soft close" }
    })
    expect(approved.status).toBe(201)
    const entry = await app.call("GET", `/v1/journal-entries/${approved.body.entry_id}`, { token: lockedCompany.ownerKey })
    expect(entry.body).toMatchObject({ soft_lock_override_reason: "Approved after the soft close", proposal_id: queued.body.proposal.id })
  })
})
