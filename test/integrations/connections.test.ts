import { afterAll, beforeAll, describe, expect, it } from "vitest"
import type { FakeCommerce } from "@ledger/testkit"
import { agentWithKey, type TestApp } from "../support/index.ts"
import { makeProviderApp, syncNow, writer } from "./support.ts"

let app: TestApp
let commerce: FakeCommerce.FakeCommerce
beforeAll(async () => {
  const made = await makeProviderApp()
  app = made.app
  commerce = made.commerce
})
afterAll(() => app.close())

const order = (id: string, date: string, options: { sku?: string; price?: string; quantity?: number; tip?: string; shipping?: string; tax?: string } = {}) => ({
  id,
  name: `#${id}`,
  created_at: `${date}T10:00:00Z`,
  line_items: [{ sku: options.sku ?? "MUG", price: options.price ?? "12.50", quantity: options.quantity ?? 2 }],
  shipping_lines: options.shipping === undefined ? [] : [{ code: "standard", price: options.shipping }],
  tax_lines: options.tax === undefined ? [] : [{ title: "State tax", price: options.tax }],
  discount_applications: [],
  total_tip_received: options.tip ?? "0.00"
})

const connect = async (owner: ReturnType<typeof writer>, shop: string, threshold = 10_000) => {
  const started = await owner.post("/v1/integrations/connections", { provider: "provider_b" })
  expect(started.status).toBe(201)
  // Shopify's consent (its authorization-code grant takes no PKCE; the state guards the callback).
  expect(started.body.consent_url).toContain("/admin/oauth/authorize?")
  expect(started.body.consent_url).not.toContain("code_challenge")
  const consent = commerce.consent(started.body.consent_url, { id: shop, name: "Mug Shop" })
  const completed = await owner.post("/v1/integrations/connections/complete", { state: consent.state, code: consent.code, posting_threshold_cents: threshold })
  expect(completed.status).toBe(201)
  return completed.body
}

const entryCount = async (companyId: string) =>
  Number((await app.query<{ count: unknown }>(`SELECT count(*) AS count FROM journal_entries WHERE company_id = $1`, [companyId]))[0]!.count)

