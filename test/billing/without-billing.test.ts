import { SMTPServer } from "smtp-server"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { freshStore, type RunningServer, startServer, type Store } from "../support/server-process.ts"

/**
 * A deployment without billing, as the README's `pnpm start` runs it: the real `ledger serve`
 * process with no payment processor (no LEDGER_PAYMENTS_URL). Every plan feature and add-on is on
 * for every company: crypto receipts can be switched on; billing says `not_configured` and its
 * writes answer 503 `billing_not_configured`, never `billing_no_subscription` (DECISIONS
 * "Deployments without billing", ADR 2000). The owner signs in by email code (crypto settings are
 * for a person signed in), mailed by the server's worker to an SMTP listener of the test.
 */
const operatorToken = `operator-billing-${Date.now()}`
const inbox: Array<{ to: ReadonlyArray<string>; raw: string }> = []
let smtp: SMTPServer
let store: Store
let server: RunningServer

beforeAll(async () => {
  smtp = new SMTPServer({
    authOptional: true,
    disabledCommands: ["STARTTLS"],
    logger: false,
    onData(stream, session, callback) {
      const chunks: Array<Buffer> = []
      stream.on("data", (chunk: Buffer) => chunks.push(chunk))
      stream.on("end", () => {
        inbox.push({ to: session.envelope.rcptTo.map((recipient) => recipient.address), raw: Buffer.concat(chunks).toString("latin1") })
        callback()
      })
    }
  })
  await new Promise<void>((resolve) => smtp.listen(0, "127.0.0.1", () => resolve()))
  const smtpPort = (smtp.server.address() as { port: number }).port
  store = await freshStore()
  server = await startServer(store, {
    ...(store.kind === "pglite" ? { LEDGER_DATA_DIR: "memory" } : {}),
    LEDGER_OPERATOR_TOKEN: operatorToken,
    LEDGER_SMTP_URL: `smtp://127.0.0.1:${smtpPort}`,
    LEDGER_MAIL_FROM: "ledger@ledger.test"
  })
}, 300_000)

afterAll(async () => {
  await server?.stop()
  await store?.remove()
  await new Promise<void>((resolve) => smtp.close(() => resolve()))
})

let counter = 0
const call = async (method: string, route: string, token: string | null, body?: unknown) => {
  const response = await fetch(`${server.url}${route}`, {
    method,
    headers: {
      ...(token === null ? {} : { authorization: `Bearer ${token}` }),
      ...(body === undefined ? {} : { "content-type": "application/json", "idempotency-key": `no-billing-${Date.now()}-${counter++}` })
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) })
  })
  return { status: response.status, body: await response.json() as any }
}

const waitFor = async <A>(find: () => A | undefined, milliseconds: number): Promise<A> => {
  const deadline = Date.now() + milliseconds
  while (Date.now() < deadline) {
    const found = find()
    if (found !== undefined) return found
    await new Promise((resolve) => setTimeout(resolve, 200))
  }
  throw new Error("nothing arrived in time")
}

/** The owner of a new company on the business plan, signed in by email code: the key and the session. */
const ownerSignedIn = async () => {
  const email = `owner-${Date.now().toString(36)}-${counter++}@example.test`
  const made = await call("POST", "/v1/companies", operatorToken, { name: "Self-hosted Co", owner_name: "Owner", owner_email: email, plan: "business" })
  expect(made.status, JSON.stringify(made.body)).toBe(201)
  const browser = `browser-${Math.random().toString(36).slice(2)}`
  expect((await call("POST", "/v1/auth/email-links", null, { email, browser })).status).toBe(202)
  const mail = await waitFor(() => inbox.find((message) => message.to.includes(email) && /\b\d{6}\b/u.test(message.raw)), 60_000)
  const code = /\b(\d{6})\b/u.exec(mail.raw)![1]!
  const signed = await call("POST", "/v1/auth/email-links/code", null, { browser, code })
  expect(signed.status, JSON.stringify(signed.body)).toBe(201)
  return { key: made.body.secret as string, session: signed.body.secret as string }
}

describe("a deployment without billing (ledger serve, no payment processor)", () => {
  it("has every add-on: crypto receipts switch on, billing says not_configured and its writes 503", async () => {
    const owner = await ownerSignedIn()

    const billing = await call("GET", "/v1/billing", owner.key)
    expect(billing.status, JSON.stringify(billing.body)).toBe(200)
    expect(billing.body).toMatchObject({ billing: "not_configured", read_only: false, crypto_addon: true, usage: { feed_accounts_included: null } })

    // Crypto receipts: the add-on is there, so the owner signed in switches them on.
    expect((await call("GET", "/v1/crypto/settings", owner.key)).body).toMatchObject({ enabled: false, addon: true })
    const on = await call("POST", "/v1/crypto/settings", owner.session, { enabled: true })
    expect(on.status, JSON.stringify(on.body)).toBe(200)
    expect(on.body).toMatchObject({ enabled: true, addon: true })

    // Billing's writes have no processor to ask: 503 billing_not_configured, not "no subscription".
    for (const [path, body] of [["/v1/billing/crypto-addon", { on: true }], ["/v1/billing/feed-accounts", { quantity: 2 }], ["/v1/billing/plan", { plan: "advanced", interval: "month" }], ["/v1/billing/overage-cap", { cap_cents: 100 }]] as const) {
      const refused = await call("POST", path, owner.session, body)
      expect(refused.status, `${path}: ${JSON.stringify(refused.body)}`).toBe(503)
      expect(refused.body.error.type, path).toBe("billing_not_configured")
    }

    // The owner's API key is no signed-in session (DECISIONS "People-only and signed-in operations").
    for (const [path, body] of [["/v1/crypto/settings", { quote_minutes: 45 }], ["/v1/billing/crypto-addon", { on: true }]] as const) {
      const byKey = await call("POST", path, owner.key, body)
      expect(byKey.status, path).toBe(403)
      expect(byKey.body.error.type, path).toBe("session_required")
    }
  }, 180_000)
})
