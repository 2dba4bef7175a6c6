import { describe, expect, it } from "vitest"
import { createClient, IdempotencyKey } from "@ledger/client"
import type { TestLedger } from "@ledger/testkit"
import { testLedger } from "./support.ts"

interface Recorded {
  readonly request: string
  readonly status: number
  readonly headers: string
  readonly body: string
}

/**
 * One fixed script of requests through the SDK, recording every answer byte for byte: status,
 * headers and body text.
 */
const runScript = async (ledger: TestLedger): Promise<ReadonlyArray<Recorded>> => {
  const recorded: Array<Recorded> = []
  const fetch: typeof globalThis.fetch = async (input, init) => {
    const request = new Request(input, init)
    const requestText = `${request.method} ${new URL(request.url).pathname}${new URL(request.url).search} ${await request.clone().text()}`
    const response = await ledger.fetch(request)
    const body = await response.text()
    const headers = Array.from(response.headers.entries()).sort(([a], [b]) => a.localeCompare(b)).map(([name, value]) => `${name}: ${value}`).join("\n")
    recorded.push({ request: requestText, status: response.status, headers, body })
    return new Response(body, { status: response.status, headers: response.headers })
  }
  const keys = IdempotencyKey.sequential("determinism-script")
  const as = (token: string, agentModel?: string) =>
    createClient({ baseUrl: ledger.baseUrl, fetch, token, idempotencyKeys: keys, ...(agentModel === undefined ? {} : { agentModel, agentRunId: "run-1" }) })
  const attempt = <A>(promise: Promise<A>) => promise.then(() => undefined, () => undefined)

  const operator = as(ledger.operatorToken)
  const created = await operator.createCompany({ name: "Seeded Books", owner_name: "Ada", plan: "business" })
  const owner = as(created.secret)
  await owner.getMe()
  for (const [name, role] of [["Bo", "staff"], ["Cy", "accountant"], ["Di", "cpa"]] as const) await owner.createUser({ name, role })
  const agent = await owner.createAgent({ name: "Categorizer", scopes: ["read", "propose"], posting_threshold_cents: 50_00 })
  const agentKey = await owner.createKey({ principal_type: "agent", agent_id: agent.id, scopes: ["read", "propose"] })
  const agentClient = as(agentKey.secret, "model-x/2025-01")
  await agentClient.getMe()
  for await (const _ of owner.iterate("listUsers", { limit: 2 })) {
    // Walks every page; the pages are recorded.
  }
  await attempt(owner.getKey({ id: 987_654_321 }))
  await attempt(agentClient.createUser({ name: "Not allowed", role: "staff" }))
  ledger.clock.advance("1 day")
  await owner.rotateKey({ id: agentKey.key.id, overlap_seconds: 3_600 })
  await owner.listKeys({ include_ended: true })
  await attempt(owner.listAccounts({ include_balances: true }))
  // Under the agent's threshold it posts; over it, it waits for a person (governed path).
  for (const cents of [42_00, 420_00]) {
    await attempt(agentClient.proposeJournalEntry({
      entry_date: ledger.clock.today(),
      memo: "Office supplies",
      lines: [{ account: "6070", debit_cents: cents }, { account: "1010", credit_cents: cents }]
    }))
  }
  await owner.listAuditEvents({ limit: 100 })
  return recorded
}

describe("the same seed gives the same ledger", () => {
  it("two test ledgers with one seed answer one script with byte-identical responses", async () => {
    const first = await testLedger({ seed: 2_025 })
    const second = await testLedger({ seed: 2_025 })
    try {
      const a = await runScript(first)
      const b = await runScript(second)
      expect(a.length).toBeGreaterThan(15)
      expect(b).toEqual(a)
      // Not vacuous: the script saw ids, secrets and timestamps that a seed and a clock decide.
      const all = a.map((entry) => entry.body).join("\n")
      expect(all).toMatch(/"company_id":"[0-9a-f-]{36}"/)
      expect(all).toMatch(/"secret":"ldg_/)
      expect(all).toContain("2025-01-07T09:00:00.000Z")
    } finally {
      await first.close()
      await second.close()
    }
  }, 300_000)

  it("another seed gives other company ids and secrets", async () => {
    const first = await testLedger({ seed: 1 })
    const second = await testLedger({ seed: 2 })
    try {
      const [a, b] = await Promise.all([first.createCompany(), second.createCompany()])
      expect(a.companyId).not.toBe(b.companyId)
      expect(a.ownerKey).not.toBe(b.ownerKey)
    } finally {
      await first.close()
      await second.close()
    }
  })
})
