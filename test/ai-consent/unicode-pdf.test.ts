import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { type AuthApp, makeAiApp, type Owner, ownerSignedIn } from "../support/ai-apps.ts"
import { newKey, pdfTextOfBase64 as textOf } from "../support/index.ts"

/** The signed consent keeps every character of the signer's typed name (issue 20 item 4; ADR 0016). */

const phrase = "Überprüfung — 検査 €"
const json = { accept: "application/json" }

describe("the signed consent", () => {
  let app: AuthApp
  let owner: Owner
  beforeAll(async () => {
    app = await makeAiApp()
    owner = await ownerSignedIn(app)
  }, 240_000)
  afterAll(() => app.close())

  it("prints the signer's typed name as written", async () => {
    const request = { providers: ["provider_a"], data_categories: ["books"], purposes: ["bookkeeping"] }
    const created = await app.call("POST", "/v1/company/ai-consents", { token: owner.company.ownerKey, key: newKey(), body: request })
    expect(created.status, JSON.stringify(created.body)).toBe(201)
    const signed = await app.call("POST", `/v1/company/ai-consents/${created.body.id}/sign`, {
      token: owner.session, key: newKey(), body: { typed_name: phrase, accepted_providers: ["provider_a"] }
    })
    expect(signed.status, JSON.stringify(signed.body)).toBe(200)
    const pdf = await app.call("GET", `/v1/company/ai-consents/${created.body.id}/signed-pdf`, { token: owner.company.ownerKey, headers: json })
    expect(pdf.status, JSON.stringify(pdf.body)).toBe(200)
    expect(await textOf(pdf.body.content_base64)).toContain(`Signed by: ${phrase}`)
  })
})
