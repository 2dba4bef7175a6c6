import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { agentWithThreshold, newKey } from "../support/index.ts"
import { type Company, jpeg, makeReceiptsApp, type ReceiptsApp } from "./support.ts"

/**
 * A receipt and the books: candidates from the bank, match (posted when the line posts), unmatch,
 * attach to a posted entry, and an expense through the governed path (an agent's always waits).
 */

let app: ReceiptsApp
let company: Company
let bankAccountId: number
let seed = 100

const lines = async (csv: string) => {
  const imported = await app.write(`/v1/bank-accounts/${bankAccountId}/imports`, company.ownerKey, { format: "csv", content: csv })
  expect(imported.status, JSON.stringify(imported.body)).toBe(201)
  const listed = await app.call("GET", `/v1/bank-lines?bank_account_id=${bankAccountId}&status=unmatched`, { token: company.ownerKey })
  return listed.body.data as Array<{ id: number; amount_cents: number; payee: string | null; date: string }>
}

const receipt = async (fields: Record<string, unknown>) => {
  app.reader.answer(fields)
  const uploaded = await app.upload(company, jpeg(seed++), "r.jpg")
  app.reader.answer({})
  expect(uploaded.status).toBe(201)
  return uploaded.body as { id: number }
}

beforeAll(async () => {
  app = await makeReceiptsApp()
  company = await app.createCompany()
  const bank = await app.write("/v1/bank-accounts", company.ownerKey, { name: "Checking", kind: "checking", ledger_account: "1010" })
  bankAccountId = bank.body.id
})
afterAll(() => app.close())

describe("matching receipts to bank lines", () => {
  it("lists candidates with their reasons, matches, and shows posted once the line posts", async () => {
    const [coffee] = (await lines("Date,Description,Amount\n2026-03-05,BLUE BOTTLE COFFEE,-12.50\n2026-03-20,Other shop,-99.00\n"))
      .filter((line) => line.amount_cents === -1250)
    const made = await receipt({ vendor: "Blue Bottle", date: "2026-03-04", total_cents: 1250 })
    const read = await app.call("GET", `/v1/receipts/${made.id}`, { token: company.ownerKey })
    expect(read.body.candidates[0]).toMatchObject({ bank_line_id: coffee!.id, reasons: ["amount", "date_window", "vendor"] })
    const matched = await app.write(`/v1/receipts/${made.id}/match`, company.ownerKey, { bank_line_id: coffee!.id })
    expect(matched.body).toMatchObject({ status: "matched", bank_line_id: coffee!.id })
    // A second receipt cannot take the same line, and is not offered it.
    const other = await receipt({ total_cents: 1250, date: "2026-03-05" })
    const offered = await app.call("GET", `/v1/receipts/${other.id}`, { token: company.ownerKey })
    expect(offered.body.candidates.map((candidate: { bank_line_id: number }) => candidate.bank_line_id)).not.toContain(coffee!.id)
    expect((await app.write(`/v1/receipts/${other.id}/match`, company.ownerKey, { bank_line_id: coffee!.id })).status).toBe(409)
    const categorized = await app.write(`/v1/bank-lines/${coffee!.id}/categorize`, company.ownerKey, { account: "6060" })
    expect(categorized.status).toBe(201)
    const after = await app.call("GET", `/v1/receipts/${made.id}`, { token: company.ownerKey })
    expect(after.body.status).toBe("posted")
    expect((await app.write(`/v1/receipts/${made.id}/unmatch`, company.ownerKey, {})).status).toBe(409)
  })

  it("unmatches a matched receipt, and refuses money in", async () => {
    const found = await lines("Date,Description,Amount\n2026-04-01,Hardware store,-40.00\n2026-04-02,Customer deposit,500.00\n")
    const out = found.find((line) => line.amount_cents === -4000)!
    const into = found.find((line) => line.amount_cents === 50000)!
    const made = await receipt({ total_cents: 4000 })
    expect((await app.write(`/v1/receipts/${made.id}/match`, company.ownerKey, { bank_line_id: into.id })).status).toBe(422)
    await app.write(`/v1/receipts/${made.id}/match`, company.ownerKey, { bank_line_id: out.id })
    const unmatched = await app.write(`/v1/receipts/${made.id}/unmatch`, company.ownerKey, {})
    expect(unmatched.body).toMatchObject({ status: "extracted", bank_line_id: null })
    expect((await app.write(`/v1/receipts/${made.id}/match`, company.ownerKey, { bank_line_id: 999_999_999 })).status).toBe(404)
  })
})

