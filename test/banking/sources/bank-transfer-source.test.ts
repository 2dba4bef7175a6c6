import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { entriesWithoutSourceId, expectSource } from "../../support/sources.ts"
import { type BankingApp, companyWithBankAccount, makeBankingApp } from "../support.ts"

/**
 * A transfer between two bank accounts names its outgoing bank line as `source.id` whichever way
 * it posts (issue 38 item 11): paired by a person, or approved from an agent's proposal, which used
 * to post with `source.id` null.
 */

let app: BankingApp
beforeAll(async () => {
  app = await makeBankingApp()
}, 120_000)
afterAll(async () => {
  await app?.close()
})

const csv = (amount: string, date: string) => `Date,Description,Amount\n${date},Transfer,${amount}\n`

/** A company with a checking and a savings account, and one transfer's two lines imported. */
const transferLines = async () => {
  const { company, bankAccountId } = await companyWithBankAccount(app)
  const savings = await app.write("/v1/bank-accounts", company.ownerKey, { name: "Savings", kind: "savings", ledger_account: "1020" })
  await app.write(`/v1/bank-accounts/${bankAccountId}/imports`, company.ownerKey, { format: "csv", content: csv("-500.00", "2026-02-02") })
  await app.write(`/v1/bank-accounts/${savings.body.id}/imports`, company.ownerKey, { format: "csv", content: csv("500.00", "2026-02-03") })
  const out = (await app.call("GET", `/v1/bank-lines?bank_account_id=${bankAccountId}`, { token: company.ownerKey })).body.data[0]
  return { company, bankAccountId, outLineId: out.id as number }
}

describe("the source of a transfer between bank accounts", () => {
  it("names the outgoing line when a person pairs it", async () => {
    const { company, bankAccountId, outLineId } = await transferLines()
    const paired = await app.write(`/v1/bank-accounts/${bankAccountId}/auto-match`, company.ownerKey, { transfers: true })
    expect(paired.status).toBe(200)
    expect(paired.body.transfers[0]).toMatchObject({ out_line_id: outLineId, proposal_id: null })
    await expectSource(app, company.ownerKey, paired.body.transfers[0].entry_id, "bank_transfer", outLineId)
  })

  it("names the outgoing line when a person approves an agent's proposed transfer", async () => {
    const { company, bankAccountId, outLineId } = await transferLines()
    const agent = await app.createAgent(company, 10_000)
    const queued = await app.write(`/v1/bank-accounts/${bankAccountId}/auto-match`, agent.key, { transfers: true }, { "x-agent-model": "m" })
    expect(queued.status).toBe(200)
    const approved = await app.write(`/v1/proposals/${queued.body.transfers[0].proposal_id}/approve`, company.ownerKey, {})
    expect(approved.status).toBe(201)
    await expectSource(app, company.ownerKey, approved.body.entry_id, "bank_transfer", outLineId)
    expect(await entriesWithoutSourceId(app, company.companyId)).toEqual([])
  })
})
