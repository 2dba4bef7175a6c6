import { afterAll, beforeAll, describe, expect, it } from "vitest"
import type { TestCompany } from "../support/index.ts"
import { SoftwareAuthenticator } from "./authenticator.ts"
import { appOrigin, asSession, type AuthApp, makeAuthApp, personWithEmail, rpId, signInByEmail } from "../support/sign-in.ts"

let app: AuthApp
let company: TestCompany

beforeAll(async () => {
  app = await makeAuthApp()
  company = await app.createCompany({ name: "Passkey Co" })
})
afterAll(() => app.close())

/** A signed-in person with a registered passkey of their own software authenticator. */
const personWithPasskey = async () => {
  const person = await personWithEmail(app, company)
  const signedIn = await signInByEmail(app, person.email)
  const session = asSession(app, signedIn.secret)
  const authenticator = await SoftwareAuthenticator.make(appOrigin, rpId)
  const options = await session.post("/v1/me/passkeys/challenge")
  expect(options.status).toBe(200)
  const added = await session.post("/v1/me/passkeys", { credential: await authenticator.register(options.body.options.challenge), name: "Laptop" })
  expect(added.status, JSON.stringify(added.body)).toBe(201)
  return { person, session, authenticator, passkeyId: added.body.id as number }
}

const challenge = async () => {
  const result = await app.call("POST", "/v1/auth/passkey/challenge", { body: {} })
  expect(result.status).toBe(200)
  return result.body.options.challenge as string
}

const signIn = (credential: unknown) => app.call("POST", "/v1/auth/passkey/sign-in", { body: { credential } })

describe("passkeys", () => {
  it("offers creation options for a discoverable credential with user verification and no attestation", async () => {
    const person = await personWithEmail(app, company)
    const signedIn = await signInByEmail(app, person.email)
    const options = (await asSession(app, signedIn.secret).post("/v1/me/passkeys/challenge")).body.options
    expect(options).toMatchObject({
      rp: { id: rpId },
      attestation: "none",
      authenticatorSelection: { residentKey: "required", userVerification: "required" }
    })
    expect(options.pubKeyCredParams.map((param: { alg: number }) => param.alg)).toContain(-7)
  })

  it("registers a passkey and signs in with it (two factors at once)", async () => {
    const { person, authenticator } = await personWithPasskey()
    const result = await signIn(await authenticator.assert(await challenge()))
    expect(result.status, JSON.stringify(result.body)).toBe(201)
    expect(result.body.session).toMatchObject({ method: "passkey", principal: { id: person.id } })
    expect(result.headers.get("set-cookie")).toContain("ledger_session=ldgs_")
    const security = await asSession(app, result.body.secret).get("/v1/me/security")
    expect(security.body.passkeys).toEqual([expect.objectContaining({ name: "Laptop", last_used_at: expect.any(String) })])
  })

  it("refuses a wrong origin, a wrong RP, an unknown challenge, a replayed challenge, a lowered sign count and no user verification", async () => {
    const { authenticator } = await personWithPasskey()
    const refusedWith = async (credential: unknown) => {
      const result = await signIn(credential)
      expect(result.status, JSON.stringify(result.body)).toBe(401)
      expect(result.body.error.type).toBe("passkey_refused")
      return result.body.error.details.reason as string
    }
    await refusedWith(await authenticator.assert(await challenge(), { origin: "https://evil.example" }))
    await refusedWith(await authenticator.assert(await challenge(), { rpId: "evil.example" }))
    await refusedWith(await authenticator.assert("bm90LWEtY2hhbGxlbmdlLXdlLWlzc3VlZA"))
    await refusedWith(await authenticator.assert(await challenge(), { userVerified: false }))
    await refusedWith(await authenticator.assert(await challenge(), { type: "webauthn.create" }))

    const fresh = await challenge()
    const good = await authenticator.assert(fresh)
    expect((await signIn(good)).status).toBe(201)
    expect(await refusedWith(good)).toMatch(/challenge/u)
    await refusedWith(await authenticator.assert(await challenge(), { signCount: 1 }))
  })

  it("needs a fresh step-up to add one, refuses a registration without user verification, and removes one", async () => {
    const { person, session, authenticator, passkeyId } = await personWithPasskey()
    const other = await SoftwareAuthenticator.make(appOrigin, rpId)
    // The sign-in's step-up, moved back past its 10 minutes: adding is refused until a new one.
    await app.query(`UPDATE auth_sessions SET stepped_up_at = stepped_up_at - interval '11 minutes' WHERE user_id = $1`, [person.id])
    const stale = await session.post("/v1/me/passkeys", { credential: await other.register((await session.post("/v1/me/passkeys/challenge")).body.options.challenge) })
    expect(stale.status).toBe(403)
    expect(stale.body.error.type).toBe("step_up_required")
    await app.query(`UPDATE auth_sessions SET stepped_up_at = now() WHERE user_id = $1`, [person.id])
    const options = await session.post("/v1/me/passkeys/challenge")
    const noUv = await session.post("/v1/me/passkeys", { credential: await other.register(options.body.options.challenge, { userVerified: false }) })
    expect(noUv.status).toBe(401)
    const again = await session.post("/v1/me/passkeys", { credential: await authenticator.register((await session.post("/v1/me/passkeys/challenge")).body.options.challenge) })
    expect(again.status).toBe(409)
    const removed = await session.post(`/v1/me/passkeys/${passkeyId}/remove`, { reason: "lost it" })
    expect(removed.status).toBe(200)
    expect((await signIn(await authenticator.assert(await challenge()))).status).toBe(401)
    expect((await session.post(`/v1/me/passkeys/${passkeyId}/remove`, {})).status).toBe(404)
  })

  it("keeps the last second factor when the company requires two-step sign-in", async () => {
    const { session, passkeyId } = await personWithPasskey()
    await app.query(`UPDATE companies SET require_two_step = true WHERE company_id = $1`, [company.companyId])
    try {
      const refused = await session.post(`/v1/me/passkeys/${passkeyId}/remove`, {})
      expect(refused.status).toBe(409)
      expect(refused.body.error.type).toBe("last_second_factor")
    } finally {
      await app.query(`UPDATE companies SET require_two_step = false WHERE company_id = $1`, [company.companyId])
    }
  })

  it("steps up with a passkey on a single-use challenge bound to the session", async () => {
    const { session, authenticator } = await personWithPasskey()
    const started = await session.post("/v1/me/step-up/challenge")
    expect(started.body.methods).toContain("passkey")
    const credential = await authenticator.assert(started.body.challenge)
    const stepped = await session.post("/v1/me/step-up", { challenge: started.body.challenge, credential })
    expect(stepped.status, JSON.stringify(stepped.body)).toBe(200)
    expect(stepped.body.method).toBe("passkey")
    const replay = await session.post("/v1/me/step-up", { challenge: started.body.challenge, credential })
    expect(replay.status).toBe(403)
    expect(replay.body.error.type).toBe("step_up_required")
  })
})
