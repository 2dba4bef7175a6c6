import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { type BankingApp, companyWithBankAccount, makeBankingApp, ofxFixture } from "./support.ts"

/**
 * A cancelled entry keeps no bank line (issue 19 items 2 and 3): a void is the linked reversal of
 * its document's or payment's entry, a reversal returns the lines matched to the original to
 * `unmatched`, and nothing matches a cancelled entry again.
 */

let app: BankingApp
beforeAll(async () => {
  app = await makeBankingApp()
}, 120_000)
afterAll(() => app?.close())

/** A company with the March statement imported; its 200.00 deposit line on 2007-03-14. */
const withDeposit = async () => {
  const { company, bankAccountId } = await companyWithBankAccount(app)
  const token = company.ownerKey
  const imported = await app.write(`/v1/bank-accounts/${bankAccountId}/imports`, token, { format: "ofx", content: ofxFixture("asgrim_ofxdata.ofx") })
  expect(imported.status).toBe(201)
  const unmatched = async () =>
    (await app.call("GET", `/v1/bank-lines?bank_account_id=${bankAccountId}&status=unmatched`, { token })).body.data as Array<{ id: number; amount_cents: number }>
  const deposit = (await unmatched()).find((line) => line.amount_cents === 20_000)!
  return { token, deposit, unmatched }
}

describe("reversals and bank lines", () => {
  it("returns a matched line to unmatched when its entry is reversed", async () => {
    const { token, deposit, unmatched } = await withDeposit()
    const entry = await app.write("/v1/journal-entries/propose", token, {
      entry_date: "2007-03-14",
      memo: "Deposit",
      lines: [{ account: "1010", debit_cents: 20_000 }, { account: "4000", credit_cents: 20_000 }]
    })
    expect(entry.status).toBe(201)
    expect((await app.write(`/v1/bank-lines/${deposit.id}/match`, token, { entry_id: entry.body.id })).status).toBe(200)
    expect((await unmatched()).map((line) => line.id)).not.toContain(deposit.id)

    const reversed = await app.write(`/v1/journal-entries/${entry.body.id}/reverse`, token, {})
    expect(reversed.status).toBe(201)
    expect((await unmatched()).map((line) => line.id)).toContain(deposit.id)
  })

  it("voids a payment as the linked reversal of its entry, releases its line, and refuses to match the cancelled entry", async () => {
    const { token, deposit, unmatched } = await withDeposit()
    const customer = await app.write("/v1/contacts", token, { kind: "customer", name: "Ann" })
    const payment = await app.write("/v1/payments/received", token, {
      contact_id: customer.body.id,
      payment_date: "2007-03-14",
      account: "1010",
      amount_cents: 20_000
    })
    expect(payment.status).toBe(201)
    expect((await app.write(`/v1/bank-lines/${deposit.id}/match`, token, { entry_id: payment.body.entry_id })).status).toBe(200)

    const voided = await app.write(`/v1/payments/${payment.body.id}/void`, token, { reason: "Bounced", void_date: "2007-03-20" })
    expect(voided.status).toBe(200)
    const original = await app.call("GET", `/v1/journal-entries/${payment.body.entry_id}`, { token })
    expect(original.body.reversed_by_entry_id).toBe(voided.body.void_entry_id ?? expect.any(Number))
    const reversal = await app.call("GET", `/v1/journal-entries/${original.body.reversed_by_entry_id}`, { token })
    expect(reversal.body.reverses_entry_id).toBe(payment.body.entry_id)
    expect((await unmatched()).map((line) => line.id)).toContain(deposit.id)

    const again = await app.write(`/v1/bank-lines/${deposit.id}/match`, token, { entry_id: payment.body.entry_id })
    expect(again.status).toBe(422)
    expect(again.body.error.type).toBe("entry_not_matchable")
  })
})
