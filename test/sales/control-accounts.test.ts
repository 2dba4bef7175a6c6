import fc from "fast-check"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { makeTestApp, type TestApp } from "../support/index.ts"
import { agentOf, runSharedStep, salesCompany, type SalesCompany, type SharedStep, sharedSteps } from "./support.ts"

/**
 * AR and AP control accounts move only through documents and payments (ADR 0106): a manual
 * journal line, a bank-line categorization or a document line naming 1100 (AR) or 2000 (AP) is
 * refused with `control_account_line` at the line's path, so the ledger always equals the aging
 * less unapplied credits.
 */

let app: TestApp
beforeAll(async () => {
  app = await makeTestApp()
})
afterAll(() => app.close())

// `+ 0` turns a negative zero into zero.
const sum = async (sql: string, params: ReadonlyArray<unknown>) => Number((await app.query<{ total: string | null }>(sql, params))[0]!.total ?? 0) + 0

const control = (company: SalesCompany, code: string) =>
  sum(`SELECT sum(l.amount_cents) AS total FROM journal_lines l JOIN accounts a ON a.company_id = l.company_id AND a.id = l.account_id
    WHERE l.company_id = $1 AND a.code = $2`, [company.companyId, code])

/** The aging's total less the unapplied credits of its rows (customer or vendor credits and overpayments). */
const aging = async (company: SalesCompany, report: "ar-aging" | "ap-aging") => {
  const body = (await company.get(`/v1/reports/${report}?as_of=2099-12-31`)).body
  return body.totals.total_cents - body.rows.reduce((total: number, row: any) => total + row.unapplied_credit_cents, 0) + 0
}

const expectTied = async (company: SalesCompany) => {
  expect(await control(company, "1100")).toBe(await aging(company, "ar-aging"))
  expect(0 - (await control(company, "2000")) + 0).toBe(await aging(company, "ap-aging"))
}

const expectRefused = (result: { status: number; body: any }, path: ReadonlyArray<string | number>) => {
  expect(result.status, JSON.stringify(result.body)).toBe(422)
  expect(result.body.error.type).toBe("control_account_line")
  expect(result.body.error.details.issues.map((issue: any) => issue.path)).toContainEqual(path)
}

/** The company's one bank account, on 1010 (a ledger account backs one bank account). */
const bankAccounts = new Map<string, number>()
let imports = 0

/** One newly imported, unmatched bank line of `amount` (e.g. "-12.50"); answers its id. */
const bankLine = async (company: SalesCompany, amount: string) => {
  let bankAccountId = bankAccounts.get(company.companyId)
  if (bankAccountId === undefined) {
    const bank = await company.post("/v1/bank-accounts", { name: "Checking", kind: "checking", ledger_account: "1010" })
    expect(bank.status, JSON.stringify(bank.body)).toBe(201)
    bankAccountId = bank.body.id as number
    bankAccounts.set(company.companyId, bankAccountId)
  }
  const csv = `Date,Description,Amount\n2026-09-05,Line ${imports++},${amount}\n`
  const imported = await company.post(`/v1/bank-accounts/${bankAccountId}/imports`, { format: "csv", content: csv })
  expect(imported.status, JSON.stringify(imported.body)).toBe(201)
  // Newest first: the line just imported.
  const lines = (await company.get(`/v1/bank-lines?bank_account_id=${bankAccountId}`)).body.data
  expect(lines[0].status).toBe("unmatched")
  return lines[0].id as number
}

const manualEntry = (company: SalesCompany, code: string, cents: number, contactId: number | null, token = company.ownerKey) =>
  company.post("/v1/journal-entries/propose", {
    entry_date: "2026-09-05",
    memo: "Manual control line",
    lines: [
      { account: code, debit_cents: cents, ...(contactId === null ? {} : { contact_id: contactId }) },
      { account: "4000", credit_cents: cents }
    ]
  }, token)

