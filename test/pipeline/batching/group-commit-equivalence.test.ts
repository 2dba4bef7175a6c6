import { afterAll, beforeAll, describe, expect, it } from "vitest"
import fc from "fast-check"
import { agentWithThreshold, expectTotalsMatchLines, makeTestApp, newKey, type TestApp } from "../../support/index.ts"
import { propose, simpleLines } from "../../support/postings.ts"

/**
 * Group commit's equivalence (docs/decisions/0705-group-commit.md): whatever the mix and order of
 * concurrent requests, each is stored and answered exactly as when it posts alone on the governed
 * path (the app with `groupCommit: false`).
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

describe("group commit, equivalent to the governed path", () => {
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
    const agent = await agentWithThreshold(app, company, { thresholdCents: 5_000 })
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
          const agent = await agentWithThreshold(target, company, { thresholdCents: 20_000 })
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
