import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { makeTestApp, type TestApp } from "../support/index.ts"
import { salesCompany } from "./support.ts"

/**
 * Issue 19 item 11 (ADR 0307): the spec makes a payment's `account` optional. Money received with
 * neither an account nor a bank line waits in undeposited funds until the deposit moves it; money
 * paid leaves the first bank account. Before, both answered 422.
 */

let app: TestApp
beforeAll(async () => {
  app = await makeTestApp()
}, 120_000)
afterAll(() => app?.close())

const accountLines = (entry: any, code: string) =>
  entry.lines.filter((line: any) => line.account === code).map((line: any) => [line.debit_cents, line.credit_cents])

describe("payments without an account", () => {
  it("money received waits in undeposited funds and a deposit moves it to the bank", async () => {
    const company = await salesCompany(app, "Undeposited Co")
    const invoice = (await company.post("/v1/invoices", { contact_id: company.customerId, doc_date: "2026-04-01", lines: [{ amount_cents: 12_345 }] })).body
    const payment = await company.post("/v1/payments/received", {
      contact_id: company.customerId,
      payment_date: "2026-04-03",
      applications: [{ document_id: invoice.id, amount_cents: 12_345 }]
    })
    expect(payment.status, JSON.stringify(payment.body)).toBe(201)
    expect(payment.body.account).toBe("1150")
    const entry = (await company.get(`/v1/journal-entries/${payment.body.entry_id}`)).body
    expect(accountLines(entry, "1150")).toEqual([[12_345, 0]])
    expect(accountLines(entry, "1100")).toEqual([[0, 12_345]])
    expect((await company.get(`/v1/documents/${invoice.id}`)).body.status).toBe("paid")

    // The deposit: Dr bank, Cr undeposited funds; 1150 is back to zero.
    const deposit = await company.post("/v1/journal-entries/propose", {
      entry_date: "2026-04-04",
      memo: "Deposit of cheques",
      lines: [{ account: "1010", debit_cents: 12_345 }, { account: "1150", credit_cents: 12_345 }]
    })
    expect(deposit.status, JSON.stringify(deposit.body)).toBe(201)
    const trial = (await company.get("/v1/reports/trial-balance?as_of=2026-04-30")).body
    // Accounts with a balance only: undeposited funds has none left, the bank holds the money.
    expect(trial.rows.map((row: any) => row.code ?? row.account)).not.toContain("1150")
    expect(trial.rows.find((row: any) => (row.code ?? row.account) === "1010").debit_cents).toBe(12_345)
  })

  it("money paid leaves the first bank account", async () => {
    const company = await salesCompany(app, "Paid Out Co")
    const bill = (await company.post("/v1/bills", { contact_id: company.vendorId, doc_date: "2026-04-01", lines: [{ amount_cents: 5_000, account: "6080" }] }))
    expect(bill.status, JSON.stringify(bill.body)).toBe(201)
    const payment = await company.post("/v1/payments/made", {
      contact_id: company.vendorId,
      payment_date: "2026-04-02",
      applications: [{ document_id: bill.body.id, amount_cents: 5_000 }]
    })
    expect(payment.status, JSON.stringify(payment.body)).toBe(201)
    expect(payment.body.account).toBe("1010")
  })

  it("says which account to name when there is none to default to", async () => {
    const company = await salesCompany(app, "No Undeposited Co")
    expect((await company.post("/v1/accounts/1150/update", { active: false, reason: "No cheques here" })).status).toBe(200)
    const refused = await company.post("/v1/payments/received", { contact_id: company.customerId, amount_cents: 100 })
    expect(refused.status).toBe(422)
    expect(refused.body.error.details.issues[0].path).toEqual(["body", "account"])
  })
})
