import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { TotpRules } from "@ledger/engine/rules"
import { newKey, type TestCompany } from "../support/index.ts"
import { SoftwareAuthenticator } from "./authenticator.ts"
import {
  appOrigin,
  type AuthApp,
  codeFor,
  expectStatus,
  firmCall,
  grantAccess,
  makeAuthApp,
  newAddress,
  newBrowser,
  newFirm as makeFirm,
  personWithEmail,
  rpId,
  submitCode
} from "../support/sign-in.ts"

/**
 * Firm members sign in on the web (docs/decisions/1006-firm-members-sign-in.md): an email code
 * opens a firm session (`ldgf_`) through the firms area's seam, the cookie carries it to the
 * firm's operations and, with X-Ledger-Company, into a granting client; the first people of a
 * company and a firm sign in with the address given at creation; owner invitations need a step-up.
 */

let app: AuthApp

beforeAll(async () => {
  app = await makeAuthApp({ clock: "2026-04-06T08:00:00Z" })
})
afterAll(() => app.close())

const newFirm = (adminEmail: string) => makeFirm(app, adminEmail)

const signIn = async (email: string, principalType?: "user" | "firm_member") => {
  const browser = newBrowser()
  const asked = await app.call("POST", "/v1/auth/email-links", {
    body: { email, browser, ...(principalType === undefined ? {} : { principal_type: principalType }) }
  })
  expect(asked.status).toBe(202)
  const answer = await submitCode(app, browser, await codeFor(app, email))
  expect(answer.status, JSON.stringify(answer.body)).toBe(201)
  return answer
}

/** A call with the session cookie, as the web app makes it. */
const withCookie = (cookie: string, method: "GET" | "POST", path: string, options: { body?: unknown; company?: string } = {}) =>
  app.call(method, path, {
    headers: {
      cookie: cookie.split(";")[0]!,
      ...(method === "POST" ? { "x-ledger-csrf": "1", "idempotency-key": newKey() } : {}),
      ...(options.company === undefined ? {} : { "x-ledger-company": options.company })
    },
    ...(options.body === undefined ? {} : { body: options.body })
  })

