import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { type BankingApp, companyWithBankAccount, makeBankingApp, ofxFixture } from "./support.ts"

/**
 * Banking writes that wait for a person or guard the books: an agent's categorization over its
 * threshold, a transfer paired through the governed path, imports of several batches, rules, and
 * a reconciliation that cannot be undone into a locked period. (flow.test.ts: the month itself.)
 */

const fixture = ofxFixture

let app: BankingApp
beforeAll(async () => {
  app = await makeBankingApp()
}, 120_000)
afterAll(async () => {
  await app?.close()
})

const setUp = () => companyWithBankAccount(app)

describe("a month end, governed", () => {
  it("holds an agent's categorization over its threshold until a person decides", async () => {
    const { company, bankAccountId } = await setUp()
    const agent = await app.createAgent(company, 15_000)
    const agentHeaders = { "x-agent-model": "test-model-1" }
    await app.write(`/v1/bank-accounts/${bankAccountId}/imports`, company.ownerKey, { format: "ofx", content: fixture("asgrim_ofxdata.ofx") })
    const lines = (await app.call("GET", `/v1/bank-lines?bank_account_id=${bankAccountId}`, { token: agent.key })).body.data
    const small = lines.find((line: any) => line.amount_cents === -10000)
    const large = lines.find((line: any) => line.amount_cents === 20000)

    const within = await app.write(`/v1/bank-lines/${small.id}/categorize`, agent.key, { account: "6030", confidence: 0.9 }, agentHeaders)
    expect(within.status).toBe(201)

    const dry = await app.write(`/v1/bank-lines/${large.id}/categorize`, agent.key, { account: "4000", dry_run: true }, agentHeaders)
    expect(dry.status).toBe(200)
    expect(dry.body.verdict).toBe("propose")

    const queued = await app.write(`/v1/bank-lines/${large.id}/categorize`, agent.key, { account: "4000" }, agentHeaders)
    expect(queued.status).toBe(202)
    expect(queued.body.status).toBe("pending_approval")
    const waiting = (await app.call("GET", `/v1/bank-lines?status=proposed`, { token: company.ownerKey })).body.data
    expect(waiting.map((line: any) => line.id)).toEqual([large.id])
    expect(waiting[0].proposal_id).toBe(queued.body.proposal.id)
    const entries = await app.query("SELECT count(*)::int AS n FROM journal_entries WHERE company_id = $1", [company.companyId])
    expect(entries[0]!.n).toBe(1)

    const rejected = await app.write(`/v1/proposals/${queued.body.proposal.id}/reject`, company.ownerKey, { reason: "not income" })
    expect(rejected.status).toBe(200)
    const back = (await app.call("GET", `/v1/bank-lines?status=unmatched`, { token: company.ownerKey })).body.data
    expect(back.map((line: any) => line.id)).toContain(large.id)

    const again = await app.write(`/v1/bank-lines/${large.id}/categorize`, agent.key, { account: "3010" }, agentHeaders)
    expect(again.status).toBe(202)
    const approved = await app.write(`/v1/proposals/${again.body.proposal.id}/approve`, company.ownerKey, {})
    expect(approved.status).toBe(201)
    const line = (await app.call("GET", `/v1/bank-lines?status=categorized`, { token: company.ownerKey })).body.data
      .find((item: any) => item.id === large.id)
    expect(line.entry_id).toBeGreaterThan(0)
  })

  it("pairs a transfer between two bank accounts through the governed path", async () => {
    const { company, bankAccountId } = await setUp()
    const savings = await app.write("/v1/bank-accounts", company.ownerKey, { name: "Savings", kind: "savings", ledger_account: "1020" })
    const csv = (amount: string, date: string) => `Date,Description,Amount\n${date},Transfer,${amount}\n`
    await app.write(`/v1/bank-accounts/${bankAccountId}/imports`, company.ownerKey, { format: "csv", content: csv("-500.00", "2026-02-02") })
    await app.write(`/v1/bank-accounts/${savings.body.id}/imports`, company.ownerKey, { format: "csv", content: csv("500.00", "2026-02-03") })
    const preview = await app.write(`/v1/bank-accounts/${bankAccountId}/auto-match`, company.ownerKey, { transfers: true, dry_run: true })
    expect(preview.body.transfers).toHaveLength(1)
    expect(preview.body.transfers[0].entry_id).toBeNull()

    const agent = await app.createAgent(company, 10_000)
    const queued = await app.write(`/v1/bank-accounts/${bankAccountId}/auto-match`, agent.key, { transfers: true }, { "x-agent-model": "m" })
    expect(queued.status).toBe(200)
    const proposalId = queued.body.transfers[0].proposal_id
    expect(proposalId).toBeGreaterThan(0)
    expect((await app.call("GET", "/v1/bank-lines?status=proposed", { token: company.ownerKey })).body.data).toHaveLength(2)
    const approved = await app.write(`/v1/proposals/${proposalId}/approve`, company.ownerKey, {})
    expect(approved.status).toBe(201)
    const lines = (await app.call("GET", "/v1/bank-lines?status=categorized", { token: company.ownerKey })).body.data
    expect(lines).toHaveLength(2)
    expect(new Set(lines.map((line: any) => line.entry_id)).size).toBe(1)
    const entry = await app.call("GET", `/v1/journal-entries/${lines[0].entry_id}`, { token: company.ownerKey })
    expect(entry.body.lines.map((line: any) => [line.account, line.debit_cents, line.credit_cents])).toEqual([
      ["1020", 50000, 0],
      ["1010", 0, 50000]
    ])
  })

  it("imports a statement of several batches, dedupes across them, and writes nothing on a dry run", async () => {
    const { company, bankAccountId } = await setUp()
    const rows = ["Date,Description,Amount"]
    for (let index = 0; index < 4_500; index++) {
      // Every tenth line repeats the one before: identical lines are kept apart by their occurrence.
      const seed = index % 10 === 9 ? index - 1 : index
      rows.push(`2026-01-${String(1 + (seed % 28)).padStart(2, "0")},Payee ${seed % 97},-${1 + (seed % 500)}.${String(seed % 100).padStart(2, "0")}`)
    }
    const content = rows.join("\n")
    const before = await app.query<{ n: number }>("SELECT count(*)::int AS n FROM statement_imports WHERE company_id = $1", [company.companyId])
    const dry = await app.write(`/v1/bank-accounts/${bankAccountId}/imports`, company.ownerKey, { format: "csv", content, dry_run: true })
    expect(dry.status).toBe(200)
    expect(dry.body.lines_imported).toBe(4_500)
    expect(dry.body.lines).toHaveLength(1_000)
    const after = await app.query<{ n: number }>("SELECT count(*)::int AS n FROM statement_imports WHERE company_id = $1", [company.companyId])
    expect(after[0]!.n).toBe(before[0]!.n)
    const imported = await app.write(`/v1/bank-accounts/${bankAccountId}/imports`, company.ownerKey, { format: "csv", content })
    expect(imported.body).toMatchObject({ lines_read: 4_500, lines_imported: 4_500, duplicates: 0 })
    const again = await app.write(`/v1/bank-accounts/${bankAccountId}/imports`, company.ownerKey, { format: "csv", content })
    expect(again.body).toMatchObject({ lines_imported: 0, duplicates: 4_500 })
    const account = await app.call("GET", `/v1/bank-accounts/${bankAccountId}`, { token: company.ownerKey })
    expect(account.body.line_counts.unmatched).toBe(4_500)
  })
})