describe("control accounts refuse free-form lines", () => {
  let company: SalesCompany
  beforeAll(async () => {
    company = await salesCompany(app, "Control Refusals Co")
  })

  it("refuses a manual journal line on AR or AP, with or without a contact, at the line's path", async () => {
    expectRefused(await manualEntry(company, "1100", 2_500, null), ["body", "lines", 0, "account"])
    expectRefused(await manualEntry(company, "1100", 2_500, company.customerId), ["body", "lines", 0, "account"])
    const onAp = await company.post("/v1/journal-entries/propose", {
      entry_date: "2026-09-05",
      lines: [{ account: "6070", debit_cents: 900 }, { account: "2000", credit_cents: 900, contact_id: company.vendorId }]
    })
    expectRefused(onAp, ["body", "lines", 1, "account"])
    // A dry run is refused the same way (the entry itself is not valid, whatever the period or actor).
    const dryRun = await company.post("/v1/journal-entries/propose", {
      entry_date: "2026-09-05",
      dry_run: true,
      lines: [{ account: "1100", debit_cents: 100 }, { account: "4000", credit_cents: 100 }]
    })
    expectRefused(dryRun, ["body", "lines", 0, "account"])
    await expectTied(company)
    expect(await control(company, "1100")).toBe(0)
  })

  it("refuses an agent's manual entry to AR instead of queueing it for a person", async () => {
    const agent = await agentOf(company, { threshold: 0 })
    const result = await company.post("/v1/journal-entries/propose", {
      entry_date: "2026-09-05",
      lines: [{ account: "1100", debit_cents: 50_000 }, { account: "4000", credit_cents: 50_000 }]
    }, agent.token, agent.headers)
    expectRefused(result, ["body", "lines", 0, "account"])
    expect((await company.get("/v1/proposals")).body.data).toHaveLength(0)
  })

  it("still posts a manual entry between other accounts", async () => {
    const result = await company.post("/v1/journal-entries/propose", {
      entry_date: "2026-09-05",
      lines: [{ account: "1010", debit_cents: 700 }, { account: "4000", credit_cents: 700 }]
    })
    expect(result.status).toBe(201)
  })

  it("refuses categorizing a bank line to AR or AP, and leaves the line unmatched", async () => {
    const deposit = await bankLine(company, "75.00")
    expectRefused(await company.post(`/v1/bank-lines/${deposit}/categorize`, { account: "1100" }), ["body", 1, "account"])
    const withdrawal = await bankLine(company, "-40.00")
    const refused = await company.post(`/v1/bank-lines/${withdrawal}/categorize`, { account: "2000" })
    expect(refused.status).toBe(422)
    expect(refused.body.error.type).toBe("control_account_line")
    const lines = (await company.get("/v1/bank-lines")).body.data.filter((line: any) => [deposit, withdrawal].includes(line.id))
    expect(lines.map((line: any) => line.status)).toEqual(["unmatched", "unmatched"])
    // The same line categorizes to an ordinary account.
    expect((await company.post(`/v1/bank-lines/${deposit}/categorize`, { account: "4000" })).status).toBe(201)
    await expectTied(company)
  })

  it("refuses document lines on a control account: invoice on AR, bill on AR or AP, credit memo on AP, vendor credit on AR", async () => {
    const sales = { contact_id: company.customerId, doc_date: "2026-09-01" }
    const purchases = { contact_id: company.vendorId, doc_date: "2026-09-01" }
    const refusedInvoice = await company.post("/v1/invoices", {
      ...sales,
      lines: [{ amount_cents: 10_000, account: "4000" }, { amount_cents: 10_000, account: "1100" }]
    })
    expectRefused(refusedInvoice, ["body", "lines", 1, "account"])
    expectRefused(await company.post("/v1/bills", { ...purchases, lines: [{ amount_cents: 5_000, account: "1100" }] }), ["body", "lines", 0, "account"])
    expectRefused(await company.post("/v1/bills", { ...purchases, lines: [{ amount_cents: 5_000, account: "2000" }] }), ["body", "lines", 0, "account"])
    expectRefused(await company.post("/v1/credit-memos", { ...sales, lines: [{ amount_cents: 5_000, account: "2000" }] }), ["body", "lines", 0, "account"])
    expectRefused(await company.post("/v1/vendor-credits", { ...purchases, lines: [{ amount_cents: 5_000, account: "1100" }] }), ["body", "lines", 0, "account"])
    expectRefused(
      await company.post("/v1/sales-receipts", { ...sales, account: "1010", lines: [{ amount_cents: 5_000, account: "1100" }] }),
      ["body", "lines", 0, "account"]
    )
    expect((await company.get("/v1/documents")).body.data).toHaveLength(0)
    await expectTied(company)
  })
})