describe("expenses from receipts", () => {
  it("previews, then posts a person's expense and links the entry", async () => {
    const made = await receipt({ vendor: "Office Depot", date: "2026-05-03", total_cents: 8999 })
    const preview = await app.write(`/v1/receipts/${made.id}/expense`, company.ownerKey, { payment_account: "1010", account: "6070", dry_run: true })
    expect(preview.status).toBe(200)
    expect(preview.body.entry.total_cents).toBe(8999)
    const posted = await app.write(`/v1/receipts/${made.id}/expense`, company.ownerKey, { payment_account: "1010", account: "6070" })
    expect(posted.status, JSON.stringify(posted.body)).toBe(201)
    expect(posted.body).toMatchObject({ status: "posted", entry_id: expect.any(Number) })
    expect((await app.write(`/v1/receipts/${made.id}/expense`, company.ownerKey, { payment_account: "1010", account: "6070" })).status).toBe(409)
    expect((await app.write(`/v1/receipts/${made.id}/discard`, company.ownerKey, { reason: "oops" })).status).toBe(409)
  })

  it("makes an agent's expense a proposal (receipt_review) even under its threshold; approval posts it", async () => {
    const agent = await agentWithThreshold(app.app, { ...company, body: {} }, { thresholdCents: 1_000_000 })
    const made = await receipt({ vendor: "Gas", date: "2026-05-04", total_cents: 4500 })
    const queued = await app.call("POST", `/v1/receipts/${made.id}/expense`, {
      token: agent.key, key: newKey(), headers: agent.headers, body: { payment_account: "1010", account: "6240", confidence: 0.9 }
    })
    expect(queued.status, JSON.stringify(queued.body)).toBe(202)
    expect(JSON.stringify(queued.body)).toContain("receipt_review")
    const proposalId = queued.body.proposal.id
    const waiting = await app.call("GET", `/v1/receipts/${made.id}`, { token: company.ownerKey })
    expect(waiting.body.proposal_id).toBe(proposalId)
    const approved = await app.write(`/v1/proposals/${proposalId}/approve`, company.ownerKey, {})
    expect(approved.status, JSON.stringify(approved.body)).toBe(201)
    const after = await app.call("GET", `/v1/receipts/${made.id}`, { token: company.ownerKey })
    expect(after.body).toMatchObject({ status: "posted", proposal_id: null, entry_id: expect.any(Number) })
  })

  it("attaches a receipt to a posted entry, and refuses one that is not there", async () => {
    const entry = await app.write("/v1/journal-entries/propose", company.ownerKey, {
      entry_date: "2026-05-06", memo: "check 101", lines: [{ account: "6090", debit_cents: 2000 }, { account: "1010", credit_cents: 2000 }]
    })
    expect(entry.status, JSON.stringify(entry.body)).toBe(201)
    const made = await receipt({ total_cents: 2000 })
    expect((await app.write(`/v1/receipts/${made.id}/attach`, company.ownerKey, { document_id: 987_654_321 })).status).toBe(404)
    const attached = await app.write(`/v1/receipts/${made.id}/attach`, company.ownerKey, { document_id: entry.body.entry_id ?? entry.body.id })
    expect(attached.body).toMatchObject({ status: "posted", document_id: entry.body.entry_id ?? entry.body.id })
  })
})
