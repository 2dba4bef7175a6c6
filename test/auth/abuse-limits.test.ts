import { afterAll, beforeAll, describe, expect, it } from "vitest"
import type { TestCompany } from "../support/index.ts"
import { type AuthApp, codeFor, makeAuthApp, newAddress, newBrowser, personWithEmail } from "../support/sign-in.ts"

/**
 * The public sign-in steps' abuse limits over HTTP (docs/decisions/1005-sign-in-abuse-limits.md),
 * behind a trusted proxy (LEDGER_TRUST_PROXY=1: the client is the first X-Forwarded-For hop), on
 * the test clock; and that a known and an unknown address cost the request the same work.
 */

let app: AuthApp
let company: TestCompany

beforeAll(async () => {
  app = await makeAuthApp({ clock: "2026-03-02T09:00:00Z", trustProxy: true })
  company = await app.createCompany({ name: "Limits Co" })
})
afterAll(() => app.close())

let clients = 0
const newClient = () => `203.0.113.${(clients++ % 250) + 1}`

const from = (client: string) => ({
  requestLink: (email: string, browser = newBrowser()) =>
    app.call("POST", "/v1/auth/email-links", { body: { email, browser }, headers: { "x-forwarded-for": `${client}, 10.0.0.1` } }),
  submitCode: (browser: string, code: string) =>
    app.call("POST", "/v1/auth/email-links/code", { body: { browser, code }, headers: { "x-forwarded-for": client } })
})

describe("abuse limits of the public sign-in steps", () => {
  it("limits one client's links for an address, without locking the address out for another client", async () => {
    const victim = await personWithEmail(app, company)
    const attacker = from(newClient())
    for (let index = 0; index < 5; index++) expect((await attacker.requestLink(victim.email)).status).toBe(202)
    const refused = await attacker.requestLink(victim.email)
    expect(refused.status).toBe(429)
    expect(refused.body.error).toMatchObject({ type: "rate_limited", details: { limit: "email-client", retry_after_seconds: 900 } })
    expect(refused.headers.get("retry-after")).toBe("900")

    // The person, from their own network, still gets a code and signs in with it.
    await app.deliver()
    const person = from(newClient())
    const browser = newBrowser()
    expect((await person.requestLink(victim.email, browser)).status).toBe(202)
    const signedIn = await person.submitCode(browser, await codeFor(app, victim.email))
    expect(signedIn.status).toBe(201)
  })

  it("caps the mail one address is sent from everywhere, and lifts the cap when the window has passed", async () => {
    const target = await personWithEmail(app, company)
    // Ten clients' links fill the address's own limit; the eleventh client is refused.
    for (let index = 0; index < 10; index++) expect((await from(newClient()).requestLink(target.email)).status).toBe(202)
    const late = from(newClient())
    const refused = await late.requestLink(target.email)
    expect(refused.status).toBe(429)
    expect(refused.body.error.details.limit).toBe("email")
    const retryAfter = Number(refused.headers.get("retry-after"))
    expect(retryAfter).toBeGreaterThan(0)
    expect(retryAfter).toBeLessThanOrEqual(900)
    // A second before the time told, still refused; at it, allowed.
    app.clock!.advance(`${retryAfter - 1} seconds`)
    expect((await late.requestLink(target.email)).status).toBe(429)
    app.clock!.advance("1 second")
    expect((await late.requestLink(target.email)).status).toBe(202)
  })

  it("limits every public step from one client address, and only that address", async () => {
    const noisyAddress = newClient()
    const noisy = from(noisyAddress)
    let refused = null
    for (let index = 0; index < 101 && refused === null; index++) {
      const answer = await noisy.submitCode(newBrowser(), "123456")
      if (answer.status === 429) refused = { index, answer }
      else expect(answer.body.error.details.outcome).toBe("invalid")
    }
    expect(refused?.index).toBe(100)
    expect(refused?.answer.body.error.details.limit).toBe("client")
    expect(Number(refused?.answer.headers.get("retry-after"))).toBeGreaterThan(0)
    // A passkey challenge from there is refused too; from another client, answered.
    const challenge = (client: string) => app.call("POST", "/v1/auth/passkey/challenge", { body: {}, headers: { "x-forwarded-for": client } })
    expect((await challenge(noisyAddress)).status).toBe(429)
    expect((await challenge(newClient())).status).toBe(200)
    const other = await from(newClient()).submitCode(newBrowser(), "123456")
    expect(other.status).toBe(401)
    app.clock!.advance("16 minutes")
  })

  it("takes the socket's address, not X-Forwarded-For, unless the proxy is trusted", async () => {
    const untrusting = await makeAuthApp()
    try {
      // In process there is no socket: no client address, so only the address and browser limits apply.
      const address = newAddress()
      for (let index = 0; index < 10; index++) {
        const answer = await untrusting.call("POST", "/v1/auth/email-links", {
          body: { email: address, browser: newBrowser() },
          headers: { "x-forwarded-for": "198.51.100.7" }
        })
        expect(answer.status).toBe(202)
      }
      const counted = await untrusting.query<{ bucket: string }>(`SELECT DISTINCT bucket FROM auth_throttle`)
      expect(counted.some((row) => row.bucket.includes("198.51.100.7"))).toBe(false)
    } finally {
      await untrusting.close()
    }
  })
})

