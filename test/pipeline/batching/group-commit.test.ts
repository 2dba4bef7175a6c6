import { afterAll, beforeAll, describe, expect, it } from "vitest"
import {
  type Agent,
  agentWithThreshold,
  expectTotalsMatchLines,
  makeTestApp,
  newKey,
  subscribeToEvents,
  type TestApp,
  type TestCompany
} from "../../support/index.ts"
import { propose, simpleLines } from "../../support/postings.ts"

/**
 * Group commit (docs/decisions/0705-group-commit.md): concurrent postings commit together, and
 * each is stored and answered exactly as when it posts alone on the governed path.
 */

let app: TestApp
let alone: TestApp
beforeAll(async () => {
  app = await makeTestApp()
  alone = await makeTestApp({ groupCommit: false })
})
afterAll(async () => {
  await app?.close()
  await alone?.close()
})

const date = "2026-03-14"
const codes = ["1000", "1010", "1020", "2100", "4000", "6070", "6100"]

/** How many transactions committed the company's entries: entries of one batch share one. */
const transactionsOf = async (target: TestApp, company: TestCompany) =>
  Number((await target.query<{ count: string }>(
    `SELECT count(DISTINCT xmin::text) AS count FROM journal_entries WHERE company_id = $1`,
    [company.companyId]
  ))[0]!.count)


