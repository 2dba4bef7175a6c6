import { extractText, getDocumentProxy } from "unpdf"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { agentWithKey, agentModel, getFile } from "../support/index.ts"
import { FireFile, FireRecords as Records } from "@ledger/engine/rules"
import { company, type Company, makeTaxFormsApp, paidBill, payer, type TaxFormsApp, vendor } from "./support.ts"

let t: TaxFormsApp
beforeAll(async () => {
  t = await makeTaxFormsApp()
})
afterAll(() => t.app.close())

const ready = async () => {
  const c = await company(t.app, "Filing Co")
  expect((await c.post("/v1/tax-forms/payer", payer)).status).toBe(200)
  const designer = await vendor(c, "Dana Designer", { tin: "123-45-6789" })
  const landlord = await vendor(c, "Lot Landlord LLC", { tax_class: "llc_p", tin_type: "EIN", tin: "98-7654321" })
  await c.post("/v1/tax-forms/account-boxes", { account: "6080", box: "MISC1" })
  await paidBill(c, designer, 250_000, "6020", "2026-02-10")
  await paidBill(c, landlord, 300_000, "6080", "2026-03-01")
  return { c, designer, landlord }
}

const propose = (c: Company, body: Record<string, unknown> = {}) => c.post("/v1/tax-forms/filings", { year: 2026, provider: "partner_mock", ...body })