describe("integrations", () => {
  it("lists built and coming providers", async () => {
    const company = await app.createCompany({ name: "Providers Co" })
    const listed = await writer(app, company.ownerKey).get("/v1/integrations/providers")
    expect(listed.status).toBe(200)
    expect(listed.body.data.map((provider: any) => [provider.provider, provider.status, provider.configured])).toEqual([
      ["provider_a", "built", true], ["provider_b", "built", true], ["provider_c", "coming", false], ["provider_d", "coming", false]
    ])
  })

  it("refuses agents, a used consent state and a coming provider", async () => {
    const company = await app.createCompany({ name: "Refusals Co" })
    const owner = writer(app, company.ownerKey)
    const agent = await agentWithKey(app, company.ownerKey, ["read", "propose", "approve", "admin"])
    const byAgent = await app.call("POST", "/v1/integrations/connections", { token: agent.key.secret, key: "agent-connect-1", body: { provider: "provider_b" }, headers: { "x-agent-model": "m/1" } })
    expect(byAgent.status).toBe(403)
    expect((await owner.post("/v1/integrations/connections", { provider: "provider_c" })).body.error.type).toBe("integration_not_available")
    const started = await owner.post("/v1/integrations/connections", { provider: "provider_b" })
    const consent = commerce.consent(started.body.consent_url, { id: "shop-r" })
    expect((await owner.post("/v1/integrations/connections/complete", { state: consent.state, code: consent.code })).status).toBe(201)
    const again = await owner.post("/v1/integrations/connections/complete", { state: consent.state, code: consent.code })
    expect(again.body.error.type).toBe("integration_consent_invalid")
  })

  it("syncs orders as proposals until the mapping is approved, then posts; a change waits; reconnecting posts nothing twice", async () => {
    const company = await app.createCompany({ name: "Mug Shop Books" })
    const owner = writer(app, company.ownerKey)
    const connection = await connect(owner, "shop-1")
    expect(connection).toMatchObject({ status: "connected", mapping_approved: false, posting_threshold_cents: 10_000 })
    expect(connection.mapping_gaps).toEqual(["tip:*"])
    const id = connection.id

    commerce.putOrder("shop-1", order("1001", "2026-03-02", { shipping: "5.00", tax: "2.00" }))
    commerce.putOrder("shop-1", order("1002", "2026-03-03", { tip: "3.00" }))
    const first = await syncNow(app, owner, id)
    expect(first.status).toBe(202)
    expect(first.body.counts).toMatchObject({ fetched: 2, proposed: 1, pending: 1, posted: 0 })
    expect(await entryCount(company.companyId)).toBe(0)

    expect((await owner.post(`/v1/integrations/connections/${id}/mappings/approve`, {})).body.error.type).toBe("integration_mapping_incomplete")
    const liability = (await app.query<{ code: string }>(`SELECT code FROM accounts WHERE company_id = $1 AND type = 'liability' AND control IS NULL ORDER BY code LIMIT 1`, [company.companyId]))[0]!.code
    const mapped = await owner.post(`/v1/integrations/connections/${id}/mappings`, { kind: "tip", source_key: "*", account_code: liability })
    expect(mapped.status).toBe(200)
    expect(mapped.body.gaps).toEqual([])
    const approved = await owner.post(`/v1/integrations/connections/${id}/mappings/approve`, { note: "Looks right" })
    expect(approved.body).toMatchObject({ approved: true, approval_note: "Looks right" })

    commerce.putOrder("shop-1", order("1003", "2026-03-04", { quantity: 1 }))
    commerce.putOrder("shop-1", order("1004", "2026-03-05", { price: "150.00", quantity: 1 }))
    const second = await syncNow(app, owner, id)
    // 1002 was waiting on the tip mapping and now posts; 1003 posts; 1004 is over the threshold.
    expect(second.body.counts).toMatchObject({ posted: 2, proposed: 1, corrected: 1 })
    expect(await entryCount(company.companyId)).toBe(2)

    commerce.putOrder("shop-1", order("1003", "2026-03-04", { quantity: 3 }))
    const third = await syncNow(app, owner, id)
    expect(third.body.counts).toMatchObject({ fetched: 1, needs_review: 1, posted: 0 })
    const review = await owner.get(`/v1/integrations/connections/${id}/objects?status=needs_review`)
    expect(review.body.data.map((object: any) => object.external_id)).toEqual(["1003"])

    const state = await owner.get(`/v1/integrations/connections/${id}`)
    expect(state.body.clearing_balance_cents).toBe(2_500 + 300 + 1_250)
    expect(state.body.proposals_waiting).toBe(3)

    // A proposal decided by a person posts the synced order.
    const proposed = (await owner.get(`/v1/integrations/connections/${id}/objects?status=proposed`)).body.data
    const decided = await owner.post(`/v1/proposals/${proposed.find((object: any) => object.external_id === "1001").proposal_id}/approve`, {})
    expect(decided.status).toBe(201)
    expect((await owner.get(`/v1/integrations/connections/${id}/objects?status=posted`)).body.data.map((object: any) => object.external_id).sort()).toEqual(["1001", "1002"])
    const posted = await entryCount(company.companyId)

    const gone = await owner.post(`/v1/integrations/connections/${id}/disconnect`, { reason: "Switching plans" })
    expect(gone.body.status).toBe("disconnected")
    const agent = await app.query<{ status: string }>(`SELECT status FROM agents WHERE company_id = $1 AND id = $2`, [company.companyId, connection.agent_id])
    expect(agent[0]!.status).toBe("revoked")
    expect((await owner.post(`/v1/integrations/connections/${id}/sync`)).body.error.type).toBe("integration_disconnected")

    const again = await connect(owner, "shop-1")
    expect(again.clearing_account).toBe(connection.clearing_account)
    await owner.post(`/v1/integrations/connections/${again.id}/mappings/approve`, {})
    const resync = await syncNow(app, owner, again.id)
    expect(resync.body.counts.posted).toBe(0)
    expect(resync.body.counts.fetched).toBeGreaterThan(0)
    expect(await entryCount(company.companyId)).toBe(posted)
    const runs = await owner.get(`/v1/integrations/connections/${id}/sync-runs?limit=10`)
    expect(runs.body.data).toHaveLength(3)
    const listed = await owner.get("/v1/integrations/connections?include_disconnected=true")
    expect(listed.body.data.map((item: any) => item.status)).toEqual(["connected", "disconnected"])
  })

  it("refuses a mapping's class that does not exist when it is set, not at every order's posting (issue 39 item 8)", async () => {
    const company = await app.createCompany({ name: "Class Shop Books" })
    const owner = writer(app, company.ownerKey)
    const { id } = await connect(owner, "shop-classes")
    const liability = (await app.query<{ code: string }>(`SELECT code FROM accounts WHERE company_id = $1 AND type = 'liability' AND control IS NULL ORDER BY code LIMIT 1`, [company.companyId]))[0]!.code
    const noClass = await owner.post(`/v1/integrations/connections/${id}/mappings`, { kind: "tip", source_key: "*", account_code: liability, class_name: "Retail" })
    expect(noClass.status).toBe(422)
    expect(noClass.body.error).toMatchObject({ type: "unknown_class", details: { issues: [{ path: ["body", "class_name"] }] } })
    expect((await owner.post("/v1/classes", { name: "Retail" })).status).toBe(201)
    const classed = await owner.post(`/v1/integrations/connections/${id}/mappings`, { kind: "tip", source_key: "*", account_code: liability, class_name: "Retail" })
    expect(classed.status).toBe(200)
    expect(classed.body.gaps).toEqual([])
  })

  it("posts a processor's charges with fees and payouts through the clearing account, and pauses", async () => {
    const company = await app.createCompany({ name: "Processor Co" })
    const owner = writer(app, company.ownerKey)
    const bank = (await app.query<{ code: string }>(`SELECT code FROM accounts WHERE company_id = $1 AND subtype = 'bank' ORDER BY code LIMIT 1`, [company.companyId]))[0]!.code
    const started = await owner.post("/v1/integrations/connections", { provider: "provider_a", payout_bank_account_id: bank })
    const consent = commerce.consent(started.body.consent_url, { id: "acct_9", name: "Processor account" })
    const connection = (await owner.post("/v1/integrations/connections/complete", { state: consent.state, code: consent.code, posting_threshold_cents: 100_000 })).body
    expect(connection.mapping_gaps).toEqual([])
    // The processor's token answer names the account as `stripe_user_id` (issue 39 item 6).
    expect(connection.external_account_id).toBe("acct_9")
    expect(connection.provider_balance_cents).toBeNull()
    await owner.post(`/v1/integrations/connections/${connection.id}/mappings/approve`, {})
    commerce.addCharge("acct_9", { id: "txn_1", amountCents: 10_000, feeCents: 320, date: "2026-04-01" })
    commerce.addPayout("acct_9", { id: "txn_2", amountCents: 9_400, date: "2026-04-03" })
    const run = await syncNow(app, owner, connection.id)
    expect(run.body.counts).toMatchObject({ fetched: 2, posted: 2 })
    // The clearing account and what the processor says it holds: 100.00 - 3.20 fee - 94.00 paid out.
    expect((await owner.get(`/v1/integrations/connections/${connection.id}`)).body).toMatchObject({ clearing_balance_cents: 280, provider_balance_cents: 280 })
    commerce.addPayout("acct_9", { id: "txn_2b", amountCents: 280, date: "2026-04-04" })
    await syncNow(app, owner, connection.id)
    expect((await owner.get(`/v1/integrations/connections/${connection.id}`)).body).toMatchObject({ clearing_balance_cents: 0, provider_balance_cents: 0 })
    commerce.failNext()
    const failed = await syncNow(app, owner, connection.id)
    expect(failed.body.status).toBe("failed")
    expect(failed.body.errors[0]).toContain("unavailable")
    expect((await owner.get(`/v1/integrations/connections/${connection.id}`)).body.health).toBe("needs_attention")
    commerce.addCharge("acct_9", { id: "txn_3", amountCents: 500, date: "2026-04-05" })
    const recovered = await syncNow(app, owner, connection.id)
    expect(recovered.body.counts).toMatchObject({ fetched: 1, posted: 1 })
    const paused = await app.call("POST", `/v1/integrations/connections/${connection.id}/settings`, { token: company.ownerKey, body: { paused: true } })
    expect(paused.body.status).toBe("paused")
    expect((await owner.post(`/v1/integrations/connections/${connection.id}/sync`)).body.error.type).toBe("integration_paused")
  })
})
