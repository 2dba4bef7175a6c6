import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { Catalog, type Operation } from "@ledger/api"
import { makeTestApp, type TestApp } from "../../support/index.ts"

/**
 * Every operation that can answer 422 `amount_out_of_range` (ADR 0717 and its addendum) declares it,
 * so the OpenAPI document and the SDK name it: every operation that posts an entry (the database
 * refuses a posting past the bound, as it refuses one into a hard-locked period, so each declares
 * both), and the reads whose figures are sums.
 */

const operations = Catalog.operations as ReadonlyArray<Operation.Any>

/** Refuses a fiscal year change while a period is hard-locked; posts nothing. */
const lockedButNotPosting = new Set(["setFiscalYear"])

/** The reads built on summed amounts: reports, balances, and the ledger's sums other areas read. */
const summingReads = [
  "getTrialBalance",
  "getBalanceSheet",
  "getProfitAndLoss",
  "getGeneralLedger",
  "listAccounts",
  "listBankAccounts",
  "getBankAccount",
  "getEstimatedTaxes",
  "saveEstimatedTaxPlan",
  "getMileageDeduction"
]

const posting = operations.filter((operation) => operation.errors.includes("period_hard_locked") && !lockedButNotPosting.has(operation.id))
const answering = [...posting.map((operation) => operation.id), ...summingReads]

let app: TestApp
let document: any
beforeAll(async () => {
  app = await makeTestApp()
  document = (await app.call("GET", "/openapi.json")).body
})
afterAll(() => app.close())

describe("amount_out_of_range in the contract", () => {
  it("is declared by every operation that posts an entry and every read of sums", () => {
    expect(posting.map((operation) => operation.id)).toEqual(expect.arrayContaining([
      "proposeJournalEntry", "reverseJournalEntry", "approveProposal", "createInvoice", "receivePayment", "categorizeBankLine"
    ]))
    for (const id of answering) {
      const operation = operations.find((candidate) => candidate.id === id)
      expect(operation, id).toBeDefined()
      expect(operation!.errors, id).toContain("amount_out_of_range")
    }
  })

  it("is in the OpenAPI document's 422 answers of each of them", () => {
    for (const id of answering) {
      const operation = operations.find((candidate) => candidate.id === id)!
      const entry = document.paths[operation.path][operation.method.toLowerCase()]
      expect(entry.responses["422"]?.description, id).toContain("amount_out_of_range")
    }
  })
})
