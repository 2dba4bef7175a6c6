import { Effect } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { MemoryMail } from "@ledger/testkit"
import * as Worker from "@ledger/server/workers"
import { agentModel, agentWithKey, auditEvents, makeTestApp, personWithKey } from "../support/index.ts"
import { company, makeTaxFormsApp, payer, profile, type TaxFormsApp, vendor } from "./support.ts"

let t: TaxFormsApp
beforeAll(async () => {
  t = await makeTaxFormsApp()
})
afterAll(() => t.app.close())

describe("the payer", () => {
  it("needs its TIN the first time, shows it masked, keeps it when it is left out", async () => {
    const c = await company(t.app)
    expect((await c.get("/v1/tax-forms/payer")).body).toMatchObject({ name: null, tin_masked: null })
    const { tin: _tin, ...withoutTin } = payer
    expect((await c.post("/v1/tax-forms/payer", withoutTin)).body.error.type).toBe("tin_required")
    const set = await c.post("/v1/tax-forms/payer", payer)
    expect(set.status).toBe(200)
    expect(set.body).toMatchObject({ name: "Acme Widgets LLC", tin_type: "EIN", tin_masked: "**-***6789" })
    expect(JSON.stringify(set.body)).not.toContain("3456789")
    const renamed = await c.post("/v1/tax-forms/payer", { ...withoutTin, name: "Acme Widgets Inc" })
    expect(renamed.body).toMatchObject({ name: "Acme Widgets Inc", tin_masked: "**-***6789" })
  })
})

describe("vendor tax profiles", () => {
  it("supersede each other, are masked on read, and reveal the TIN only to an admin person, audited", async () => {
    const c = await company(t.app)
    const v = await vendor(c, "Pat Painter")
    const second = await c.post(`/v1/vendors/${v}/tax-profile`, profile({ legal_name: "Pat Painter", tin: "987-65-4321" }))
    expect(second.status).toBe(201)
    const current = await c.get(`/v1/vendors/${v}/tax-profile`)
    expect(current.body).toMatchObject({ id: second.body.id, tin_masked: "***-**-4321", source: "entered" })
    expect(JSON.stringify(current.body)).not.toContain("987654321")
    const reveal = await c.post(`/v1/vendors/${v}/tax-profile/reveal`, {})
    expect(reveal.body).toMatchObject({ contact_id: v, tin: "987654321" })
    const events = await auditEvents(t.app, c.key)
    expect(events.filter((event: any) => event.action === "revealVendorTin" && event.outcome === "ok" && event.target_id === String(v)).length).toBe(1)
    const accountant = await personWithKey(t.app, c.key, "accountant")
    expect((await c.post(`/v1/vendors/${v}/tax-profile/reveal`, {}, accountant.key.secret)).body.error.type).toBe("insufficient_scope")
    const agent = await agentWithKey(t.app, c.key, ["read", "propose", "approve", "admin"])
    const byAgent = await t.app.call("POST", `/v1/vendors/${v}/tax-profile/reveal`, { token: agent.key.secret, headers: { "x-agent-model": agentModel }, body: {} })
    expect(byAgent.status).toBe(403)
  })

  it("TIN matching goes through the filing provider and is recorded", async () => {
    const c = await company(t.app)
    const v = await vendor(c, "Mo Mismatch", { tin: "555-44-3333" })
    t.filer.scriptTin("555443333", "mismatched")
    const matched = await c.post(`/v1/vendors/${v}/tin-match`, {})
    expect(matched.body).toMatchObject({ contact_id: v, result: "mismatched" })
    expect((await c.get(`/v1/vendors/${v}/tax-profile`)).body.tin_match).toBe("mismatched")
  })
})

