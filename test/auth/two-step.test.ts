import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { TotpRules } from "@ledger/engine/rules"
import type { TestCompany } from "../support/index.ts"
import {
  asSession,
  type AuthApp,
  codeFor,
  makeAuthApp,
  newBrowser,
  personWithEmail,
  requestLink,
  signInByEmail,
  submitCode
} from "../support/sign-in.ts"

let app: AuthApp
let company: TestCompany
const start = Date.parse("2026-03-02T09:00:00Z")

beforeAll(async () => {
  app = await makeAuthApp({ clock: new Date(start) })
  company = await app.createCompany({ name: "Two-step Co" })
})
afterAll(() => app.close())

const now = () => app.clock!.currentTimeMillisUnsafe()

/** A signed-in person with a confirmed authenticator app: their session and the app's secret. */
const personWithTotp = async () => {
  const person = await personWithEmail(app, company)
  const signedIn = await signInByEmail(app, person.email)
  const session = asSession(app, signedIn.secret)
  const enrolled = await session.post("/v1/me/totp")
  expect(enrolled.status, JSON.stringify(enrolled.body)).toBe(200)
  const secret = enrolled.body.secret as string
  expect(enrolled.body.otpauth_uri).toMatch(new RegExp(`^otpauth://totp/.*secret=${secret}`, "u"))
  const confirmed = await session.post("/v1/me/totp/confirm", { code: TotpRules.codeAt(secret, now()) })
  expect(confirmed.status, JSON.stringify(confirmed.body)).toBe(200)
  app.clock!.advance("30 seconds")
  return { person, session, secret }
}

/** The email step of a person with two-step on: the 200 ticket. */
const firstStep = async (email: string) => {
  const browser = newBrowser()
  await requestLink(app, email, browser)
  const result = await submitCode(app, browser, await codeFor(app, email))
  expect(result.status, JSON.stringify(result.body)).toBe(200)
  expect(result.body).toMatchObject({ second_factor_required: true, methods: expect.arrayContaining(["totp"]) })
  expect(result.body.secret).toBeUndefined()
  return { browser, ticket: result.body.ticket as string }
}

const second = (body: Record<string, unknown>) => app.call("POST", "/v1/auth/second-factor", { body })

