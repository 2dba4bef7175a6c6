import { Effect } from "effect"
import { SMTPServer } from "smtp-server"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import * as Worker from "@ledger/server/workers"
import { SmtpMail } from "@ledger/server/adapters"
import type { TestCompany } from "../support/index.ts"
import { SoftwareAuthenticator } from "./authenticator.ts"
import { appOrigin, type AuthApp, makeAuthApp, newBrowser, personWithEmail, requestLink, rpId, submitCode } from "../support/sign-in.ts"

/**
 * The whole first sign-in as a person lives it: the code arrives over real SMTP (a receiver in
 * this process), the browser signs in with it and keeps the cookie, adds a passkey from its
 * authenticator, signs out, and signs in again with the passkey alone.
 */

let app: AuthApp
let company: TestCompany
let smtp: SMTPServer
let port = 0
const inbox: Array<{ readonly to: ReadonlyArray<string>; readonly raw: string }> = []

beforeAll(async () => {
  app = await makeAuthApp()
  company = await app.createCompany({ name: "SMTP Co" })
  smtp = new SMTPServer({
    authOptional: true,
    disabledCommands: ["STARTTLS"],
    logger: false,
    onData(stream, session, callback) {
      const chunks: Array<Buffer> = []
      stream.on("data", (chunk: Buffer) => chunks.push(chunk))
      stream.on("end", () => {
        inbox.push({ to: session.envelope.rcptTo.map((recipient) => recipient.address), raw: Buffer.concat(chunks).toString("utf8") })
        callback()
      })
    }
  })
  await new Promise<void>((resolve) => smtp.listen(0, "127.0.0.1", () => resolve()))
  port = (smtp.server.address() as { port: number }).port
})
afterAll(async () => {
  await new Promise<void>((resolve) => smtp.close(() => resolve()))
  await app.close()
})

const deliverOverSmtp = () =>
  app.runtime.runPromise(Worker.drain({ id: "smtp-worker", ...Worker.defaults }).pipe(
    Effect.provide(SmtpMail.layer({ host: "127.0.0.1", port, secure: false, from: "sign-in@ledger.test" }))
  ))

describe("first sign-in end to end", () => {
  it("signs in by a code received over SMTP, adds a passkey with the cookie, and signs in with the passkey", async () => {
    const person = await personWithEmail(app, company)
    const browser = newBrowser()
    expect((await requestLink(app, person.email, browser)).status).toBe(202)
    await deliverOverSmtp()
    const received = inbox.find((message) => message.to.includes(person.email))
    expect(received).toBeDefined()
    // The body is quoted-printable: soft line breaks and =XX escapes.
    const text = received!.raw.replace(/=\r?\n/gu, "").replace(/=([0-9A-F]{2})/gu, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)))
    const code = /sign-in code is (\d{6})/u.exec(text)![1]!
    expect(text).toContain(`${appOrigin}/sign-in/email?code=${code}`)

    const signedIn = await submitCode(app, browser, code)
    expect(signedIn.status).toBe(201)
    const cookie = signedIn.headers.get("set-cookie")!.split(";")[0]!
    const headers = { cookie, "x-ledger-csrf": "1" }

    const authenticator = await SoftwareAuthenticator.make(appOrigin, rpId)
    const options = await app.call("POST", "/v1/me/passkeys/challenge", { headers, body: {} })
    expect(options.status).toBe(200)
    const added = await app.call("POST", "/v1/me/passkeys", { headers, body: { credential: await authenticator.register(options.body.options.challenge), name: "Phone" } })
    expect(added.status, JSON.stringify(added.body)).toBe(201)
    expect((await app.call("POST", "/v1/auth/sign-out", { headers, body: {} })).status).toBe(200)

    const challenge = (await app.call("POST", "/v1/auth/passkey/challenge", { body: {} })).body.options.challenge
    const again = await app.call("POST", "/v1/auth/passkey/sign-in", { body: { credential: await authenticator.assert(challenge) } })
    expect(again.status, JSON.stringify(again.body)).toBe(201)
    expect(again.body.session.principal.id).toBe(person.id)
    // Security notices for the sign-ins and the new passkey went out too.
    await deliverOverSmtp()
    expect(inbox.filter((message) => message.to.includes(person.email) && message.raw.includes("security notice")).length).toBeGreaterThanOrEqual(3)
  })
})
