import { afterAll, beforeAll, describe, expect, it } from "vitest"
import type { TestCompany } from "../support/index.ts"
import {
  asSession,
  type AuthApp,
  codeFor,
  makeAuthApp,
  newAddress,
  newBrowser,
  personWithEmail,
  requestLink,
  signInByEmail,
  submitCode
} from "../support/sign-in.ts"

let app: AuthApp
let company: TestCompany

beforeAll(async () => {
  app = await makeAuthApp()
  company = await app.createCompany({ name: "Sign-in Co" })
})
afterAll(() => app.close())

const wrong = (code: string) => String((Number(code) + 1) % 1_000_000).padStart(6, "0")

describe("email-code sign-in", () => {
  it("mails a code, signs in with it once, sets the HttpOnly session cookie and verifies the address", async () => {
    const person = await personWithEmail(app, company)
    const browser = newBrowser()
    const asked = await requestLink(app, person.email, browser)
    expect(asked.status).toBe(202)
    expect(asked.body.status).toBe("sent")
    const code = await codeFor(app, person.email)
    const signedIn = await submitCode(app, browser, code)
    expect(signedIn.status).toBe(201)
    expect(signedIn.body.secret).toMatch(/^ldgs_[A-Za-z0-9_-]{43}$/u)
    expect(signedIn.body.session).toMatchObject({ kind: "web", method: "email_code", principal: { type: "user", id: person.id, company_id: company.companyId } })
    const cookie = signedIn.headers.get("set-cookie")!
    expect(cookie).toContain(`ledger_session=${signedIn.body.secret}`)
    expect(cookie).toMatch(/HttpOnly/u)
    expect(cookie).toMatch(/SameSite=Lax/u)
    expect(cookie).toMatch(/Secure/u)

    const again = await submitCode(app, browser, code)
    expect(again.status).toBe(401)
    expect(again.body.error.details.outcome).toBe("used")

    const security = await asSession(app, signedIn.body.secret).get("/v1/me/security")
    expect(security.status).toBe(200)
    expect(security.body).toMatchObject({ email: person.email, email_verified: true, passkeys: [], two_step_required: false })
    // The session acts in its company like a key of the person's role.
    expect((await asSession(app, signedIn.body.secret).get("/v1/accounts")).status).toBe(200)
  })

  it("answers 202 for an unknown address and mails nothing", async () => {
    const before = app.mail.sent.length
    const unknown = newAddress()
    const asked = await requestLink(app, unknown, newBrowser())
    expect(asked.status).toBe(202)
    await app.deliver()
    expect(app.mail.sent.slice(before).some((sent) => sent.to.address === unknown)).toBe(false)
  })

  it("locks the request's codes after five wrong codes, even the right code then", async () => {
    const person = await personWithEmail(app, company)
    const browser = newBrowser()
    await requestLink(app, person.email, browser)
    const code = await codeFor(app, person.email)
    for (let attempt = 1; attempt <= 4; attempt++) {
      const refused = await submitCode(app, browser, wrong(code))
      expect(refused.status).toBe(401)
      expect(refused.body.error.details).toMatchObject({ outcome: "wrong_code", attempts_left: 5 - attempt })
    }
    const fifth = await submitCode(app, browser, wrong(code))
    expect(fifth.body.error.details.outcome).toBe("locked")
    const right = await submitCode(app, browser, code)
    expect(right.status).toBe(401)
    expect(right.body.error.details.outcome).toBe("locked")
    const log = await app.query(`SELECT error_type, details FROM audit_events WHERE company_id = $1 AND action = 'signInWithEmailCode'
      AND principal_id = $2 ORDER BY id`, [company.companyId, String(person.id)])
    expect(log.length).toBe(6)
    // A notice of the lock went to the person.
    await app.deliver()
    expect(app.mail.sent.some((sent) => sent.to.address === person.email && sent.subject.includes("locked"))).toBe(true)
  })

  it("refuses a code from another browser, and an older code once a new one replaced it", async () => {
    const person = await personWithEmail(app, company)
    const browser = newBrowser()
    await requestLink(app, person.email, browser)
    const first = await codeFor(app, person.email)
    const elsewhere = await submitCode(app, newBrowser(), first)
    expect(elsewhere.body.error.details.outcome).toBe("invalid")
    await requestLink(app, person.email, browser)
    const second = await codeFor(app, person.email)
    if (second !== first) {
      const old = await submitCode(app, browser, first)
      expect(old.body.error.details.outcome).toBe("replaced")
    }
    expect((await submitCode(app, browser, second)).status).toBe(201)
  })

  it("limits the links one address may be sent, from any browser, and says when to retry", async () => {
    const person = await personWithEmail(app, company)
    for (let index = 0; index < 10; index++) expect((await requestLink(app, person.email, newBrowser())).status).toBe(202)
    const eleventh = await requestLink(app, person.email, newBrowser())
    expect(eleventh.status).toBe(429)
    expect(eleventh.body.error).toMatchObject({ type: "rate_limited", details: { limit: "email" } })
    expect(Number(eleventh.headers.get("retry-after"))).toBe(eleventh.body.error.details.retry_after_seconds)
  })

  it("limits the links one browser may ask for, whatever the addresses", async () => {
    const browser = newBrowser()
    for (let index = 0; index < 5; index++) expect((await requestLink(app, newAddress(), browser)).status).toBe(202)
    const sixth = await requestLink(app, newAddress(), browser)
    expect(sixth.status).toBe(429)
    expect(sixth.body.error.details.limit).toBe("browser")
  })

  it("authenticates by the cookie, and asks writes made with it for the anti-forgery header", async () => {
    const person = await personWithEmail(app, company)
    const signedIn = await signInByEmail(app, person.email)
    const cookie = `ledger_session=${signedIn.secret}`
    const read = await app.call("GET", "/v1/me/security", { headers: { cookie } })
    expect(read.status).toBe(200)
    const forged = await app.call("POST", "/v1/me/sessions/revoke-others", { headers: { cookie }, body: {} })
    expect(forged.status).toBe(403)
    expect(forged.body.error.type).toBe("forbidden")
    const allowed = await app.call("POST", "/v1/me/sessions/revoke-others", { headers: { cookie, "x-ledger-csrf": "1" }, body: {} })
    expect(allowed.status).toBe(200)
    const out = await app.call("POST", "/v1/auth/sign-out", { headers: { cookie, "x-ledger-csrf": "1" }, body: {} })
    expect(out.status).toBe(200)
    expect(out.headers.get("set-cookie")).toMatch(/ledger_session=;.*Max-Age=0/u)
    expect((await app.call("GET", "/v1/me/security", { headers: { cookie } })).status).toBe(401)
  })

  it("writes as the person with their role's scopes, idempotently under a key", async () => {
    const person = await personWithEmail(app, company)
    const { secret } = await signInByEmail(app, person.email)
    const key = `session-write-${Date.now()}`
    const body = { name: "Session consulting", kind: "service" }
    const first = await app.call("POST", "/v1/items", { token: secret, key, body })
    expect(first.status, JSON.stringify(first.body)).toBe(201)
    const replay = await app.call("POST", "/v1/items", { token: secret, key, body })
    expect(replay.status).toBe(201)
    expect(replay.body.id).toBe(first.body.id)
    expect(replay.headers.get("idempotent-replayed")).toBe("true")
    const log = await app.query(`SELECT principal_type, principal_id FROM audit_events WHERE company_id = $1 AND action = 'createItem'
      AND target_id = $2`, [company.companyId, String(first.body.id)])
    expect(log).toEqual([{ principal_type: "user", principal_id: String(person.id) }])
  })

  it("changes the sign-in address, which the next email sign-in verifies", async () => {
    const person = await personWithEmail(app, company)
    const { secret } = await signInByEmail(app, person.email)
    const session = asSession(app, secret)
    const resend = await session.post("/v1/me/email", {})
    expect(resend.body).toEqual({ email: person.email, email_verified: true, verification_sent: false })
    const next = newAddress()
    const changed = await session.post("/v1/me/email", { email: next.toUpperCase() })
    expect(changed.status, JSON.stringify(changed.body)).toBe(200)
    expect(changed.body).toEqual({ email: next, email_verified: false, verification_sent: true })
    await app.deliver()
    expect(app.mail.sent.some((sent) => sent.to.address === next && sent.subject.includes("Confirm"))).toBe(true)
    expect(app.mail.sent.some((sent) => sent.to.address === person.email && sent.subject.includes("security notice"))).toBe(true)
    expect((await session.get("/v1/me/security")).body).toMatchObject({ email: next, email_verified: false })
    await signInByEmail(app, next)
    expect((await session.get("/v1/me/security")).body.email_verified).toBe(true)
    // The old address signs no one in any more.
    const browser = newBrowser()
    await requestLink(app, person.email, browser)
    expect((await submitCode(app, browser, "123456")).body.error.details.outcome).toMatch(/wrong_code|invalid/u)
  })

  it("revokes the person's other sessions, effective on their next request", async () => {
    const person = await personWithEmail(app, company)
    const one = await signInByEmail(app, person.email)
    const two = await signInByEmail(app, person.email)
    const revoked = await asSession(app, one.secret).post("/v1/me/sessions/revoke-others", { reason: "lost laptop" })
    expect(revoked.status).toBe(200)
    expect(revoked.body.revoked).toBe(1)
    expect((await asSession(app, two.secret).get("/v1/me/security")).status).toBe(401)
    expect((await asSession(app, one.secret).get("/v1/me/security")).status).toBe(200)
  })
})
