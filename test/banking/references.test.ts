import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { type BankingApp, companyWithBankAccount, makeBankingApp, ofxFixture } from "./support.ts"

/**
 * Ids inside a body are resolved within the caller's company (issue 19 item 4): another company's
 * rule id on a categorization is refused like an unknown one, and nothing is posted.
 */

let app: BankingApp
beforeAll(async () => {
  app = await makeBankingApp()
}, 120_000)
afterAll(() => app?.close())

describe("references inside bodies", () => {
  it("refuses a categorization that names another company's bank rule, or none", async () => {
    const mine = await companyWithBankAccount(app)
    const theirs = await companyWithBankAccount(app)
    const token = mine.company.ownerKey
    const imported = await app.write(`/v1/bank-accounts/${mine.bankAccountId}/imports`, token, {
      format: "ofx",
      content: ofxFixture("asgrim_ofxdata.ofx")
    })
    expect(imported.status).toBe(201)
    const lines = (await app.call("GET", `/v1/bank-lines?bank_account_id=${mine.bankAccountId}&status=unmatched`, { token })).body.data
    const line = lines.find((candidate: { amount_cents: number }) => candidate.amount_cents < 0)
    const foreign = await app.write("/v1/bank-rules", theirs.company.ownerKey, { name: "Theirs", priority: 1, direction: "out", account: "6030" })
    expect(foreign.status).toBe(201)
    const own = await app.write("/v1/bank-rules", token, { name: "Mine", priority: 1, direction: "out", account: "6030" })
    expect(own.status).toBe(201)

    for (const ruleId of [foreign.body.id, 999_999_999]) {
      const refused = await app.write(`/v1/bank-lines/${line.id}/categorize`, token, { account: "6030", rule_id: ruleId })
      expect(refused.status).toBe(422)
      expect(refused.body.error.type).toBe("validation_failed")
      expect(refused.body.error.details.issues).toEqual([{ path: ["body", "rule_id"], message: "Unknown rule" }])
    }
    const still = (await app.call("GET", `/v1/bank-lines?bank_account_id=${mine.bankAccountId}&status=unmatched`, { token })).body.data
    expect(still.map((candidate: { id: number }) => candidate.id)).toContain(line.id)

    const categorized = await app.write(`/v1/bank-lines/${line.id}/categorize`, token, { account: "6030", rule_id: own.body.id })
    expect(categorized.status).toBe(201)
    expect(categorized.body.status).toBe("categorized")
  })

  it("answers 422 naming the field for an unknown id inside a body, not 404", async () => {
    const { company } = await companyWithBankAccount(app)
    const token = company.ownerKey
    const rule = await app.write("/v1/bank-rules", token, {
      name: "Nowhere", priority: 1, direction: "out", account: "6030", bank_account_id: 999_999_999
    })
    expect(rule.status).toBe(422)
    expect(rule.body.error.details.issues).toEqual([{ path: ["body", "bank_account_id"], message: "Unknown bank account" }])
    const contact = await app.write("/v1/contacts", token, { kind: "customer", name: "Ann" })
    const payment = await app.write("/v1/payments/received", token, { contact_id: contact.body.id, bank_line_id: 999_999_999 })
    expect(payment.status).toBe(422)
    expect(payment.body.error.details.issues).toEqual([{ path: ["body", "bank_line_id"], message: "Unknown bank line" }])
  })
})
