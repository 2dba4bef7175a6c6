import { afterAll, beforeAll, describe, expect, it } from "vitest"
import fc from "fast-check"
import { makeTestApp, newKey, subscribeToEvents, type TestApp, type TestCompany } from "../support/app.ts"
import { type Agent, createAgent, propose, simpleLines } from "./support.ts"

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

/** Every account's daily totals agree with its lines, and its monthly totals with its daily ones. */
const expectTotalsMatchLines = async (target: TestApp, company: TestCompany) => {
  const drift = await target.query(
    `SELECT coalesce(t.account_id, l.account_id) AS account_id FROM
       (SELECT account_id, day, debit_cents - credit_cents AS cents FROM account_daily_totals WHERE company_id = $1) t
     FULL JOIN
       (SELECT account_id, entry_date AS day, sum(amount_cents) AS cents FROM journal_lines WHERE company_id = $1
        GROUP BY account_id, entry_date) l
     ON t.account_id = l.account_id AND t.day = l.day
     WHERE t.cents IS DISTINCT FROM l.cents`,
    [company.companyId]
  )
  expect(drift).toEqual([])
  const monthly = await target.query(
    `SELECT m.account_id FROM account_monthly_totals m
     JOIN (SELECT account_id, date_trunc('month', day)::date AS month, sum(debit_cents) AS debit, sum(credit_cents) AS credit
           FROM account_daily_totals WHERE company_id = $1 GROUP BY 1, 2) d
       ON d.account_id = m.account_id AND d.month = m.month
     WHERE m.company_id = $1 AND (m.debit_cents <> d.debit OR m.credit_cents <> d.credit)`,
    [company.companyId]
  )
  expect(monthly).toEqual([])
}

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
    const agent: Agent = await createAgent(app, company, { thresholdCents: 10_000 })
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
  // its statement checks them (migration 0014) and the period trigger refuses a locked period.
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

  it("gives postings made one after another ids in the order they were made, whichever path posts them", async () => {
    const company = await app.createCompany({ name: "Ordered Ids Co", starter_chart: "general" })
    await app.call("POST", "/v1/classes", { token: company.ownerKey, key: newKey(), body: { name: "North" } })
    // A burst first, so that ids are drawn ahead; then postings one at a time, some with a class
    // (the governed path) and some without (a batch of one).
    for (const answer of await Promise.all(Array.from({ length: 8 }, (_, index) =>
      propose(app, company.ownerKey, { entry_date: date, lines: simpleLines("6070", "1010", 100 + index) })))) {
      expect(answer.status).toBe(201)
    }
    const ids: Array<number> = []
    for (let index = 0; index < 6; index++) {
      const lines = simpleLines("6100", "1010", 10 + index)
      const body = { entry_date: date, lines: index % 2 === 0 ? lines.map((line) => ({ ...line, class: "North" })) : lines }
      const answer = await propose(app, company.ownerKey, body)
      expect(answer.status).toBe(201)
      ids.push(answer.body.id)
    }
    expect(ids).toEqual([...ids].sort((left, right) => left - right))
  })

  it("answers every request of any concurrent mix once, as its kind asks, and posts each posting once", async () => {
    const company = await app.createCompany({ name: "Concurrent Mix Co", starter_chart: "general" })
    const agent = await createAgent(app, company, { thresholdCents: 5_000 })
    const kinds = ["post", "dry run", "unknown account", "agent over", "agent within", "same key"] as const
    const expected = { "post": 201, "dry run": 200, "unknown account": 422, "agent over": 202, "agent within": 201, "same key": 201 }
    await fc.assert(
      fc.asyncProperty(fc.array(fc.constantFrom(...kinds), { minLength: 1, maxLength: 24 }), async (mix) => {
        const before = Number((await app.query<{ count: string }>(
          `SELECT count(*) AS count FROM journal_entries WHERE company_id = $1`,
          [company.companyId]
        ))[0]!.count)
        const sharedKey = newKey()
        const answers = await Promise.all(mix.map((kind, index) => {
          const lines = simpleLines(kind === "unknown account" ? "9999" : "6070", "1010", kind === "agent over" ? 9_000 : 100 + index)
          const body = { entry_date: date, lines, ...(kind === "dry run" ? { dry_run: true } : {}) }
          if (kind === "agent over" || kind === "agent within") return propose(app, agent.key, body, { headers: agent.headers })
          if (kind === "same key") {
            return propose(app, company.ownerKey, { entry_date: date, lines: simpleLines("6100", "1010", 777) }, { key: sharedKey })
          }
          return propose(app, company.ownerKey, body)
        }))
        mix.forEach((kind, index) => expect({ kind, status: answers[index]!.status }).toEqual({ kind, status: expected[kind] }))
        const sameKey = answers.filter((_, index) => mix[index] === "same key")
        for (const answer of sameKey) expect(answer.body).toEqual(sameKey[0]!.body)
        const posted = mix.filter((kind) => kind === "post" || kind === "agent within").length + (sameKey.length > 0 ? 1 : 0)
        const after = Number((await app.query<{ count: string }>(
          `SELECT count(*) AS count FROM journal_entries WHERE company_id = $1`,
          [company.companyId]
        ))[0]!.count)
        expect(after - before).toBe(posted)
      }),
      { numRuns: 15, seed: 1123 }
    )
    await expectTotalsMatchLines(app, company)
  }, 120_000)

  it("stores and answers any sequence of postings exactly as the governed path alone does", async () => {
    /** A request of the sequence: a posting between two accounts, maybe unknown, maybe an agent's. */
    const request = fc.record({
      debit: fc.constantFrom(...codes, "9999"),
      credit: fc.constantFrom(...codes),
      cents: fc.integer({ min: 1, max: 50_000 }),
      memo: fc.option(fc.string({ maxLength: 40 }), { nil: undefined }),
      confidence: fc.option(fc.double({ min: 0, max: 1, noNaN: true }), { nil: undefined }),
      byAgent: fc.boolean(),
      day: fc.integer({ min: 1, max: 28 })
    })
    await fc.assert(
      fc.asyncProperty(fc.array(request, { minLength: 1, maxLength: 12 }), async (sequence) => {
        const run = async (target: TestApp) => {
          const company = await target.createCompany({ name: "Equivalence Co", starter_chart: "general" })
          const agent = await createAgent(target, company, { thresholdCents: 20_000 })
          const answers: Array<{ status: number; body: unknown }> = []
          for (const step of sequence) {
            const body = {
              entry_date: `2026-05-${String(step.day).padStart(2, "0")}`,
              lines: simpleLines(step.debit, step.credit, step.cents),
              ...(step.memo === undefined ? {} : { memo: step.memo }),
              ...(step.confidence === undefined ? {} : { confidence: step.confidence })
            }
            const answer = step.byAgent
              ? await propose(target, agent.key, body, { headers: agent.headers })
              : await propose(target, company.ownerKey, body)
            answers.push({ status: answer.status, body: answer.body })
          }
          const rows = async (text: string) => target.query(text, [company.companyId])
          return {
            company,
            answers,
            entries: await rows(`SELECT entry_date::text, memo, total_cents, source_kind, confidence, posted_by_type,
              posted_by_name, agent_model, soft_lock_override_reason FROM journal_entries WHERE company_id = $1 ORDER BY id`),
            lines: await rows(`SELECT l.line_no, a.code, l.amount_cents, l.memo, l.entry_date::text FROM journal_lines l
              JOIN accounts a ON a.company_id = l.company_id AND a.id = l.account_id WHERE l.company_id = $1 ORDER BY l.entry_id, l.line_no`),
            totals: await rows(`SELECT a.code, t.day::text, t.debit_cents, t.credit_cents FROM account_daily_totals t
              JOIN accounts a ON a.company_id = t.company_id AND a.id = t.account_id WHERE t.company_id = $1 ORDER BY a.code, t.day`),
            audit: await rows(`SELECT action, outcome, status, error_type, principal_type, target_type, via,
              details - 'idempotency_key' AS details FROM audit_events WHERE company_id = $1 AND action = 'proposeJournalEntry' ORDER BY id`),
            events: await rows(`SELECT event_type, payload - 'entry_id' - 'proposal_id' AS payload FROM outbox_events
              WHERE company_id = $1 ORDER BY id`)
          }
        }
        const [grouped, single] = [await run(app), await run(alone)]
        // Ids differ between the two ledgers (and a batch draws an id for a request it leaves to
        // the governed path): compare everything else.
        const withoutIds = (value: unknown): unknown =>
          JSON.parse(JSON.stringify(value, (key, item) =>
            ["id", "entry_id", "proposal_id", "created_at", "posted_at", "company_id"].includes(key) ? undefined : item))
        expect(withoutIds(grouped.answers)).toEqual(withoutIds(single.answers))
        expect(grouped.entries).toEqual(single.entries)
        expect(grouped.lines).toEqual(single.lines)
        expect(grouped.totals).toEqual(single.totals)
        expect(grouped.audit).toEqual(single.audit)
        expect(withoutIds(grouped.events)).toEqual(withoutIds(single.events))
      }),
      { numRuns: 6, seed: 20261123 }
    )
  }, 120_000)
})