describe("bank rules", () => {
  it("are listed in evaluation order, deactivated with a reason, and never edited", async () => {
    const { company } = await setUp()
    const late = await app.write("/v1/bank-rules", company.ownerKey, { name: "Late", priority: 5, account: "6070" })
    const early = await app.write("/v1/bank-rules", company.ownerKey, { name: "Early", priority: 1, account: "6070" })
    const same = await app.write("/v1/bank-rules", company.ownerKey, { name: "Same priority, younger", priority: 5, account: "6070" })
    const list = await app.call("GET", "/v1/bank-rules", { token: company.ownerKey })
    expect(list.body.data.map((rule: any) => rule.id)).toEqual([early.body.id, late.body.id, same.body.id])
    const bad = await app.write("/v1/bank-rules", company.ownerKey, { name: "x", priority: 1, account: "6070", amount_min_cents: 10, amount_max_cents: 5 })
    expect(bad.status).toBe(422)
    const off = await app.write(`/v1/bank-rules/${late.body.id}/deactivate`, company.ownerKey, { reason: "replaced" })
    expect(off.body).toMatchObject({ active: false, deactivated_reason: "replaced" })
    expect((await app.call("GET", "/v1/bank-rules", { token: company.ownerKey })).body.data).toHaveLength(2)
    expect((await app.call("GET", "/v1/bank-rules?include_inactive=true", { token: company.ownerKey })).body.data).toHaveLength(3)
    // The database holds it too, whatever the driver makes of the trigger's message.
    await expect(app.query("UPDATE bank_rules SET priority = 0 WHERE id = $1", [early.body.id])).rejects.toThrow()
    await expect(app.query("UPDATE bank_rules SET active = true, deactivated_at = NULL WHERE id = $1", [late.body.id])).rejects.toThrow()
    await expect(app.query("DELETE FROM bank_rules WHERE id = $1", [early.body.id])).rejects.toThrow()
    const unchanged = await app.query<{ priority: number }>("SELECT priority FROM bank_rules WHERE id = $1", [early.body.id])
    expect(unchanged[0]!.priority).toBe(1)
  })

  it("refuses to undo a reconciliation while a period on or after its statement date is locked", async () => {
    const { company, bankAccountId } = await setUp()
    const token = company.ownerKey
    const periods = (await app.call("GET", "/v1/periods?limit=1000", { token })).body.data as Array<any>
    const first = [...periods].sort((a, b) => a.start_date.localeCompare(b.start_date))[0]
    const date = first.start_date
    const entry = await app.write("/v1/journal-entries/propose", token, {
      entry_date: date,
      lines: [{ account: "1010", debit_cents: 12_345 }, { account: "3010", credit_cents: 12_345 }]
    })
    const started = await app.write(`/v1/bank-accounts/${bankAccountId}/reconciliations`, token, {
      statement_date: first.end_date,
      statement_ending_balance_cents: 12_345
    })
    await app.write(`/v1/reconciliations/${started.body.id}/update`, token, { clear: [entry.body.id] })
    expect((await app.write(`/v1/reconciliations/${started.body.id}/finish`, token, {})).body.status).toBe("finished")
    const later = periods.find((period) => period.start_date > first.end_date)
    expect((await app.write(`/v1/periods/${later.id}/status`, token, { status: "soft_locked", reason: "closing" })).status).toBe(200)
    const refused = await app.write(`/v1/reconciliations/${started.body.id}/undo`, token, { reason: "redo" })
    expect(refused.status).toBe(422)
    expect(refused.body.error).toMatchObject({ type: "period_locked", details: { period_id: later.id } })
    await app.write(`/v1/periods/${later.id}/status`, token, { status: "open", reason: "reopen" })
    const undone = await app.write(`/v1/reconciliations/${started.body.id}/undo`, token, { reason: "redo" })
    expect(undone.body.status).toBe("undone")
    const again = await app.write(`/v1/reconciliations/${started.body.id}/undo`, token, { reason: "twice" })
    expect(again.body.error.type).toBe("reconciliation_closed")
  })
})