describe("firm members sign in on the web", () => {
  let firm: Awaited<ReturnType<typeof newFirm>>
  let client: TestCompany
  const adminEmail = newAddress()

  beforeAll(async () => {
    firm = await newFirm(adminEmail)
    client = await app.createCompany({ name: "Client A" })
    await grantAccess(app, client, firm)
  })

  it("signs the admin in by email code to a firm session, set as the cookie, that works at the firm and in a client", async () => {
    const signedIn = await signIn(adminEmail)
    expect(signedIn.body.secret).toMatch(/^ldgf_[A-Za-z0-9_-]{43}$/u)
    expect(signedIn.body.session).toMatchObject({
      kind: "firm",
      method: "email_code",
      principal: { type: "firm_member", id: firm.adminId, firm_id: firm.firmId, company_id: null }
    })
    const cookie = signedIn.headers.get("set-cookie")!
    expect(cookie).toContain(`ledger_session=${signedIn.body.secret}`)
    expect(cookie).toMatch(/HttpOnly/u)

    // The firm's own operations and, naming the client, the client's.
    const clients = await withCookie(cookie, "GET", "/v1/firm/clients?limit=10")
    expect(clients.status, JSON.stringify(clients.body)).toBe(200)
    expect(clients.body.data.map((each: { company_id: string }) => each.company_id)).toContain(client.companyId)
    expect((await withCookie(cookie, "GET", "/v1/accounts", { company: client.companyId })).status).toBe(200)
    // A company it has no grant in: the stranger's answer.
    const stranger = await app.createCompany({ name: "Not a client" })
    expect((await withCookie(cookie, "GET", "/v1/accounts", { company: stranger.companyId })).status).toBe(404)

    // Its own settings at the firm level, no client named; the address is now verified.
    const security = await withCookie(cookie, "GET", "/v1/me/security")
    expect(security.status, JSON.stringify(security.body)).toBe(200)
    expect(security.body).toMatchObject({ email: adminEmail, email_verified: true, session: { kind: "firm", id: signedIn.body.session.id } })
    // The sign-in is in the firm's hash-chained log.
    const logged = await app.query<{ action: string }>(
      `SELECT action FROM firm_audit_events WHERE firm_id = $1 AND principal_type = 'firm_member' AND action IN ('requestEmailLink', 'signInWithEmailCode')`,
      [firm.firmId]
    )
    expect(logged.map((row) => row.action).sort()).toEqual(["requestEmailLink", "signInWithEmailCode"])

    // Sign-out ends it on the next request.
    expect((await withCookie(cookie, "POST", "/v1/auth/sign-out", { body: {} })).status).toBe(200)
    expect((await withCookie(cookie, "GET", "/v1/firm/clients")).status).toBe(401)
  })

  it("needs a step-up within 10 minutes to create a client with its owner invitation, or to reissue one", async () => {
    const signedIn = await signIn(adminEmail)
    const token = signedIn.body.secret as string
    // Signing in counts as a step-up: recovery codes and a client now.
    const codes = expectStatus(await firmCall(app, token, "POST", "/v1/me/recovery-codes", { body: {} }), 200).codes as Array<string>
    const created = expectStatus(await firmCall(app, token, "POST", "/v1/firm/clients", { body: { name: "Cafe", owner_name: "Cy", owner_email: "cy@cafe.example" } }), 201)
    app.clock!.advance("11 minutes")
    const refused = await firmCall(app, token, "POST", `/v1/firm/clients/${created.company.company_id}/owner-invite`, { body: {} })
    expect(refused.status, JSON.stringify(refused.body)).toBe(403)
    expect(refused.body.error.type).toBe("step_up_required")
    expect((await firmCall(app, token, "POST", "/v1/firm/clients", { body: { name: "Bakery", owner_name: "Bo" } })).body.error.type).toBe("step_up_required")
    const steppedUp = await firmCall(app, token, "POST", "/v1/me/step-up", { body: { recovery_code: codes[0] } })
    expect(steppedUp.status, JSON.stringify(steppedUp.body)).toBe(200)
    const reissued = await firmCall(app, token, "POST", `/v1/firm/clients/${created.company.company_id}/owner-invite`, { body: {} })
    expect([200, 201]).toContain(reissued.status)
    // The member's own changes at the firm level are in the firm's log, whose chain still verifies.
    const logged = await app.query<{ action: string }>(
      `SELECT action FROM firm_audit_events WHERE firm_id = $1 AND action IN ('createRecoveryCodes', 'stepUp') ORDER BY seq`,
      [firm.firmId]
    )
    expect(logged.map((row) => row.action)).toEqual(["createRecoveryCodes", "stepUp"])
    const verified = expectStatus(await firmCall(app, firm.adminKey, "GET", "/v1/firm/audit/verify"), 200)
    expect(verified).toMatchObject({ valid: true, first_broken_seq: null })
    // A firm key is no browser session: its scopes govern it, no step-up asked.
    expect((await firmCall(app, firm.adminKey, "POST", `/v1/firm/clients/${created.company.company_id}/owner-invite`, { body: {} })).status)
      .toBe(reissued.status)
  })

  it("asks a member with an authenticator app for the second step, which then opens the firm session", async () => {
    const email = newAddress()
    expectStatus(await firmCall(app, firm.adminKey, "POST", "/v1/firm/members", { body: { name: "Cal Cpa", role: "cpa", email } }), 201)
    const first = (await signIn(email)).body.secret as string
    const now = () => app.clock!.currentTimeMillisUnsafe()
    const enrolled = expectStatus(await firmCall(app, first, "POST", "/v1/me/totp", { body: {} }), 200)
    expectStatus(await firmCall(app, first, "POST", "/v1/me/totp/confirm", { body: { code: TotpRules.codeAt(enrolled.secret, now()) } }), 200)
    app.clock!.advance("30 seconds")

    const browser = newBrowser()
    await app.call("POST", "/v1/auth/email-links", { body: { email, browser } })
    const ticket = await submitCode(app, browser, await codeFor(app, email))
    expect(ticket.status, JSON.stringify(ticket.body)).toBe(200)
    expect(ticket.body).toMatchObject({ second_factor_required: true, methods: expect.arrayContaining(["totp"]) })
    const done = await app.call("POST", "/v1/auth/second-factor", {
      body: { ticket: ticket.body.ticket, browser, totp_code: TotpRules.codeAt(enrolled.secret, now()) }
    })
    expect(done.status, JSON.stringify(done.body)).toBe(201)
    expect(done.body.secret).toMatch(/^ldgf_/u)
    expect(done.body.session).toMatchObject({ kind: "firm", method: "email_code+totp", principal: { type: "firm_member", firm_id: firm.firmId } })
    expect(done.headers.get("set-cookie")).toContain(`ledger_session=${done.body.secret}`)
  })

  it("registers a member's passkey, which then signs them in to a firm session in one step", async () => {
    const email = newAddress()
    const member = expectStatus(await firmCall(app, firm.adminKey, "POST", "/v1/firm/members", { body: { name: "Bea Bookkeeper", role: "bookkeeper", email } }), 201)
    const session = (await signIn(email)).body.secret as string
    const authenticator = await SoftwareAuthenticator.make(appOrigin, rpId)
    const options = expectStatus(await firmCall(app, session, "POST", "/v1/me/passkeys/challenge", { body: {} }), 200)
    expectStatus(await firmCall(app, session, "POST", "/v1/me/passkeys", { body: { credential: await authenticator.register(options.options.challenge), name: "Office laptop" } }), 201)
    const challenge = expectStatus(await app.call("POST", "/v1/auth/passkey/challenge", { body: {} }), 200).options.challenge as string
    const signedIn = await app.call("POST", "/v1/auth/passkey/sign-in", { body: { credential: await authenticator.assert(challenge) } })
    expect(signedIn.status, JSON.stringify(signedIn.body)).toBe(201)
    expect(signedIn.body.session).toMatchObject({ kind: "firm", method: "passkey", principal: { type: "firm_member", id: member.id, firm_id: firm.firmId } })
    // The firm session acts in a granting client, within the bookkeeper role's scopes.
    expect((await firmCall(app, signedIn.body.secret, "GET", "/v1/accounts", { company: client.companyId })).status).toBe(200)
  })

  it("refuses a console session opened with a firm key the member's own sign-in settings", async () => {
    const opened = expectStatus(await firmCall(app, firm.adminKey, "POST", "/v1/firm/sessions", { body: {} }), 201)
    const refused = await firmCall(app, opened.secret, "GET", "/v1/me/security")
    expect(refused.status).toBe(403)
    expect(refused.body.error.type).toBe("insufficient_scope")
  })

  it("a removed member's address signs in no more", async () => {
    const email = newAddress()
    const member = expectStatus(await firmCall(app, firm.adminKey, "POST", "/v1/firm/members", { body: { name: "Brief Bookkeeper", role: "bookkeeper", email } }), 201)
    const session = (await signIn(email)).body.secret as string
    expect((await firmCall(app, session, "GET", "/v1/firm")).status).toBe(200)
    expectStatus(await firmCall(app, firm.adminKey, "POST", `/v1/firm/members/${member.id}/remove`, { body: { reason: "left" } }), 200)
    expect((await firmCall(app, session, "GET", "/v1/firm")).status).toBe(401)
    await app.deliver()
    const before = app.mail.sent.length
    expect((await app.call("POST", "/v1/auth/email-links", { body: { email, browser: newBrowser() } })).status).toBe(202)
    await app.deliver()
    expect(app.mail.sent.slice(before).some((mail) => mail.to.address === email && mail.subject.includes("sign-in code"))).toBe(false)
  })
})

