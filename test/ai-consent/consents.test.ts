import { createHash } from "node:crypto"
import { readFileSync } from "node:fs"
import { extractText, getDocumentProxy } from "unpdf"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { type AuthApp, connectedApp, makeAiApp, type Owner, ownerSignedIn } from "../support/ai-apps.ts"
import { getFile, isPdf, newKey } from "../support/index.ts"

/** Section 7216 consent end to end (spec 4.4, concepts 3.10): request, PDF, sign, upload, supersede, revoke, the log, the gate. */

let app: AuthApp
let owner: Owner
beforeAll(async () => {
  app = await makeAiApp()
  owner = await ownerSignedIn(app)
}, 240_000)
afterAll(() => app.close())

const request = { providers: ["provider_a", "provider_b"], data_categories: ["books", "bank_lines"], purposes: ["bookkeeping"] }
const post = (path: string, body: unknown, token = owner.company.ownerKey) => app.call("POST", path, { token, key: newKey(), body })
const get = (path: string, token = owner.company.ownerKey) => app.call("GET", path, { token })

const textOf = async (base64: string) => {
  const pdf = await getDocumentProxy(new Uint8Array(Buffer.from(base64, "base64")))
  return (await extractText(pdf, { mergePages: true })).text as string
}

describe("section 7216 consent", () => {
  it("lists the provider registry and previews the template without saving", async () => {
    const registry = await get("/v1/ai-providers")
    expect(registry.status).toBe(200)
    expect(registry.body.providers.map((p: any) => p.provider)).toEqual(["provider_a", "provider_b", "provider_c", "provider_d", "other"])
    const template = await get("/v1/company/ai-consents/template?providers=provider_a&data_categories=books&purposes=bookkeeping")
    expect(template.status, JSON.stringify(template.body)).toBe(200)
    expect(template.body.text).toContain("Provider A")
    expect(template.body.text_sha256).toMatch(/^[0-9a-f]{64}$/)
    expect((await get("/v1/company/ai-consents/template?providers=nobody&data_categories=books&purposes=bookkeeping")).status).toBe(422)
    expect((await get("/v1/company/ai-consents")).body.data).toEqual([])
  })

  it("freezes a request, makes its PDF, signs it by typed name in the owner's session, and revokes it", async () => {
    const created = await post("/v1/company/ai-consents", request)
    expect(created.status, JSON.stringify(created.body)).toBe(201)
    expect(created.body.status).toBe("pending")
    const id = created.body.id
    // format=pdf is the PDF itself; format=base64 the same bytes in JSON (ADR 0015).
    const pdf = await getFile(app.fetch, `/v1/company/ai-consents/${id}?format=pdf`, owner.company.ownerKey)
    expect(pdf.contentType).toBe("application/pdf")
    expect(isPdf(pdf.bytes)).toBe(true)
    const envelope = await get(`/v1/company/ai-consents/${id}?format=base64`)
    expect(envelope.body.content_type).toBe("application/pdf")
    expect(Buffer.from(envelope.body.content_base64, "base64").equals(Buffer.from(pdf.bytes))).toBe(true)
    expect(await textOf(envelope.body.content_base64)).toContain("CONSENT TO DISCLOSE TAX RETURN INFORMATION")
    expect((await get(`/v1/company/ai-consents/${id}/signed-pdf`)).body.error.type).toBe("consent_not_signed")

    // An API key is no owner's browser session.
    const byKey = await post(`/v1/company/ai-consents/${id}/sign`, { typed_name: "Pat Owner", accepted_providers: ["provider_a"] })
    expect(byKey.status).toBe(403)
    expect(byKey.body.error.type).toBe("consent_not_owner")
    const foreign = await post(`/v1/company/ai-consents/${id}/sign`, { typed_name: "Pat Owner", accepted_providers: ["provider_c"] }, owner.session)
    expect(foreign.status).toBe(422)
    const signed = await post(`/v1/company/ai-consents/${id}/sign`, { typed_name: "Pat Owner", accepted_providers: ["provider_a"] }, owner.session)
    expect(signed.status, JSON.stringify(signed.body)).toBe(200)
    expect(signed.body.status).toBe("valid_now")
    expect(signed.body.signed_method).toBe("typed")
    expect(signed.body.valid_until).toBeTypeOf("string")
    const signedPdf = await getFile(app.fetch, `/v1/company/ai-consents/${id}/signed-pdf`, owner.company.ownerKey)
    expect(signedPdf.contentType).toBe("application/pdf")
    const text = await textOf(Buffer.from(signedPdf.bytes).toString("base64"))
    expect(text).toContain("Pat Owner")
    expect(text).toContain(created.body.text_sha256)
    expect((await post(`/v1/company/ai-consents/${id}/sign`, { typed_name: "Pat", accepted_providers: ["provider_a"] }, owner.session)).body.error.type)
      .toBe("consent_not_pending")

    // A successor supersedes it once signed.
    const next = await post("/v1/company/ai-consents", { ...request, supersedes: id })
    expect(next.status).toBe(201)
    expect(next.body.version).toBe(created.body.version + 1)
    await post(`/v1/company/ai-consents/${next.body.id}/sign`, { typed_name: "Pat Owner", accepted_providers: ["provider_a", "provider_b"] }, owner.session)
    expect((await get(`/v1/company/ai-consents/${id}`)).body.status).toBe("superseded")
    const revoked = await post(`/v1/company/ai-consents/${next.body.id}/revoke`, { reason: "Stopped using AI" })
    expect(revoked.body.status).toBe("revoked")
    expect((await post(`/v1/company/ai-consents/${next.body.id}/revoke`, {})).status).toBe(409)
  })

  it("records a paper-signed upload only for a real PDF with attestation, and cancels a pending one", async () => {
    const created = await post("/v1/company/ai-consents", request)
    const id = created.body.id
    const upload = (pdf: string, attest = true) =>
      post(`/v1/company/ai-consents/${id}/upload`, { pdf_base64: pdf, signed_on: "2026-01-05", signed_by: "Pat Owner", attest, accepted_providers: ["provider_b"] })
    expect((await upload(Buffer.from("not a pdf at all").toString("base64"))).body.error.type).toBe("consent_invalid_pdf")
    expect((await upload(Buffer.from("%PDF-1.7 but broken").toString("base64"))).body.error.type).toBe("consent_invalid_pdf")
    const file = readFileSync("test/fixtures/pdf/invoice2data_oyo.pdf").toString("base64")
    expect((await upload(file, false)).status).toBe(422)
    const done = await upload(file)
    expect(done.status, JSON.stringify(done.body)).toBe(200)
    expect(done.body.signed_method).toBe("upload")
    const stored = await get(`/v1/company/ai-consents/${id}/signed-pdf?format=base64`)
    expect(stored.body.content_base64).toBe(file)

    const pending = await post("/v1/company/ai-consents", request)
    expect((await post(`/v1/company/ai-consents/${pending.body.id}/revoke`, {})).body.status).toBe("cancelled")
  })

  it("keeps the requirement, each agent's provider and coverage, and logs every move oldest first", async () => {
    const on = await post("/v1/company/ai-7216", { required: true, reason: "Preparer policy" })
    expect(on.status, JSON.stringify(on.body)).toBe(200)
    expect(on.body.effective_required).toBe(true)
    const { connection, tokens } = await connectedApp(app, owner, "read")
    // The gate: with the requirement on, an app whose provider is undeclared is kept out, told why.
    const kept = await get("/v1/accounts", tokens.access_token)
    expect(kept.status).toBe(403)
    expect(kept.body.error.type).toBe("consent_required")
    expect(kept.body.error.message).toContain("declare this app's AI provider")
    const state = await get("/v1/company/ai-7216")
    const agent = state.body.agents.find((a: any) => a.agent_id === connection.agent_id)
    expect(agent).toMatchObject({ kind: "ai_app", ai_provider: null, covered: false })
    const declared = await post(`/v1/agents/${connection.agent_id}/ai-provider`, { ai_provider: "provider_b", ai_model_family: "b-large" })
    expect(declared.status, JSON.stringify(declared.body)).toBe(200)
    expect(declared.body.covered).toBe(true) // the uploaded consent accepted provider_b
    expect((await get("/v1/accounts", tokens.access_token)).status).toBe(200)
    await post(`/v1/agents/${connection.agent_id}/ai-provider`, { ai_provider: "provider_d" })
    expect((await get("/v1/accounts", tokens.access_token)).body.error.message).toContain("provider_d")
    await post(`/v1/agents/${connection.agent_id}/ai-provider`, { ai_provider: "provider_b" })
    expect((await post("/v1/agents/999999/ai-provider", { ai_provider: "none" })).status).toBe(404)
    const log = await get("/v1/company/ai-7216-log")
    const events = log.body.data.map((entry: any) => entry.event)
    expect(events[0]).toBe("consent_requested")
    expect(events).toContain("consent_signed")
    expect(events).toContain("consent_superseded")
    expect(events).toContain("consent_uploaded")
    expect(events.at(-1)).toBe("agent_provider_declared")
    // Turning it off in a browser session needs a recent step-up; with a key, the key's own rules apply.
    const hash = createHash("sha256").update(owner.session).digest("hex")
    await app.query("UPDATE auth_sessions SET stepped_up_at = now() - interval '1 hour' WHERE secret_hash = $1", [hash])
    const stale = await post("/v1/company/ai-7216", { required: false }, owner.session)
    expect(stale.status).toBe(403)
    expect(stale.body.error.type).toBe("step_up_required")
    expect((await post("/v1/company/ai-7216", { required: true }, owner.session)).status).toBe(200)
    expect((await post("/v1/company/ai-7216", { required: false })).body.required).toBe(false)
  })
})
