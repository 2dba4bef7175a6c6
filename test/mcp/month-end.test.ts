import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { makeTestApp, type TestApp } from "../support/index.ts"
import { closeMonth, monthEndBudget as budget, type MonthEndReport, toolListBytesMax } from "./month-end-agent.ts"
import { type MonthEndCompany, setUpMonthEnd, statementLines } from "./month-end-company.ts"
import { connectMetered, type Meter, newBudget, newMeter } from "./metered.ts"

/**
 * The month-end close as an agent does it over MCP (issue 40 item 5, ADR 2210): a scripted agent
 * and its owner, with the official SDK client from the default tool lists, close January for a
 * small company. The books must end balanced, reconciled and locked, and the work must fit the
 * budget an agent's context can carry: calls, bytes read, and no single answer over a bound.
 * The figures are printed (and in docs/agents.md); `pnpm bench mcp-month-end` runs the same script
 * against a real server process.
 */

let app: TestApp
let company: MonthEndCompany
let report: MonthEndReport
beforeAll(async () => {
  app = await makeTestApp({ clock: "2026-02-03T09:00:00Z" })
  const made = await app.createCompany({ name: "Month-End Co", starter_chart: "general" })
  company = await setUpMonthEnd(app.fetch, "http://ledger.test", made.ownerKey, "2026-01")
  report = await closeMonth(app.fetch, "http://ledger.test/mcp", company)
}, 180_000)
afterAll(() => app?.close())

const get = async (path: string) => {
  const answer = await app.call("GET", path, { token: company.ownerKey })
  expect(answer.status, `${path}: ${JSON.stringify(answer.body)}`).toBe(200)
  return answer.body
}

const figures = (meter: Meter) => ({
  calls: meter.calls.length, bytes: meter.bytes, toolListBytes: meter.toolListBytes, largest: meter.largest.bytes, largestCall: meter.largest.call
})

describe("a scripted month-end over MCP", () => {
  it("closes the month: every line booked, the entries posted, reconciled, balanced, locked", async () => {
    const lines = (await get(`/v1/bank-lines?bank_account_id=${company.bankAccountId}&limit=100`)).data
    expect(lines).toHaveLength(statementLines.length)
    expect(lines.every((line: { status: string }) => line.status === "categorized" || line.status === "matched"), JSON.stringify(lines)).toBe(true)

    const invoice = await get(`/v1/documents/${report.invoiceId}`)
    expect(invoice).toMatchObject({ contact_id: company.customerId, total_cents: 150_000, open_balance_cents: 0, status: "paid" })
    const depreciation = await get(`/v1/journal-entries/${report.depreciationEntryId}`)
    expect(depreciation.lines.map((line: any) => [line.account, line.debit_cents, line.credit_cents])).toEqual([["6250", 10_000, 0], ["1510", 0, 10_000]])
    expect((await get(`/v1/journal-entries/${report.paymentEntryId}`)).entry_date).toBe("2026-01-20")
    // The owner's transfer and the equipment were over the agent's threshold: proposals, approved by the owner.
    expect(report.proposalIds).toHaveLength(2)
    for (const id of report.proposalIds) expect((await get(`/v1/proposals/${id}`)).status).toBe("approved")

    expect((await get(`/v1/reconciliations/${report.reconciliationId}`)).status).toBe("finished")
    const bank = await get(`/v1/bank-accounts/${company.bankAccountId}`)
    expect(bank.ledger_balance_cents).toBe(company.endingBalanceCents)
    expect(bank.reconciliation.last_statement_date).toBe(company.lastDay)

    const trial = await get("/v1/reports/trial-balance")
    expect(trial.total_debit_cents).toBe(trial.total_credit_cents)
    const periods = (await get("/v1/periods?limit=100")).data
    expect(periods.find((period: { id: number }) => period.id === report.periodId)).toMatchObject({ start_date: "2026-01-01", status: "soft_locked" })
  })

  it("stays within its budget of calls and bytes, and no answer is over the bound", () => {
    const agent = figures(report.agent)
    const owner = figures(report.owner)
    const total = {
      calls: agent.calls + owner.calls,
      bytes: agent.bytes + owner.bytes,
      toolListBytes: agent.toolListBytes + owner.toolListBytes,
      largest: Math.max(agent.largest, owner.largest)
    }
    console.log(`month-end over MCP: agent ${JSON.stringify(agent)}; owner ${JSON.stringify(owner)}; total ${JSON.stringify(total)}`)
    for (const [who, meter] of [["agent", report.agent], ["owner", report.owner]] as const) {
      console.log(`${who}'s answers: ${meter.answers.map((answer) => `${answer.call} ${answer.bytes}`).join(", ")}`)
    }
    expect(total.calls).toBeLessThanOrEqual(budget.calls)
    expect(total.bytes).toBeLessThanOrEqual(budget.bytes)
    expect(total.toolListBytes).toBeLessThanOrEqual(toolListBytesMax)
    expect(total.largest).toBeLessThanOrEqual(budget.responseBytes)
    // Each actor read its tool list once: nothing in the month needed the whole list or a reload.
    expect(report.agent.calls.filter((call) => call === "tools/list")).toHaveLength(1)
    expect(report.owner.calls.filter((call) => call === "tools/list")).toHaveLength(1)
  })

  it("is a hard budget: a call past it is not sent, an answer past it is not read", async () => {
    const calls = newMeter(newBudget({ calls: 2, bytes: 1_000_000, responseBytes: budget.responseBytes }))
    const client = await connectMetered(app.fetch, "http://ledger.test/mcp", company.agentKey, calls, { "x-agent-model": "budget-test/1" })
    await client.listTools()
    await expect(client.callTool({ name: "get_me", arguments: {} })).rejects.toThrow(/over the budget of 2 calls/u)
    expect(calls.calls).toEqual(["initialize", "tools/list"])
    await client.close()
    const bytes = newMeter(newBudget({ calls: 10, bytes: 1_000_000, responseBytes: 10_000 }))
    const small = await connectMetered(app.fetch, "http://ledger.test/mcp", company.agentKey, bytes, { "x-agent-model": "budget-test/1" })
    await expect(small.listTools()).rejects.toThrow(/tools\/list answered over 10000 bytes/u)
    expect(bytes.bytes).toBeGreaterThan(10_000)
    expect(bytes.bytes).toBeLessThan(10_000 + 65_536)
    await small.close()
  })
})