describe("one address, a company person and a firm member", () => {
  it("signs in as the company person by default and as the firm member when the console asks", async () => {
    const email = newAddress()
    const firm = await newFirm(email)
    const company = await app.createCompany({ name: "Own books" })
    const person = await personWithEmail(app, company, email)
    const asUser = await signIn(email)
    expect(asUser.body.session.principal).toMatchObject({ type: "user", id: person.id, company_id: company.companyId })
    expect(asUser.body.secret).toMatch(/^ldgs_/u)
    const asMember = await signIn(email, "firm_member")
    expect(asMember.body.session.principal).toMatchObject({ type: "firm_member", id: firm.adminId, firm_id: firm.firmId })
    // An address that names one of them only signs in as that one, whichever was asked for.
    const memberOnly = newAddress()
    const other = await newFirm(memberOnly)
    expect((await signIn(memberOnly, "user")).body.session.principal).toMatchObject({ type: "firm_member", id: other.adminId })
  })
})

describe("the first people sign in with the address given at creation", () => {
  it("a company's owner (owner_email on POST /v1/companies)", async () => {
    const email = newAddress()
    const created = expectStatus(await app.call("POST", "/v1/companies", {
      token: app.operatorToken,
      key: newKey(),
      body: { name: "Owned by email", owner_name: "Olive Owner", owner_email: email.toUpperCase(), plan: "owned" }
    }), 201)
    const signedIn = await signIn(email)
    expect(signedIn.body.session.principal).toMatchObject({ type: "user", id: created.owner.id, company_id: created.company.company_id })
  })

  it("a client's owner created by a firm (owner_email on POST /v1/firm/clients)", async () => {
    const firm = await newFirm(newAddress())
    const email = newAddress()
    const created = expectStatus(await firmCall(app, firm.adminKey, "POST", "/v1/firm/clients", { body: { name: "Client by firm", owner_name: "Cleo", owner_email: email } }), 201)
    const signedIn = await signIn(email)
    expect(signedIn.body.session.principal).toMatchObject({ type: "user", id: created.owner.id, company_id: created.company.company_id })
  })
})