describe("authenticator apps, recovery codes and the second step", () => {
  it("signs in in two steps with an authenticator code, which then works no second time", async () => {
    const { person, secret } = await personWithTotp()
    const { browser, ticket } = await firstStep(person.email)
    const status = await app.call("POST", "/v1/auth/second-factor/status", { body: { ticket, browser } })
    expect(status.body).toMatchObject({ status: "open", attempts_left: 5 })
    const code = TotpRules.codeAt(secret, now())
    const signedIn = await second({ ticket, browser, totp_code: code })
    expect(signedIn.status, JSON.stringify(signedIn.body)).toBe(201)
    expect(signedIn.body.session.method).toBe("email_code+totp")
    expect(signedIn.headers.get("set-cookie")).toContain("ledger_session=ldgs_")
    // The same code, on a new ticket within its window: refused as used.
    const next = await firstStep(person.email)
    const replay = await second({ ticket: next.ticket, browser: next.browser, totp_code: code })
    expect(replay.status).toBe(401)
    expect(replay.body.error.details).toMatchObject({ outcome: "wrong_code", attempts_left: 4 })
  })

  it("ends the ticket after five wrong codes", async () => {
    const { person, secret } = await personWithTotp()
    const { browser, ticket } = await firstStep(person.email)
    const right = TotpRules.codeAt(secret, now())
    const wrongCode = String((Number(right) + 1) % 1_000_000).padStart(6, "0")
    for (let attempt = 1; attempt <= 4; attempt++) {
      expect((await second({ ticket, browser, totp_code: wrongCode })).body.error.details.attempts_left).toBe(5 - attempt)
    }
    expect((await second({ ticket, browser, totp_code: wrongCode })).body.error.details.outcome).toBe("locked")
    const late = await second({ ticket, browser, totp_code: right })
    expect(late.body.error.details.outcome).toBe("locked")
  })

  it("shows ten recovery codes once; each works once; new ones end the old", async () => {
    const { person, session } = await personWithTotp()
    const issued = await session.post("/v1/me/recovery-codes")
    expect(issued.status).toBe(200)
    const codes = issued.body.codes as Array<string>
    expect(codes).toHaveLength(10)
    expect(new Set(codes).size).toBe(10)
    const stored = await app.query<{ code_hash: string }>(`SELECT code_hash FROM auth_recovery_codes WHERE company_id = $1`, [company.companyId])
    expect(stored.every((row) => !codes.some((code) => row.code_hash.includes(code)))).toBe(true)

    const one = await firstStep(person.email)
    const signedIn = await second({ ticket: one.ticket, browser: one.browser, recovery_code: codes[0] })
    expect(signedIn.status).toBe(201)
    expect(signedIn.body.session.method).toBe("email_code+recovery_code")
    const two = await firstStep(person.email)
    expect((await second({ ticket: two.ticket, browser: two.browser, recovery_code: codes[0] })).status).toBe(401)
    expect((await session.get("/v1/me/security")).body.recovery_codes.remaining).toBe(9)

    const renewed = await session.post("/v1/me/recovery-codes")
    expect(renewed.body.codes).toHaveLength(10)
    expect((await second({ ticket: two.ticket, browser: two.browser, recovery_code: codes[1] })).status).toBe(401)
    expect((await second({ ticket: two.ticket, browser: two.browser, recovery_code: renewed.body.codes[0] })).status).toBe(201)
  })

  it("turns the app off with a code from it, after which sign-in is one step again", async () => {
    const { person, session, secret } = await personWithTotp()
    const wrongOff = await session.post("/v1/me/totp/disable", { code: "000000" === TotpRules.codeAt(secret, now()) ? "111111" : "000000" })
    expect(wrongOff.status).toBe(422)
    const off = await session.post("/v1/me/totp/disable", { code: TotpRules.codeAt(secret, now()) })
    expect(off.status, JSON.stringify(off.body)).toBe(200)
    expect((await session.get("/v1/me/security")).body.authenticator_app.enabled).toBe(false)
    await signInByEmail(app, person.email)
  })

  it("refuses an email code after its 15 minutes, and a second step with both codes or neither", async () => {
    const person = await personWithEmail(app, company)
    const browser = newBrowser()
    await requestLink(app, person.email, browser)
    const code = await codeFor(app, person.email)
    app.clock!.advance("15 minutes")
    const late = await submitCode(app, browser, code)
    expect(late.status).toBe(401)
    expect(late.body.error.details.outcome).toBe("expired")
    const { person: withApp, secret } = await personWithTotp()
    const { browser: other, ticket } = await firstStep(withApp.email)
    const both = await second({ ticket, browser: other, totp_code: TotpRules.codeAt(secret, now()), recovery_code: "abcde-fghij" })
    expect(both.status).toBe(422)
    expect((await second({ ticket, browser: other })).status).toBe(422)
    const wrongBrowser = await second({ ticket, browser: newBrowser(), totp_code: TotpRules.codeAt(secret, now()) })
    expect(wrongBrowser.body.error.details.outcome).toBe("invalid")
    app.clock!.advance("10 minutes")
    const expired = await second({ ticket, browser: other, totp_code: TotpRules.codeAt(secret, now()) })
    expect(expired.body.error.details.outcome).toBe("expired")
  })

  it("steps up with an authenticator code; a step-up lasts 10 minutes; at most 5 an hour", async () => {
    const { session, secret } = await personWithTotp()
    // Signing in counted as a step-up: ten minutes later it has run out.
    app.clock!.advance("11 minutes")
    const stale = await session.post("/v1/me/recovery-codes")
    expect(stale.status).toBe(403)
    expect(stale.body.error.type).toBe("step_up_required")
    const stepped = await session.post("/v1/me/step-up", { totp_code: TotpRules.codeAt(secret, now()) })
    expect(stepped.status, JSON.stringify(stepped.body)).toBe(200)
    expect(Date.parse(stepped.body.stepped_up_until) - now()).toBe(10 * 60_000)
    expect((await session.post("/v1/me/recovery-codes")).status).toBe(200)
    app.clock!.advance("9 minutes")
    expect((await session.post("/v1/me/recovery-codes")).status).toBe(200)
    app.clock!.advance("61 seconds")
    expect((await session.post("/v1/me/recovery-codes")).status).toBe(403)
    for (let attempt = 0; attempt < 4; attempt++) {
      expect((await session.post("/v1/me/step-up", { totp_code: "000000" })).status).toBe(403)
    }
    const sixth = await session.post("/v1/me/step-up", { totp_code: TotpRules.codeAt(secret, now()) })
    expect(sixth.status).toBe(429)
  })
})
