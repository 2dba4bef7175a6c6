import type { Client } from "@modelcontextprotocol/sdk/client/index.js"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { agentWithThreshold, connectMcp, makeTestApp, newKey, type TestApp, type TestCompany } from "../support/index.ts"

/**
 * Refusals that name the next step exactly (issue 40 item 4): the field that is missing or not
 * accepted, the scope a step needs, the period to reopen and who may reopen it. The hint is read
 * from the error body's own details; the body itself stays the API's.
 */

let app: TestApp
let company: TestCompany
let agent: Client
let januaryId: number
beforeAll(async () => {
  app = await makeTestApp({ clock: "2026-02-03T09:00:00Z" })
  company = await app.createCompany({ name: "Hints Co" })
  const made = await agentWithThreshold(app, company, { thresholdCents: 100_000 })
  agent = await connectMcp(app, made.key, made.headers)
  const periods = (await app.call("GET", "/v1/periods?limit=100", { token: company.ownerKey })).body.data
  januaryId = periods.find((period: { start_date: string }) => period.start_date === "2026-01-01").id
}, 120_000)
afterAll(async () => {
  await agent?.close()
  await app?.close()
})

const lines = [{ account: "6070", debit_cents: 5_000 }, { account: "1010", credit_cents: 5_000 }]
const hintOf = async (name: string, args: Record<string, unknown>) => {
  const answer = await agent.callTool({ name, arguments: args })
  expect(answer.isError, JSON.stringify(answer)).toBe(true)
  const hint = answer._meta?.["dev.ledger/hint"] as string
  expect((answer.content as Array<{ text: string }>)[1]!.text).toBe(`Next: ${hint}`)
  return hint
}
const setJanuary = (status: string) =>
  app.call("POST", `/v1/periods/${januaryId}/status`, { token: company.ownerKey, key: newKey(), body: { status, reason: "month end" } })

describe("MCP refusals name the next step", () => {
  it("names the missing field and the field not accepted", async () => {
    expect(await hintOf("propose_journal_entry", { entry_date: "2026-02-02", idempotency_key: newKey() })).toMatch(/^Add lines\b/u)
    expect(await hintOf("propose_journal_entry", { entry_date: "2026-02-02", lines, memo_text: "x", idempotency_key: newKey() }))
      .toMatch(/^Remove memo_text: this tool does not take it\b/u)
    // A rule's refusal that points at a field names it too.
    expect(await hintOf("propose_journal_entry", { entry_date: "2026-02-02", lines: lines.slice(0, 1), idempotency_key: newKey() }))
      .toMatch(/^Fix lines: 1 line\(s\); at least 2 needed/u)
  })

  it("names the scope a step needs", async () => {
    const hint = await hintOf("call_tool", { name: "set_period_status", arguments: { id: januaryId, status: "open", idempotency_key: newKey() } })
    expect(hint).toMatch(/needs the admin scope/u)
  })

  it("names the period to reopen, and who may reopen a hard lock", async () => {
    expect((await setJanuary("soft_locked")).status).toBe(200)
    const soft = await hintOf("propose_journal_entry", { entry_date: "2026-01-15", lines, idempotency_key: newKey() })
    expect(soft).toContain(`period ${januaryId}`)
    expect(soft).toMatch(/soft_lock_override_reason/u)
    expect((await setJanuary("hard_locked")).status).toBe(200)
    const hard = await hintOf("propose_journal_entry", { entry_date: "2026-01-15", lines, idempotency_key: newKey() })
    expect(hard).toContain(`period ${januaryId}`)
    // A hard lock is reopened by a person with a reason (setPeriodStatus), not never.
    expect(hard).toMatch(/a person may reopen it with set_period_status and a reason/u)
    expect(hard).not.toMatch(/not reopened/u)
  })
})