const tables = ["auth_email_links", "auth_mails", "jobs", "audit_events", "auth_throttle", "auth_sessions"] as const

const counts = async () => {
  const result: Record<string, number> = {}
  for (const table of tables) result[table] = Number((await app.query<{ n: unknown }>(`SELECT count(*) AS n FROM ${table}`))[0]!.n)
  return result
}

const delta = (before: Record<string, number>, after: Record<string, number>) =>
  Object.fromEntries(tables.map((table) => [table, after[table]! - before[table]!]))

describe("known and unknown addresses", () => {
  it("cost the request the same rows and the same answer; only the worker tells them apart", async () => {
    const known = await personWithEmail(app, company)
    const unknown = newAddress()
    const client = from(newClient())
    await app.deliver()

    const beforeKnown = await counts()
    const knownAnswer = await client.requestLink(known.email)
    const knownDelta = delta(beforeKnown, await counts())
    const beforeUnknown = await counts()
    const unknownAnswer = await client.requestLink(unknown)
    const unknownDelta = delta(beforeUnknown, await counts())

    expect(knownAnswer.status).toBe(202)
    expect(unknownAnswer.status).toBe(202)
    expect(Object.keys(unknownAnswer.body).sort()).toEqual(Object.keys(knownAnswer.body).sort())
    expect([...unknownAnswer.headers.keys()].sort()).toEqual([...knownAnswer.headers.keys()].sort())
    // One link, one mail row, one job, the limits' counts, and no audit event in the request, either way.
    expect(unknownDelta).toEqual(knownDelta)
    expect(knownDelta).toMatchObject({ auth_email_links: 1, auth_mails: 1, jobs: 1, audit_events: 0 })

    // The worker mails the known address only (one call to the mail port), and records the request in its log.
    const sentBefore = app.mail.sent.length
    await app.deliver()
    const sent = app.mail.sent.slice(sentBefore)
    expect(sent.map((mail) => mail.to.address)).toEqual([known.email])
    const mails = await app.query<{ to_address: string; status: string; body: string | null }>(
      `SELECT to_address, status, body FROM auth_mails WHERE to_address IN ($1, $2)`,
      [known.email, unknown]
    )
    expect(mails.find((mail) => mail.to_address === unknown)).toMatchObject({ status: "void", body: null })
    expect(mails.find((mail) => mail.to_address === known.email)).toMatchObject({ status: "sent", body: null })
    const logged = await app.query(`SELECT 1 FROM audit_events WHERE company_id = $1 AND action = 'requestEmailLink' AND principal_id = $2`, [
      company.companyId,
      String(known.id)
    ])
    expect(logged).toHaveLength(1)

    // A wrong code is counted and answered alike.
    const knownBrowser = newBrowser()
    const unknownBrowser = newBrowser()
    await client.requestLink(known.email, knownBrowser)
    await client.requestLink(unknown, unknownBrowser)
    const wrongKnown = await client.submitCode(knownBrowser, "000000")
    const wrongUnknown = await client.submitCode(unknownBrowser, "000000")
    expect(wrongUnknown.status).toBe(wrongKnown.status)
    expect(wrongUnknown.body.error.details).toEqual(wrongKnown.body.error.details)
  })
})
