import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { createAgent, createKey, makeTestApp, newKey, type TestApp, type TestCompany } from "../support/index.ts"
import { scale } from "./scale.ts"

/**
 * The idempotency storm (issue 19 item 15): many keys, each sent several times at once by an owner
 * and an agent, all interleaved. Whatever the order, each key makes exactly one entry, every answer
 * to a key is the same answer, and the books stay balanced with one audit event per entry.
 */

let app: TestApp
let company: TestCompany
beforeAll(async () => {
  app = await makeTestApp()
  company = await app.createCompany({ name: "Storm Co" })
}, 120_000)
afterAll(() => app?.close())

const shuffle = <A>(items: Array<A>, seed: number): Array<A> => {
  let state = seed
  for (let index = items.length - 1; index > 0; index--) {
    state = (state * 1_103_515_245 + 12_345) % 2_147_483_648
    const other = state % (index + 1)
    ;[items[index], items[other]] = [items[other]!, items[index]!]
  }
  return items
}

describe("idempotency storm", () => {
  it("makes one entry per key, answers every retry alike, and keeps the books balanced", async () => {
    // An agent that posts (its threshold is above every amount here) beside the owner.
    const agentRecord = await createAgent(app, company.ownerKey, { scopes: ["read", "propose"], posting_threshold_cents: 1_000_000 })
    const agent = { key: await createKey(app, company.ownerKey, { principal_type: "agent", agent_id: agentRecord.id, scopes: ["read", "propose"] }) }
    const keys = Array.from({ length: scale.stormKeys }, (_, index) => ({
      key: newKey(),
      token: index % 2 === 0 ? company.ownerKey : agent.key.secret,
      cents: 100 + index
    }))
    const sends = shuffle(keys.flatMap((entry) => Array.from({ length: scale.stormRetries }, () => entry)), 7)
    const started = performance.now()
    const answers = await Promise.all(sends.map(async (entry) => {
      const result = await app.call("POST", "/v1/journal-entries/propose", {
        token: entry.token,
        key: entry.key,
        headers: { "x-agent-model": "storm-model" },
        body: { entry_date: "2026-03-01", memo: `storm ${entry.key}`, lines: [{ account: "1010", debit_cents: entry.cents }, { account: "4000", credit_cents: entry.cents }] }
      })
      return { key: entry.key, status: result.status, body: JSON.stringify(result.body) }
    }))
    const seconds = (performance.now() - started) / 1000
    console.log(`idempotency storm: ${scale.stormKeys} keys x ${scale.stormRetries} sends = ${sends.length} requests in ${seconds.toFixed(1)} s`)

    // Every answer is a success or "in progress, retry" (409 idempotency_in_progress), never a
    // second change; the successes of one key are byte for byte the same.
    const byKey = new Map<string, Set<string>>()
    for (const answer of answers) {
      expect([201, 409]).toContain(answer.status)
      if (answer.status === 409) expect(answer.body).toContain("idempotency_in_progress")
      if (answer.status === 201) byKey.set(answer.key, (byKey.get(answer.key) ?? new Set()).add(answer.body))
    }
    for (const bodies of byKey.values()) expect(bodies.size).toBe(1)
    // Keys whose every send met "in progress" get their answer on a calm retry.
    for (const entry of keys.filter((candidate) => !byKey.has(candidate.key))) {
      const retried = await app.call("POST", "/v1/journal-entries/propose", {
        token: entry.token,
        key: entry.key,
        headers: { "x-agent-model": "storm-model" },
        body: { entry_date: "2026-03-01", memo: `storm ${entry.key}`, lines: [{ account: "1010", debit_cents: entry.cents }, { account: "4000", credit_cents: entry.cents }] }
      })
      expect(retried.status).toBe(201)
    }

    const entries = await app.query<{ count: string }>(
      "SELECT count(*) AS count FROM journal_entries WHERE company_id = $1 AND memo LIKE 'storm %'", [company.companyId])
    expect(Number(entries[0]!.count)).toBe(scale.stormKeys)
    const unbalanced = await app.query(
      `SELECT e.id FROM journal_entries e JOIN journal_lines l ON l.company_id = e.company_id AND l.entry_id = e.id
        WHERE e.company_id = $1 GROUP BY e.id HAVING sum(l.amount_cents) <> 0`, [company.companyId])
    expect(unbalanced).toEqual([])
    const audited = await app.query<{ count: string }>(
      "SELECT count(*) AS count FROM audit_events WHERE company_id = $1 AND action = 'proposeJournalEntry' AND status = 201", [company.companyId])
    expect(Number(audited[0]!.count)).toBe(scale.stormKeys)
  }, 600_000)
})