describe("W-9 requests", () => {
  it("email a single-use link; the vendor's submission becomes the profile; the link then refuses", async () => {
    const c = await company(t.app)
    const v = await vendor(c, "Wendy W9", null)
    const made = await c.post("/v1/w9-requests", { contact_id: v, message: "Thanks!" })
    expect(made.status).toBe(201)
    expect(made.body).toMatchObject({ status: "sent", email: "wendy.w9@example.com" })
    const mail = MemoryMail.make()
    await t.app.runtime.runPromise(Worker.drain({ id: "w9-test", ...Worker.defaults }).pipe(Effect.provide(mail.layer)))
    const message = mail.sent.find((sent) => sent.to.address === "wendy.w9@example.com")!
    expect(message.subject).toBe("Tax Test Co asks for your Form W-9")
    expect(message.text).toContain("Thanks!")
    // The link is absolute, on the configured web app's address (LEDGER_APP_URL), never relative.
    const link = /https?:\/\/\S+/.exec(message.text)![0]
    expect(link).toMatch(/^https:\/\/books\.example\.test\/w9\/w9_[A-Za-z0-9_-]{43}$/)
    const token = new URL(link).pathname.split("/").at(-1)!
    // Sent: the link is gone from the job's row.
    const jobs = await t.app.query<{ payload: any }>("SELECT payload FROM jobs WHERE kind = 'w9.request_email' AND company_id = $1", [c.companyId])
    expect(JSON.stringify(jobs)).not.toContain(token)
    const stored = await t.app.query("SELECT token_hash FROM tax_w9_requests WHERE id = $1", [made.body.id])
    expect(JSON.stringify(stored)).not.toContain(token)
    const form = { ...profile({ legal_name: "Wendy W9", tin: "222-33-4444" }), certify: true }
    const submitted = await t.app.call("POST", `/v1/w9/${token}`, { body: form })
    expect(submitted.status).toBe(201)
    expect(submitted.body).toMatchObject({ received: true, requester: "Tax Test Co", tin_masked: "***-**-4444" })
    expect((await c.get(`/v1/vendors/${v}/tax-profile`)).body).toMatchObject({ source: "w9", tin_masked: "***-**-4444" })
    expect((await t.app.call("POST", `/v1/w9/${token}`, { body: form })).body.error.type).toBe("w9_request_closed")
    expect((await c.get(`/v1/w9-requests?contact_id=${v}`)).body.data[0].status).toBe("completed")
    expect((await t.app.call("POST", `/v1/w9/w9_${"x".repeat(43)}`, { body: form })).status).toBe(404)
  })

  it("without the web app's address no link is mailed: 503, nothing queued", async () => {
    const bare = await makeTaxFormsApp({ appUrl: undefined })
    try {
      const c = await company(bare.app)
      const v = await vendor(c, "Nora Nolink", null)
      const refused = await c.post("/v1/w9-requests", { contact_id: v })
      expect(refused.status).toBe(503)
      expect(refused.body.error.type).toBe("service_unavailable")
      expect(JSON.stringify(refused.body.error)).toContain("LEDGER_APP_URL")
      expect(await bare.app.query("SELECT id FROM jobs WHERE kind = 'w9.request_email'")).toEqual([])
      expect((await c.get(`/v1/w9-requests?contact_id=${v}`)).body.data).toEqual([])
    } finally {
      await bare.app.close()
    }
  })

  it("a cancelled request's link stops working", async () => {
    const c = await company(t.app)
    const v = await vendor(c, "Carla Cancel", null)
    const made = await c.post("/v1/w9-requests", { contact_id: v, email: "carla@example.com", expires_days: 7 })
    expect((await c.post(`/v1/w9-requests/${made.body.id}/cancel`, { reason: "Got a paper W-9" })).body.status).toBe("cancelled")
    expect((await c.post(`/v1/w9-requests/${made.body.id}/cancel`, { reason: "again" })).body.error.type).toBe("w9_request_closed")
  })
})

describe("no filing provider", () => {
  it("TIN matching and approving a filing answer 503 tax_filing_not_configured", async () => {
    const bare = await makeTaxFormsApp({ filer: false })
    try {
      const c = await company(bare.app, "No Filer Co")
      await c.post("/v1/tax-forms/payer", payer)
      const v = await vendor(c, "Nia Nofiler")
      expect((await c.post(`/v1/vendors/${v}/tin-match`, {})).body.error.type).toBe("tax_filing_not_configured")
      await c.post("/v1/tax-forms/prior-amounts", { amounts: [{ year: 2026, contact_id: v, box: "NEC1", amount_cents: 500_000 }] })
      const proposed = await c.post("/v1/tax-forms/filings", { year: 2026, provider: "partner_live" })
      expect(proposed.status).toBe(201)
      const approve = await c.post(`/v1/tax-forms/filings/${proposed.body.id}/approve`, { preview_sha256: proposed.body.preview_sha256 })
      expect(approve.status).toBe(503)
      expect(approve.body.error.type).toBe("tax_filing_not_configured")
      expect((await c.get(`/v1/tax-forms/filings/${proposed.body.id}`)).body.status).toBe("proposed")
    } finally {
      await bare.app.close()
    }
  })
})

describe("no filing provider, no master key", () => {
  it("answers 503 with what to configure", async () => {
    const app = await makeTestApp()
    try {
      const made = await app.createCompany({ name: "Bare Co" })
      const refused = await app.call("POST", "/v1/tax-forms/payer", { token: made.ownerKey, body: payer })
      expect(refused.status).toBe(503)
      expect(refused.body.error.type).toBe("tin_sealing_not_configured")
    } finally {
      await app.close()
    }
  })
})