type Action =
  | { readonly _tag: "document"; readonly kind: string; readonly amounts: ReadonlyArray<number> }
  | SharedStep
  | { readonly _tag: "manualEntry"; readonly code: "1100" | "2000"; readonly cents: number; readonly withContact: boolean }
  | { readonly _tag: "categorize"; readonly code: "1100" | "2000"; readonly cents: number }
  | { readonly _tag: "documentLine"; readonly kind: string; readonly code: "1100" | "2000" }

const documentKinds = ["invoices", "credit-memos", "bills", "vendor-credits", "sales-receipts"] as const
const purchaseKinds = new Set(["bills", "vendor-credits"])
const code = fc.constantFrom("1100" as const, "2000" as const)

const action: fc.Arbitrary<Action> = fc.oneof(
  fc.record({
    _tag: fc.constant("document" as const),
    kind: fc.constantFrom(...documentKinds),
    amounts: fc.array(fc.integer({ min: 1, max: 250_000 }), { minLength: 1, maxLength: 3 })
  }),
  ...sharedSteps,
  fc.record({ _tag: fc.constant("manualEntry" as const), code, cents: fc.integer({ min: 1, max: 100_000 }), withContact: fc.boolean() }),
  fc.record({ _tag: fc.constant("categorize" as const), code, cents: fc.integer({ min: -100_000, max: 100_000 }).filter((cents) => cents !== 0) }),
  fc.record({ _tag: fc.constant("documentLine" as const), kind: fc.constantFrom(...documentKinds), code })
)

const dollars = (cents: number) => `${cents < 0 ? "-" : ""}${Math.floor(Math.abs(cents) / 100)}.${String(Math.abs(cents) % 100).padStart(2, "0")}`

const run = async (company: SalesCompany, step: Action) => {
  const { post } = company
  switch (step._tag) {
    case "document": {
      const purchase = purchaseKinds.has(step.kind)
      const result = await post(`/v1/${step.kind}`, {
        contact_id: purchase ? company.vendorId : company.customerId,
        doc_date: "2026-09-01",
        ...(step.kind === "sales-receipts" ? { account: "1010" } : {}),
        lines: step.amounts.map((amount) => ({ amount_cents: amount, account: purchase ? "6070" : "4000" }))
      })
      expect(result.status, JSON.stringify(result.body)).toBe(201)
      return
    }
    case "manualEntry": {
      const contactId = step.withContact ? (step.code === "1100" ? company.customerId : company.vendorId) : null
      expectRefused(await manualEntry(company, step.code, step.cents, contactId), ["body", "lines", 0, "account"])
      return
    }
    case "categorize": {
      const line = await bankLine(company, dollars(step.cents))
      const result = await post(`/v1/bank-lines/${line}/categorize`, { account: step.code })
      expect(result.status).toBe(422)
      expect(result.body.error.type).toBe("control_account_line")
      return
    }
    case "documentLine": {
      const purchase = purchaseKinds.has(step.kind)
      const result = await post(`/v1/${step.kind}`, {
        contact_id: purchase ? company.vendorId : company.customerId,
        doc_date: "2026-09-01",
        ...(step.kind === "sales-receipts" ? { account: "1010" } : {}),
        lines: [{ amount_cents: 1_000, account: purchase ? "6070" : "4000" }, { amount_cents: 2_000, account: step.code }]
      })
      expectRefused(result, ["body", "lines", 1, "account"])
      return
    }
    default:
      return runSharedStep(company, step)
  }
}

describe("AR and AP tie to their sub-ledgers", () => {
  it("after every step of a random sequence of documents, payments, credits, voids and refused control lines", async () => {
    let companies = 0
    await fc.assert(
      fc.asyncProperty(fc.array(action, { minLength: 4, maxLength: 10 }), async (steps) => {
        const company = await salesCompany(app, `Control Property Co ${companies++}`)
        for (const step of steps) {
          await run(company, step)
          await expectTied(company)
        }
      }),
      { numRuns: 10 }
    )
  })
})
