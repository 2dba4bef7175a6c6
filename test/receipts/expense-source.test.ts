import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { agentWithThreshold, newKey } from "../support/index.ts"
import { type Company, jpeg, makeReceiptsApp, type ReceiptsApp } from "./support.ts"

/**
 * An expense from a receipt names the receipt as its entry's source (`source.id`), posted by a
 * person or approved from an agent's proposal (an agent's always waits: receipt_review).
 */

let app: ReceiptsApp
let company: Company
let seed = 500

const receipt = async (fields: Record<string, unknown>) => {
  app.reader.answer(fields)
  const uploaded = await app.upload(company, jpeg(seed++), "r.jpg")
  app.reader.answer({})
  expect(uploaded.status).toBe(201)
  return uploaded.body as { id: number }
}
const sourceOf = async (entryId: number) => (await app.call("GET", `/v1/journal-entries/${entryId}`, { token: company.ownerKey })).body.source

beforeAll(async () => {
  app = await makeReceiptsApp()
  company = await app.createCompany()
})
afterAll(() => app.close())

describe("the source of an expense from a receipt", () => {
  it("names the receipt, posted by a person or approved from an agent's proposal", async () => {
    const mine = await receipt({ vendor: "Office Depot", date: "2026-05-03", total_cents: 8999 })
    const posted = await app.write(`/v1/receipts/${mine.id}/expense`, company.ownerKey, { payment_account: "1010", account: "6070" })
    expect(posted.status, JSON.stringify(posted.body)).toBe(201)
    expect(await sourceOf(posted.body.entry_id)).toEqual({ kind: "receipt_expense", id: mine.id })

    const agent = await agentWithThreshold(app.app, { ...company, body: {} }, { thresholdCents: 1_000_000 })
    const theirs = await receipt({ vendor: "Gas", date: "2026-05-04", total_cents: 4500 })
    const queued = await app.call("POST", `/v1/receipts/${theirs.id}/expense`, {
      token: agent.key, key: newKey(), headers: agent.headers, body: { payment_account: "1010", account: "6240" }
    })
    expect(queued.status, JSON.stringify(queued.body)).toBe(202)
    const approved = await app.write(`/v1/proposals/${queued.body.proposal.id}/approve`, company.ownerKey, {})
    expect(approved.status, JSON.stringify(approved.body)).toBe(201)
    expect(await sourceOf(approved.body.entry_id)).toEqual({ kind: "receipt_expense", id: theirs.id })
  })
})
