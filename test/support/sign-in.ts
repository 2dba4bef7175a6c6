import { Clock, Effect, Layer } from "effect"
import { expect } from "vitest"
import { Ports } from "@ledger/engine"
import { MemoryMail, Providers } from "@ledger/testkit"
import * as Worker from "@ledger/server/workers"
import { makeTestApp, newKey, type TestApp, type TestAppOptions, type TestCompany } from "./index.ts"

/** The sign-in tests' app: a relying party, a master key (authenticator apps), and a mailbox. */

export const appOrigin = "https://app.ledger.test"
export const rpId = "app.ledger.test"

export interface AuthApp extends TestApp {
  readonly mail: MemoryMail.MemoryMail
  /** Runs the due jobs (sign-in mail) into `mail`. */
  readonly deliver: () => Promise<number>
}

export const makeAuthApp = async (options: TestAppOptions = {}): Promise<AuthApp> => {
  const mail = MemoryMail.make()
  const app = await makeTestApp({
    ...options,
    providers: Layer.mergeAll(
      Ports.layerUnconfigured,
      Ports.TokenSealer.layerFromKey(Providers.masterKeyOf(22)),
      Ports.RelyingParty.layer(appOrigin)
    )
  })
  // The workers read the app's clock too, so mail queued at a moved time is due.
  const drain = Worker.drain({ id: "auth-test", ...Worker.defaults }).pipe(Effect.provide(mail.layer))
  const deliver = () => app.runtime.runPromise(app.clock === undefined ? drain : drain.pipe(Effect.provideService(Clock.Clock, app.clock)))
  return { ...app, mail, deliver }
}

let browsers = 0
/** A browser's random cookie value. */
export const newBrowser = () => `browser-${Date.now().toString(36)}-${(browsers++).toString(36)}-${Math.random().toString(36).slice(2, 10)}`

let addresses = 0
export const newAddress = () => `person${Date.now().toString(36)}${(addresses++).toString(36)}@example.test`

/** A person of the company with a sign-in address. */
export const personWithEmail = async (app: TestApp, company: TestCompany, email = newAddress(), role = "owner") => {
  const result = await app.call("POST", "/v1/users", { token: company.ownerKey, key: newKey(), body: { name: "Signing Person", role, email } })
  expect(result.status, JSON.stringify(result.body)).toBe(201)
  return { id: result.body.id as number, email }
}

/** The 6-digit code in the newest mail to `address`. */
export const codeFor = async (app: AuthApp, address: string): Promise<string> => {
  await app.deliver()
  const message = [...app.mail.sent].reverse().find((sent) => sent.to.address === address && sent.subject.includes("sign-in code"))
  if (message === undefined) throw new Error(`no sign-in mail to ${address}`)
  return /\b(\d{6})\b/u.exec(message.text)![1]!
}

export const requestLink = (app: TestApp, email: string, browser: string) =>
  app.call("POST", "/v1/auth/email-links", { body: { email, browser } })

export const submitCode = (app: TestApp, browser: string, code: string) =>
  app.call("POST", "/v1/auth/email-links/code", { body: { browser, code } })

/** Signs in by email code end to end; the 201 body (session and secret) and the response's cookie. */
export const signInByEmail = async (app: AuthApp, email: string, browser = newBrowser()) => {
  expect((await requestLink(app, email, browser)).status).toBe(202)
  const code = await codeFor(app, email)
  const result = await submitCode(app, browser, code)
  expect(result.status, JSON.stringify(result.body)).toBe(201)
  return { secret: result.body.secret as string, session: result.body.session, cookie: result.headers.get("set-cookie"), browser }
}

/** A call with a session token as Bearer. */
export const asSession = (app: TestApp, secret: string) => ({
  get: (path: string) => app.call("GET", path, { token: secret }),
  post: (path: string, body: unknown = {}) => app.call("POST", path, { token: secret, body })
})

/** The body of an answer with `status`, or a failure showing the body. */
export const expectStatus = (result: { readonly status: number; readonly body: any }, status: number) => {
  expect(result.status, JSON.stringify(result.body)).toBe(status)
  return result.body
}

/** A call with a firm credential; `company` names the client (X-Ledger-Company). */
export const firmCall = (
  app: TestApp,
  token: string,
  method: "GET" | "POST",
  path: string,
  options: { readonly body?: unknown; readonly company?: string; readonly headers?: Record<string, string> } = {}
) =>
  app.call(method, path, {
    token,
    ...(method === "POST" ? { key: newKey() } : {}),
    ...(options.body === undefined ? {} : { body: options.body }),
    headers: { ...(options.company === undefined ? {} : { "x-ledger-company": options.company }), ...options.headers }
  })

/** A firm made by the operator: its id, its admin, the admin's firm key. */
export const newFirm = async (app: TestApp, adminEmail?: string) => {
  const created = expectStatus(await app.call("POST", "/v1/firms", {
    token: app.operatorToken,
    key: newKey(),
    body: { name: "Baker & Ames CPAs", admin_name: "Ada Ames", ...(adminEmail === undefined ? {} : { admin_email: adminEmail }) }
  }), 201)
  return { firmId: created.firm.id as number, adminKey: created.secret as string, adminId: created.member.id as number }
}

/** The company's owner grants the firm every scope. */
export const grantAccess = async (app: TestApp, company: TestCompany, firm: { readonly firmId: number }) =>
  expectStatus(await app.call("POST", "/v1/firm-access", {
    token: company.ownerKey,
    key: newKey(),
    body: { firm_id: firm.firmId, scopes: ["read", "propose", "approve", "admin"], billing: "client", reason: "Our accountants" }
  }), 201)