describe("filings", () => {
  it("a dry run shows the exact Publication 1220 file with TINs masked, and its SHA-256", async () => {
    const { c } = await ready()
    const dry = await propose(c, { dry_run: true })
    expect(dry.status).toBe(200)
    expect(dry.body).toMatchObject({ dry_run: true, file_format: "fire", payee_count: 2, total_nec_cents: 250_000, total_misc_cents: 300_000 })
    const content: string = dry.body.content
    expect(FireFile.check(content)).toEqual([])
    expect(Records.split(content).map((record) => record[0]).join("")).toBe("TABCABCF")
    expect(content).not.toContain("123456789")
    expect(content).not.toContain("987654321")
    expect(content).toContain("*****6789")
    expect(dry.body.sha256).toMatch(/^[0-9a-f]{64}$/)
    expect((await c.get("/v1/tax-forms/filings")).body.data).toEqual([])
  })

  it("is proposed, approved by a person quoting the SHA-256, sent with full TINs, acknowledged", async () => {
    const { c } = await ready()
    const proposed = await propose(c)
    expect(proposed.status).toBe(201)
    expect(proposed.body.status).toBe("proposed")
    const id = proposed.body.id
    const before = t.filer.submissions.length
    const wrong = await c.post(`/v1/tax-forms/filings/${id}/approve`, { preview_sha256: "0".repeat(64) })
    expect(wrong.body.error.type).toBe("filing_preview_mismatch")
    const approved = await c.post(`/v1/tax-forms/filings/${id}/approve`, { preview_sha256: proposed.body.preview_sha256, note: "Checked against the ledger" })
    expect(approved.status).toBe(200)
    expect(approved.body).toMatchObject({ status: "submitted", attempts: 1 })
    expect(t.filer.submissions.length).toBe(before + 1)
    const sent = t.filer.submissions.at(-1)!
    expect(sent.test).toBe(true)
    expect(sent.content).toContain("123456789")
    expect(FireFile.check(sent.content)).toEqual([])
    expect((await c.post(`/v1/tax-forms/filings/${id}/approve`, { preview_sha256: proposed.body.preview_sha256 })).body.error.type).toBe("filing_not_pending")
    t.filer.answer(approved.body.provider_reference, { status: "accepted", receiptId: "1099-2026-0001", rejectedRecords: [] })
    const refreshed = await c.post(`/v1/tax-forms/filings/${id}/refresh`, {})
    expect(refreshed.body).toMatchObject({ status: "accepted", receipt_id: "1099-2026-0001" })
    const acked = await c.post(`/v1/tax-forms/filings/${id}/ack`, { receipt_id: "1099-2026-0001", status: "partially_accepted", rejected_records: [4] })
    expect(acked.body).toMatchObject({ status: "partially_accepted", rejected_records: [4] })
    const filed = await getFile(t.app.fetch, `/v1/tax-forms/filings/${id}/filed`, c.key)
    expect(filed.status).toBe(200)
    expect(filed.text).toBe(sent.content)
    expect((await c.get(`/v1/tax-forms/filings/${id}/filed?format=json`)).body.content).toBe(sent.content)
    const copies = await getFile(t.app.fetch, `/v1/tax-forms/filings/${id}/recipient-copies`, c.key)
    expect(copies.contentType).toBe("application/pdf")
    const pdf = copies.bytes
    expect(Buffer.from(pdf.subarray(0, 5)).toString()).toBe("%PDF-")
    const text = (await extractText(await getDocumentProxy(pdf), { mergePages: true })).text
    expect(text).toContain("Form 1099-NEC")
    expect(text).toContain("DANA DESIGNER")
    expect(text).toContain("***-**-6789")
    expect(text).toContain("Box 1 Nonemployee compensation: $2500.00")
    expect(text).toContain("Box 1 Rents: $3000.00")
    expect(text).not.toContain("123456789")
    expect(text).toContain("PAYER'S TIN 12-3456789")
  })

  it.each([["partner_mock", "Telephone 2175550100"], ["gov_csv", "Telephone 217-555-0100"]])(
    "Copy B of a %s filing shows the payer's TIN in full and the recipient's truncated",
    async (provider, phone) => {
      const { c } = await ready()
      const proposed = await c.post("/v1/tax-forms/filings", { year: 2026, provider })
      expect(proposed.status).toBe(201)
      expect((await c.post(`/v1/tax-forms/filings/${proposed.body.id}/approve`, { preview_sha256: proposed.body.preview_sha256 })).status).toBe(200)
      const copies = await c.get(`/v1/tax-forms/filings/${proposed.body.id}/recipient-copies?format=base64`)
      const text = (await extractText(await getDocumentProxy(new Uint8Array(Buffer.from(copies.body.content_base64, "base64"))), { mergePages: true })).text
      // Treas. Reg. 301.6109-4: a payee's TIN may be truncated on its statement, the filer's own never.
      expect(text.toUpperCase()).toContain("ACME WIDGETS LLC")
      expect(text).toContain("PAYER'S TIN 12-3456789")
      expect(text).toContain(phone)
      expect(text).toContain("***-**-6789")
      expect(text).not.toContain("123-45-6789")
      expect(text).not.toContain("123456789")
      expect(text).not.toContain("98-7654321")
    }
  )

  it("a rejected filing sends nothing; a failed send is retried", async () => {
    const { c } = await ready()
    const first = await propose(c)
    const before = t.filer.submissions.length
    expect((await c.post(`/v1/tax-forms/filings/${first.body.id}/reject`, { reason: "Wrong year" })).body.status).toBe("rejected")
    expect(t.filer.submissions.length).toBe(before)
    expect((await c.post(`/v1/tax-forms/filings/${first.body.id}/retry`, {})).body.error.type).toBe("filing_not_retryable")
    const second = await propose(c)
    t.filer.failNext("FIRE is down for maintenance")
    const failed = await c.post(`/v1/tax-forms/filings/${second.body.id}/approve`, { preview_sha256: second.body.preview_sha256 })
    expect(failed.body).toMatchObject({ status: "failed", last_error: "FIRE is down for maintenance" })
    const retried = await c.post(`/v1/tax-forms/filings/${second.body.id}/retry`, {})
    expect(retried.body).toMatchObject({ status: "submitted", attempts: 2, last_error: null })
  })

  it("agents may propose but never approve, nor download the filed copy", async () => {
    const { c } = await ready()
    const agent = await agentWithKey(t.app, c.key, ["read", "propose", "approve"])
    const headers = { "x-agent-model": agentModel }
    const proposed = await t.app.call("POST", "/v1/tax-forms/filings", { token: agent.key.secret, key: `k-${Date.now()}-agent`, headers, body: { year: 2026, provider: "gov_csv" } })
    expect(proposed.status).toBe(201)
    expect(proposed.body.file_format).toBe("csv")
    const approve = await t.app.call("POST", `/v1/tax-forms/filings/${proposed.body.id}/approve`, { token: agent.key.secret, key: `k-${Date.now()}-approve`, headers, body: { preview_sha256: proposed.body.preview_sha256 } })
    expect(approve.status).toBe(403)
    expect(approve.body.error.type).toBe("insufficient_scope")
  })

  it("a correction of a name or TIN files the old record zeroed (G) and the new one (C)", async () => {
    const { c, designer } = await ready()
    await c.post(`/v1/vendors/${designer}/tax-profile`, { legal_name: "Dana Designer", tax_class: "individual", address1: "22 Oak Lane", city: "Madison", state: "WI", zip: "53703", tin_type: "SSN", tin: "111-22-3333" })
    const dry = await propose(c, { kind: "correction", corrections: [{ contact_id: designer, type: "name_tin" }], dry_run: true })
    expect(dry.status).toBe(200)
    const records = Records.split(dry.body.content).filter((record) => record[0] === "B")
    expect(records.map((record) => record[5])).toEqual(["C", "G"])
    const g = records.find((record) => record[5] === "G")!
    expect(Number(g.slice(54, 66))).toBe(0)
    expect(g.slice(11, 20)).toBe("*****6789")
    expect(records.find((record) => record[5] === "C")!.slice(11, 20)).toBe("*****3333")
    expect(FireFile.check(dry.body.content)).toEqual([])
  })

  it("an amounts correction files one G record with today's amounts", async () => {
    const { c, designer } = await ready()
    await paidBill(c, designer, 50_000, "6020", "2026-08-01")
    const dry = await propose(c, { kind: "correction", corrections: [{ contact_id: designer, type: "amounts" }], dry_run: true })
    const records = Records.split(dry.body.content).filter((record) => record[0] === "B").map(Records.readPayee)
    expect(records).toHaveLength(1)
    expect(records[0]).toMatchObject({ corrected: "G", accountNumber: String(designer) })
    expect(records[0]!.amounts["1"]).toBe(300_000)
    expect((await propose(c, { kind: "correction", dry_run: true })).status).toBe(422)
  })

  it("gov_csv files one CSV row per form, read back with the amounts per box", async () => {
    const { c, designer, landlord } = await ready()
    const dry = await propose(c, { provider: "gov_csv", dry_run: true })
    expect(dry.body.file_format).toBe("csv")
    const lines = dry.body.content.trim().split("\r\n").map((line: string) => line.split(","))
    const header = lines[0]
    const rows = lines.slice(1).map((cells: Array<string>) => Object.fromEntries(header.map((name: string, index: number) => [name, cells[index]])))
    expect(rows.find((row: any) => row["Account Number"] === String(designer))).toMatchObject({ Form: "1099-NEC", "Box NEC1": "2500.00", "Recipient TIN": "*****6789" })
    expect(rows.find((row: any) => row["Account Number"] === String(landlord))).toMatchObject({ Form: "1099-MISC", "Box MISC1": "3000.00" })
  })

  it("refuses without a payer, and when nobody reaches the threshold", async () => {
    const c = await company(t.app, "Empty Co")
    expect((await propose(c)).body.error.type).toBe("payer_not_set")
    await c.post("/v1/tax-forms/payer", payer)
    expect((await propose(c)).body.error.type).toBe("nothing_to_file")
  })
})
