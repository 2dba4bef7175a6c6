import { describe, expect, it } from "vitest"
import { jpeg, makeReceiptsApp } from "./support.ts"

/**
 * A receipt booked as an expense lets its caller choose both accounts, so it may name neither
 * control account (ADR 0106): AR and AP move only through documents and payments.
 */

const expectRefused = (result: { status: number; body: any }, path: ReadonlyArray<string | number>) => {
  expect(result.status, JSON.stringify(result.body)).toBe(422)
  expect(result.body.error.type).toBe("control_account_line")
  expect(result.body.error.details.issues.map((issue: any) => issue.path)).toContainEqual(path)
}

describe("a receipt booked as an expense", () => {
  it("is refused on AR or AP, on either side, and posts to other accounts", async () => {
    const receipts = await makeReceiptsApp()
    try {
      const company = await receipts.createCompany("Control Receipts Co")
      let seed = 7
      const receipt = async () => {
        receipts.reader.answer({ vendor: "Office Depot", date: "2026-05-03", total_cents: 8999 })
        const uploaded = await receipts.upload(company, jpeg(seed++), "r.jpg")
        receipts.reader.answer({})
        expect(uploaded.status).toBe(201)
        return uploaded.body.id as number
      }
      const first = await receipt()
      expectRefused(await receipts.write(`/v1/receipts/${first}/expense`, company.ownerKey, { payment_account: "1010", account: "1100" }), ["body", 0, "account"])
      expectRefused(await receipts.write(`/v1/receipts/${first}/expense`, company.ownerKey, { payment_account: "2000", account: "6070" }), ["body", 1, "account"])
      expect((await receipts.write(`/v1/receipts/${first}/expense`, company.ownerKey, { payment_account: "1010", account: "6070" })).status).toBe(201)
    } finally {
      await receipts.close()
    }
  })
})