describe("group commit", () => {
  it("commits concurrent postings together, each stored, audited, announced and replayed as alone", async () => {
    const company = await app.createCompany({ name: "Group Commit Co", starter_chart: "general" })
    await subscribeToEvents(app, company)
    const count = 48
    const requests = Array.from({ length: count }, (_, index) => ({
      key: newKey(),
      body: {
        entry_date: date,
        memo: `Batch ${index}`,
        lines: simpleLines(codes[index % codes.length]!, codes[(index + 1) % codes.length]!, 100 + index),
        ...(index % 3 === 0 ? { confidence: 0.75 } : {})
      }
    }))
    const answers = await Promise.all(requests.map((request) => propose(app, company.ownerKey, request.body, { key: request.key })))
    for (const answer of answers) expect(answer.status).toBe(201)
    // Fewer transactions than postings: they did commit together.
    expect(await transactionsOf(app, company)).toBeLessThan(count)

    for (const [index, answer] of answers.entries()) {
      const stored = await app.call("GET", `/v1/journal-entries/${answer.body.id}`, { token: company.ownerKey })
      expect(stored.body).toEqual(answer.body)
      expect(answer.body.memo).toBe(`Batch ${index}`)
      expect(answer.body.total_cents).toBe(100 + index)
      expect(answer.body.confidence).toBe(index % 3 === 0 ? 0.75 : null)
      const replay = await propose(app, company.ownerKey, requests[index]!.body, { key: requests[index]!.key })
      expect(replay.headers.get("idempotent-replayed")).toBe("true")
      expect(replay.body).toEqual(answer.body)
    }
    const ids = answers.map((answer) => answer.body.id as number)
    // Every posting has its own entry.
    expect(new Set(ids).size).toBe(count)

    const audit = await app.query<{ target_id: string; details: { idempotency_key: string; verdict: string } }>(
      `SELECT target_id, details FROM audit_events WHERE company_id = $1 AND action = 'proposeJournalEntry'`,
      [company.companyId]
    )
    expect(audit.map((event) => Number(event.target_id)).sort((a, b) => a - b)).toEqual([...ids].sort((a, b) => a - b))
    expect(new Set(audit.map((event) => event.details.idempotency_key))).toEqual(new Set(requests.map((request) => request.key)))
    const events = await app.query<{ payload: { entry_id: number } }>(
      `SELECT payload FROM outbox_events WHERE company_id = $1 AND event_type = 'entry.posted'`,
      [company.companyId]
    )
    expect(events.map((event) => event.payload.entry_id).sort((a, b) => a - b)).toEqual([...ids].sort((a, b) => a - b))
    await expectTotalsMatchLines(app, company)
  })

  it("answers every other request of a batch as the governed path does: refusals, proposals, dry runs, keys reused", async () => {
    const company = await app.createCompany({ name: "Mixed Batch Co", starter_chart: "general" })
    const agent: Agent = await agentWithThreshold(app, company, { thresholdCents: 10_000 })
    const shared = newKey()
    const reused = newKey()
    const cases = [
      { expect: 201, token: company.ownerKey, body: { entry_date: date, lines: simpleLines("6070", "1010", 500) } },
      { expect: 422, type: "unknown_account", token: company.ownerKey, body: { entry_date: date, lines: simpleLines("9999", "1010", 500) } },
      {
        expect: 422,
        type: "unbalanced_entry",
        token: company.ownerKey,
        body: { entry_date: date, lines: [{ account: "6070", debit_cents: 5 }, { account: "1010", credit_cents: 4 }] }
      },
      { expect: 201, token: agent.key, headers: agent.headers, body: { entry_date: date, lines: simpleLines("6070", "1010", 9_999) } },
      { expect: 202, token: agent.key, headers: agent.headers, body: { entry_date: date, lines: simpleLines("6070", "1010", 10_001) } },
      { expect: 200, token: company.ownerKey, body: { entry_date: date, dry_run: true, lines: simpleLines("6070", "1010", 700) } },
      { expect: 201, token: company.ownerKey, key: shared, body: { entry_date: date, lines: simpleLines("6100", "1010", 800) } },
      { expect: 201, token: company.ownerKey, key: shared, body: { entry_date: date, lines: simpleLines("6100", "1010", 800) } },
      { expect: 201, token: company.ownerKey, key: reused, body: { entry_date: date, lines: simpleLines("6100", "1010", 900) } },
      { expect: 201, token: company.ownerKey, body: { entry_date: date, lines: simpleLines("1020", "4000", 1_000) } }
    ] as const
    const answers = await Promise.all(cases.map((entry) =>
      propose(app, entry.token, entry.body, {
        ...("key" in entry ? { key: entry.key } : {}),
        ...("headers" in entry ? { headers: entry.headers } : {})
      })
    ))
    for (const [index, entry] of cases.entries()) {
      expect({ index, status: answers[index]!.status }).toEqual({ index, status: entry.expect })
      if ("type" in entry) expect(answers[index]!.body.error.type).toBe(entry.type)
    }
    // The two requests under one key posted once; one of them is the other's replay.
    expect(answers[6]!.body).toEqual(answers[7]!.body)
    expect([answers[6]!.headers.get("idempotent-replayed"), answers[7]!.headers.get("idempotent-replayed")].sort())
      .toEqual([null, "true"])
    // The key reused with another body afterwards is a conflict.
    const conflict = await propose(app, company.ownerKey, { entry_date: date, lines: simpleLines("6100", "1010", 901) }, { key: reused })
    expect(conflict.status).toBe(409)
    const entries = await app.query<{ count: string }>(`SELECT count(*) AS count FROM journal_entries WHERE company_id = $1`, [company.companyId])
    expect(Number(entries[0]!.count)).toBe(5)
    await expectTotalsMatchLines(app, company)
  })

  it("posts one entry for many concurrent requests under one key, and every one answers it", async () => {
    const company = await app.createCompany({ name: "One Key Co", starter_chart: "general" })
    await subscribeToEvents(app, company)
    const key = newKey()
    const body = { entry_date: date, lines: simpleLines("6070", "1010", 4_200) }
    const answers = await Promise.all(Array.from({ length: 12 }, () => propose(app, company.ownerKey, body, { key })))
    for (const answer of answers) {
      expect(answer.status).toBe(201)
      expect(answer.body).toEqual(answers[0]!.body)
    }
    expect(answers.filter((answer) => answer.headers.get("idempotent-replayed") === null)).toHaveLength(1)
    const entries = await app.query<{ count: string }>(`SELECT count(*) AS count FROM journal_entries WHERE company_id = $1`, [company.companyId])
    expect(Number(entries[0]!.count)).toBe(1)
    const events = await app.query<{ count: string }>(`SELECT count(*) AS count FROM outbox_events WHERE company_id = $1`, [company.companyId])
    expect(Number(events[0]!.count)).toBe(1)
  })

  // A period locked between a batch's read and its write is refused by the database and the batch
  // runs alone: test/ledger/concurrency.test.ts interleaves that on PostgreSQL.
  it("leaves a posting into a locked period to the governed path, which refuses it and writes nothing", async () => {
    const company = await app.createCompany({ name: "Locked Meanwhile Co", starter_chart: "general" })
    const periods = (await app.call("GET", "/v1/periods?limit=100", { token: company.ownerKey })).body.data as Array<{
      id: number
      start_date: string
      end_date: string
    }>
    const period = periods.find((candidate) => candidate.start_date <= date && date <= candidate.end_date)!
    // The batch reads the period locked and leaves the request to the governed path.
    await app.query(`UPDATE periods SET status = 'hard_locked' WHERE company_id = $1 AND id = $2`, [company.companyId, period.id])
    const refused = await propose(app, company.ownerKey, { entry_date: date, lines: simpleLines("6070", "1010", 100) })
    expect(refused.status).toBe(422)
    expect(refused.body.error.type).toBe("period_hard_locked")
    const entries = await app.query<{ count: string }>(`SELECT count(*) AS count FROM journal_entries WHERE company_id = $1`, [company.companyId])
    expect(Number(entries[0]!.count)).toBe(0)
  })

  // A batch may post with accounts and periods remembered from earlier batches (BatchCharts.ts);
  // its statement checks them (ledger_batch_charts_current, ADR 0712) and the period trigger refuses a locked period.
  // Over HTTP which batch recalls and which reads is up to timing (test/ledger/batch-charts.test.ts
  // drives the writer itself): whichever it is, every answer follows the chart as it is now.
  it("sees a chart changed since earlier batches: renames, deactivations, locks and unlocks", async () => {
    const company = await app.createCompany({ name: "Remembered Charts Co", starter_chart: "general" })
    const round = async (count: number, body: (index: number) => Record<string, unknown> = (index) => ({
      entry_date: date,
      lines: simpleLines("6070", "1010", 100 + index)
    })) => Promise.all(Array.from({ length: count }, (_, index) => propose(app, company.ownerKey, body(index))))
    const entryCount = async () => Number((await app.query<{ count: string }>(
      `SELECT count(*) AS count FROM journal_entries WHERE company_id = $1`,
      [company.companyId]
    ))[0]!.count)
    const update = (code: string, body: Record<string, unknown>) =>
      app.call("POST", `/v1/accounts/${code}/update`, { token: company.ownerKey, key: newKey(), body })
    const nameOn6070 = (answer: { body: { lines: Array<{ account: string; account_name: string }> } }) =>
      answer.body.lines.find((line) => line.account === "6070")!.account_name

    for (let warm = 0; warm < 3; warm++) for (const answer of await round(8)) expect(answer.status).toBe(201)

    expect((await update("6070", { name: "Renamed Meanwhile" })).status).toBe(200)
    const renamed = await round(8)
    for (const answer of renamed) {
      expect(answer.status).toBe(201)
      expect(nameOn6070(answer)).toBe("Renamed Meanwhile")
      const stored = await app.call("GET", `/v1/journal-entries/${answer.body.id}`, { token: company.ownerKey })
      expect(stored.body).toEqual(answer.body)
    }
    for (const answer of await round(8)) expect(nameOn6070(answer)).toBe("Renamed Meanwhile")

    expect((await update("6070", { active: false, reason: "Merged" })).status).toBe(200)
    const before = await entryCount()
    for (const answer of await round(8)) {
      expect(answer.status).toBe(422)
      expect(answer.body.error.type).toBe("inactive_account")
    }
    expect(await entryCount()).toBe(before)
    expect((await update("6070", { active: true, reason: "Back" })).status).toBe(200)
    for (const answer of await round(8)) expect(answer.status).toBe(201)

    const periods = (await app.call("GET", "/v1/periods?limit=100", { token: company.ownerKey })).body.data as Array<{
      id: number
      start_date: string
      end_date: string
    }>
    const period = periods.find((candidate) => candidate.start_date <= date && date <= candidate.end_date)!
    const status = (body: Record<string, unknown>) =>
      app.call("POST", `/v1/periods/${period.id}/status`, { token: company.ownerKey, key: newKey(), body })
    expect((await status({ status: "soft_locked", reason: "Review" })).status).toBe(200)
    const locked = await entryCount()
    for (const answer of await round(8)) {
      expect(answer.status).toBe(422)
      expect(answer.body.error.type).toBe("soft_lock_reason_required")
    }
    expect(await entryCount()).toBe(locked)
    const overridden = await round(8, (index) => ({
      entry_date: date,
      soft_lock_override_reason: "Late invoice",
      lines: simpleLines("6070", "1010", 500 + index)
    }))
    for (const answer of overridden) expect(answer.body.soft_lock_override_reason).toBe("Late invoice")
    expect((await status({ status: "open", reason: "Done" })).status).toBe(200)
    for (const answer of await round(8)) {
      expect(answer.status).toBe(201)
      expect(answer.body.soft_lock_override_reason).toBeNull()
    }
    await expectTotalsMatchLines(app, company)
  })
})
