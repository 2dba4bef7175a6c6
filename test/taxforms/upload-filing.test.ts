import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { getFile } from "../support/index.ts"
import { company, makeTaxFormsApp, paidBill, payer, type TaxFormsApp, vendor } from "./support.ts"

/**
 * A `gov_csv` filing is a CSV a person uploads to the IRS portal (issue 38 item 7, ADR 2006): no
 * outside service takes part, so approving it needs no filing provider. The approved file is the
 * filed copy to upload; `ack` records the portal's receipt.
 */

const ready = async (t: TaxFormsApp, name: string) => {
  const c = await company(t.app, name)
  expect((await c.post("/v1/tax-forms/payer", payer)).status).toBe(200)
  const designer = await vendor(c, "Dana Designer", { tin: "123-45-6789" })
  await paidBill(c, designer, 250_000, "6020", "2026-02-10")
  const proposed = await c.post("/v1/tax-forms/filings", { year: 2026, provider: "gov_csv" })
  expect(proposed.status, JSON.stringify(proposed.body)).toBe(201)
  return { c, filing: proposed.body }
}

describe("a gov_csv filing on a deployment without a filing provider", () => {
  let t: TaxFormsApp
  beforeAll(async () => {
    t = await makeTaxFormsApp({ filer: false })
  })
  afterAll(() => t.app.close())

  it("is approved, downloaded with full TINs for upload, and its portal receipt recorded with ack", async () => {
    const { c, filing } = await ready(t, "Upload Co")
    const early = await c.get(`/v1/tax-forms/filings/${filing.id}/filed?format=json`)
    expect(early.body.error.type).toBe("filing_not_submitted")

    const approved = await c.post(`/v1/tax-forms/filings/${filing.id}/approve`, { preview_sha256: filing.preview_sha256, note: "Uploading today" })
    expect(approved.status, JSON.stringify(approved.body)).toBe(200)
    expect(approved.body).toMatchObject({ status: "approved", attempts: 0, provider_reference: null, receipt_id: null, note: "Uploading today" })
    expect(approved.body.decided_by).toMatch(/^user:/)
    expect((await c.post(`/v1/tax-forms/filings/${filing.id}/approve`, { preview_sha256: filing.preview_sha256 })).body.error.type).toBe("filing_not_pending")
    expect((await c.post(`/v1/tax-forms/filings/${filing.id}/reject`, { reason: "Too late" })).body.error.type).toBe("filing_not_pending")

    // The file the person uploads: the filed copy, full TINs, the same bytes every time.
    const filed = await getFile(t.app.fetch, `/v1/tax-forms/filings/${filing.id}/filed`, c.key)
    expect(filed.status).toBe(200)
    expect(filed.contentType).toMatch(/^text\/csv/)
    expect(filed.text).toContain("123456789")
    expect(filed.text.split("\r\n")[0]).toContain("Recipient TIN")

    // Nobody to ask: the portal's answer is recorded by a person.
    const refresh = await c.post(`/v1/tax-forms/filings/${filing.id}/refresh`, {})
    expect(refresh.status).toBe(409)
    expect(refresh.body.error.type).toBe("filing_not_refreshable")

    const submitted = await c.post(`/v1/tax-forms/filings/${filing.id}/ack`, { receipt_id: "1099-PORTAL-2026-000123", status: "submitted" })
    expect(submitted.status, JSON.stringify(submitted.body)).toBe(200)
    expect(submitted.body).toMatchObject({ status: "submitted", receipt_id: "1099-PORTAL-2026-000123" })
    const accepted = await c.post(`/v1/tax-forms/filings/${filing.id}/ack`, { receipt_id: "1099-PORTAL-2026-000123", status: "accepted", note: "Portal says accepted" })
    expect(accepted.body).toMatchObject({ status: "accepted", receipt_id: "1099-PORTAL-2026-000123", note: "Portal says accepted" })
    expect((await c.get(`/v1/tax-forms/filings/${filing.id}`)).body.status).toBe("accepted")
  })

  it("still refuses electronic filing without a provider", async () => {
    const { c } = await ready(t, "Electronic Co")
    const proposed = await c.post("/v1/tax-forms/filings", { year: 2026, provider: "gov_a2a" })
    const approve = await c.post(`/v1/tax-forms/filings/${proposed.body.id}/approve`, { preview_sha256: proposed.body.preview_sha256 })
    expect(approve.status).toBe(503)
    expect(approve.body.error.type).toBe("tax_filing_not_configured")
  })
})

describe("a gov_csv filing where a filing provider is configured", () => {
  let t: TaxFormsApp
  beforeAll(async () => {
    t = await makeTaxFormsApp()
  })
  afterAll(() => t.app.close())

  it("is never sent to the provider: a person uploads it", async () => {
    const { c, filing } = await ready(t, "Provider Upload Co")
    const before = t.filer.submissions.length
    const approved = await c.post(`/v1/tax-forms/filings/${filing.id}/approve`, { preview_sha256: filing.preview_sha256 })
    expect(approved.body).toMatchObject({ status: "approved", attempts: 0 })
    expect(t.filer.submissions.length).toBe(before)
  })
})
