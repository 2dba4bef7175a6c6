import fc from "fast-check"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { makeTestApp, type TestApp } from "../support/index.ts"
import { runSharedStep, salesCompany, type SalesCompany, type SharedStep, sharedSteps } from "./support.ts"

let app: TestApp
beforeAll(async () => {
  app = await makeTestApp()
})
afterAll(() => app.close())

type Action =
  | { readonly _tag: "document"; readonly kind: string; readonly amounts: ReadonlyArray<number>; readonly taxed: boolean }
  | SharedStep

const documentKinds = ["invoices", "credit-memos", "bills", "vendor-credits", "sales-receipts", "refunds", "vendor-refunds"] as const

const action: fc.Arbitrary<Action> = fc.oneof(
  fc.record({
    _tag: fc.constant("document" as const),
    kind: fc.constantFrom(...documentKinds),
    amounts: fc.array(fc.integer({ min: 1, max: 250_000 }), { minLength: 1, maxLength: 4 }),
    taxed: fc.boolean()
  }),
  ...sharedSteps
)

// `+ 0` turns a negative zero (0 - 0 of signed sums) into zero: a balance of nothing is one number.
const sum = async (sql: string, params: ReadonlyArray<unknown>) => Number((await app.query<{ total: string | null }>(sql, params))[0]!.total ?? 0) + 0

/** Balances the ledger and the sales records must agree on after every step. */
const checkInvariants = async (company: SalesCompany) => {
  const id = company.companyId
  // Debits equal credits over the journal and over the daily totals.
  expect(await sum(`SELECT sum(amount_cents) AS total FROM journal_lines WHERE company_id = $1`, [id])).toBe(0)
  expect(await sum(`SELECT sum(debit_cents) - sum(credit_cents) AS total FROM account_daily_totals WHERE company_id = $1`, [id])).toBe(0)
  // AR and AP in the ledger equal what the documents and payments say is owed.
  const control = async (code: string) =>
    sum(`SELECT sum(l.amount_cents) AS total FROM journal_lines l JOIN accounts a ON a.company_id = l.company_id AND a.id = l.account_id
      WHERE l.company_id = $1 AND a.code = $2`, [id, code])
  const aging = async (report: string) => {
    const body = (await company.get(`/v1/reports/${report}?as_of=2099-12-31`)).body
    return body.totals.total_cents - body.rows.reduce((total: number, row: any) => total + row.unapplied_credit_cents, 0) + 0
  }
  expect(await control("1100")).toBe(await aging("ar-aging"))
  expect(0 - (await control("2000")) + 0).toBe(await aging("ap-aging"))
}

const run = async (company: SalesCompany, step: Action) => {
  const { post } = company
  switch (step._tag) {
    case "document": {
      const sales = !["bills", "vendor-credits", "vendor-refunds"].includes(step.kind)
      const cash = ["sales-receipts", "refunds", "vendor-refunds"].includes(step.kind)
      const result = await post(`/v1/${step.kind}`, {
        contact_id: sales ? company.customerId : company.vendorId,
        doc_date: "2026-09-01",
        ...(cash ? { account: "1010" } : {}),
        ...(sales && step.taxed ? { tax_rate_id: company.combinedRateId } : {}),
        lines: step.amounts.map((amount, index) => ({ amount_cents: amount, taxable: index % 2 === 0, ...(sales ? {} : { account: "6070" }) }))
      })
      expect(result.status).toBe(201)
      return
    }
    default:
      return runSharedStep(company, step)
  }
}

describe("sales keep the books balanced", () => {
  it("every document kind, payment, application and void keeps the trial balance at zero and AR/AP tied to the documents", async () => {
    let companies = 0
    await fc.assert(
      fc.asyncProperty(fc.array(action, { minLength: 4, maxLength: 12 }), async (steps) => {
        const company = await salesCompany(app, `Property Co ${companies++}`)
        for (const step of steps) {
          await run(company, step)
          await checkInvariants(company)
        }
      }),
      { numRuns: 12 }
    )
  })
})
