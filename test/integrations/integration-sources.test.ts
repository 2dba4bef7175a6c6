import { afterAll, beforeAll, describe, expect, it } from "vitest"
import type { FakeCommerce } from "@ledger/testkit"
import type { TestApp } from "../support/index.ts"
import { entriesWithoutSourceId, expectSource } from "../support/sources.ts"
import { makeProviderApp, syncNow, writer } from "./support.ts"

/**
 * A synced order's entry names the synced object as `source.id` whichever way it posts (issue 38
 * item 11): at once once the mapping is approved, or when a person approves the proposal a sync
 * made before, which used to post with `source.id` null.
 */

let app: TestApp
let commerce: FakeCommerce.FakeCommerce
beforeAll(async () => {
  const made = await makeProviderApp()
  app = made.app
  commerce = made.commerce
})
afterAll(() => app.close())

const order = (id: string, date: string) => ({
  id,
  name: `#${id}`,
  created_at: `${date}T10:00:00Z`,
  line_items: [{ sku: "MUG", price: "12.50", quantity: 2 }],
  shipping_lines: [],
  tax_lines: [],
  discount_applications: [],
  total_tip_received: "0.00"
})

describe("the source of a synced order's entry", () => {
  it("names the synced object, approved from a proposal or posted at once", async () => {
    const company = await app.createCompany({ name: "Mug Shop Sources" })
    const owner = writer(app, company.ownerKey)
    const started = await owner.post("/v1/integrations/connections", { provider: "provider_b" })
    const consent = commerce.consent(started.body.consent_url, { id: "shop-sources", name: "Mug Shop" })
    const connection = (await owner.post("/v1/integrations/connections/complete", { state: consent.state, code: consent.code, posting_threshold_cents: 10_000 })).body
    const objects = async (status: string) => (await owner.get(`/v1/integrations/connections/${connection.id}/objects?status=${status}`)).body.data

    // Before the mapping is approved, a synced order waits for a person.
    commerce.putOrder("shop-sources", order("2001", "2026-03-02"))
    expect((await syncNow(app, owner, connection.id)).body.counts).toMatchObject({ proposed: 1 })
    const proposed = (await objects("proposed"))[0]
    const approved = await owner.post(`/v1/proposals/${proposed.proposal_id}/approve`, {})
    expect(approved.status, JSON.stringify(approved.body)).toBe(201)
    await expectSource(app, company.ownerKey, approved.body.entry_id, "integration_sale", proposed.id)

    const gaps = (await owner.get(`/v1/integrations/connections/${connection.id}`)).body.mapping_gaps as Array<string>
    expect(gaps).toEqual(["tip:*"])
    const liability = (await app.query<{ code: string }>(
      `SELECT code FROM accounts WHERE company_id = $1 AND type = 'liability' AND control IS NULL ORDER BY code LIMIT 1`, [company.companyId]))[0]!.code
    await owner.post(`/v1/integrations/connections/${connection.id}/mappings`, { kind: "tip", source_key: "*", account_code: liability })
    expect((await owner.post(`/v1/integrations/connections/${connection.id}/mappings/approve`, {})).status).toBe(200)
    commerce.putOrder("shop-sources", order("2002", "2026-03-03"))
    expect((await syncNow(app, owner, connection.id)).body.counts).toMatchObject({ posted: 1 })
    const direct = (await objects("posted")).find((object: any) => object.external_id === "2002")
    await expectSource(app, company.ownerKey, direct.entry_id, "integration_sale", direct.id)

    expect(await entriesWithoutSourceId(app, company.companyId)).toEqual([])
  })
})
