import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { type BankingApp, companyWithBankAccount, makeBankingApp, ofxFixture } from "../support.ts"

/**
 * A categorization's entry names its bank line (`source.id`) whichever way it posts: directly for
 * an agent within its threshold, or when a person approves the proposal of one over it.
 */

let app: BankingApp
beforeAll(async () => {
  app = await makeBankingApp()
}, 120_000)
afterAll(async () => {
  await app?.close()
})

describe("the source of a bank line's categorization", () => {
  it("names the bank line, posted within the threshold or approved from a proposal", async () => {
    const { company, bankAccountId } = await companyWithBankAccount(app)
    const agent = await app.createAgent(company, 15_000)
    const agentHeaders = { "x-agent-model": "test-model-1" }
    await app.write(`/v1/bank-accounts/${bankAccountId}/imports`, company.ownerKey, { format: "ofx", content: ofxFixture("asgrim_ofxdata.ofx") })
    const lines = (await app.call("GET", `/v1/bank-lines?bank_account_id=${bankAccountId}`, { token: agent.key })).body.data
    const small = lines.find((line: any) => line.amount_cents === -10000)
    const large = lines.find((line: any) => line.amount_cents === 20000)
    const sourceOf = async (entryId: number) => (await app.call("GET", `/v1/journal-entries/${entryId}`, { token: company.ownerKey })).body.source

    const within = await app.write(`/v1/bank-lines/${small.id}/categorize`, agent.key, { account: "6030" }, agentHeaders)
    expect(within.status).toBe(201)
    expect(await sourceOf(within.body.entry_id)).toEqual({ kind: "bank_line", id: small.id })

    const queued = await app.write(`/v1/bank-lines/${large.id}/categorize`, agent.key, { account: "4000" }, agentHeaders)
    expect(queued.status).toBe(202)
    const approved = await app.write(`/v1/proposals/${queued.body.proposal.id}/approve`, company.ownerKey, {})
    expect(approved.status).toBe(201)
    expect(approved.body.result).toMatchObject({ id: large.id, status: "categorized", entry_id: approved.body.entry_id })
    expect(await sourceOf(approved.body.entry_id)).toEqual({ kind: "bank_line", id: large.id })
  })
})
