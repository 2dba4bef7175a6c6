import { createHash, randomBytes } from "node:crypto"
import { Clock, Effect, Layer } from "effect"
import { expect } from "vitest"
import { Ports } from "@ledger/engine"
import { MemoryMail, Providers } from "@ledger/testkit"
import * as Worker from "@ledger/server/workers"
import { makeTestApp, newKey, type TestApp, type TestCompany } from "./index.ts"

/** The AI apps and AI consent tests' app and helpers: an owner signed in (a browser session), a registered client, PKCE. */

export const base = "http://ledger.test"
export const redirectUri = "http://127.0.0.1:33418/callback"

export interface AuthApp extends TestApp {
  readonly mail: MemoryMail.MemoryMail
  readonly deliver: () => Promise<number>
}

/**
 * An app with a relying party, a master key and a mailbox, so people sign in by email code;
 * `extra` adds services to its providers (a client-document fetcher that admits loopback).
 */
export const makeAiApp = async (extra: Layer.Layer<never> = Layer.empty, options: { readonly clock?: string } = {}): Promise<AuthApp> => {
  const mail = MemoryMail.make()
  const app = await makeTestApp({
    ...(options.clock === undefined ? {} : { clock: options.clock }),
    providers: Layer.mergeAll(
      Ports.layerUnconfigured,
      Ports.TokenSealer.layerFromKey(Providers.masterKeyOf(24)),
      Ports.RelyingParty.layer("https://app.ledger.test"),
      extra
    )
  })
  const drain = Worker.drain({ id: "ai-apps-support", ...Worker.defaults }).pipe(Effect.provide(mail.layer))
  const deliver = () => app.runtime.runPromise(app.clock === undefined ? drain : drain.pipe(Effect.provideService(Clock.Clock, app.clock)))
  return { ...app, mail, deliver }
}

let people = 0
/** A new owner with a sign-in address, signed in by email code: a fresh (stepped-up) browser session. */
const signedInOwner = async (app: AuthApp, company: TestCompany) => {
  const email = `owner${Date.now().toString(36)}${(people++).toString(36)}@example.test`
  const user = await app.call("POST", "/v1/users", { token: company.ownerKey, key: newKey(), body: { name: "Pat Owner", role: "owner", email } })
  expect(user.status, JSON.stringify(user.body)).toBe(201)
  const browser = `browser-${Math.random().toString(36).slice(2)}`
  expect((await app.call("POST", "/v1/auth/email-links", { body: { email, browser } })).status).toBe(202)
  await app.deliver()
  const message = [...app.mail.sent].reverse().find((sent) => sent.to.address === email)
  const code = /\b(\d{6})\b/u.exec(message!.text)![1]!
  const session = await app.call("POST", "/v1/auth/email-links/code", { body: { browser, code } })
  expect(session.status, JSON.stringify(session.body)).toBe(201)
  return session.body.secret as string
}

export interface Owner {
  readonly company: TestCompany
  /** The owner's browser session secret, freshly signed in (so stepped up). */
  readonly session: string
}

export const ownerSignedIn = async (app: AuthApp): Promise<Owner> => {
  const company = await app.createCompany()
  return { company, session: await signedInOwner(app, company) }
}

export const pkce = () => {
  const verifier = randomBytes(32).toString("base64url")
  return { verifier, challenge: createHash("sha256").update(verifier).digest("base64url") }
}

export const registerClient = async (app: AuthApp, uris: ReadonlyArray<string> = [redirectUri]) => {
  const response = await app.fetch(new Request(`${base}/oauth/register`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ client_name: "Test MCP client", redirect_uris: uris, token_endpoint_auth_method: "none" })
  }))
  expect(response.status).toBe(201)
  return (await response.json()) as { client_id: string }
}

/** The person approves on the consent screen: POST /v1/ai-connections in their browser session. */
export const approve = (app: AuthApp, owner: Owner, body: Record<string, unknown>) =>
  app.call("POST", "/v1/ai-connections", { token: owner.session, key: newKey(), body })

export const form = (app: AuthApp, path: string, fields: Record<string, string>) =>
  app.fetch(new Request(`${base}${path}`, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams(fields).toString()
  })).then(async (response) => ({ status: response.status, body: await response.json() as any }))

/** Registers, approves at `level` and exchanges the code: the token response and the connection. */
export const connectedApp = async (app: AuthApp, owner: Owner, level = "read", extra: Record<string, unknown> = {}) => {
  const client = await registerClient(app)
  const { verifier, challenge } = pkce()
  const approval = await approve(app, owner, {
    client_id: client.client_id, redirect_uri: redirectUri, code_challenge: challenge, code_challenge_method: "S256", level, ...extra
  })
  expect(approval.status, JSON.stringify(approval.body)).toBe(201)
  const tokens = await form(app, "/oauth/token", {
    grant_type: "authorization_code", code: approval.body.code, code_verifier: verifier, client_id: client.client_id, redirect_uri: redirectUri
  })
  expect(tokens.status, JSON.stringify(tokens.body)).toBe(200)
  return { client, connection: approval.body.connection, tokens: tokens.body as { access_token: string; refresh_token: string } }
}

/** A firm (made by the operator) and its first admin's firm key. */
export const createFirm = async (app: AuthApp) => {
  const result = await app.call("POST", "/v1/firms", { token: app.operatorToken, key: newKey(), body: { name: "AI Firm CPAs", admin_name: "Ada Admin" } })
  expect(result.status, JSON.stringify(result.body)).toBe(201)
  return { firmId: result.body.firm.id as number, adminKey: result.body.secret as string }
}

/** The company's owner grants the firm live access. */
export const grantFirmAccess = async (app: AuthApp, company: TestCompany, firmId: number) => {
  const result = await app.call("POST", "/v1/firm-access", {
    token: company.ownerKey, key: newKey(), body: { firm_id: firmId, scopes: ["read", "propose", "approve", "admin"], billing: "client", reason: "Our accountants" }
  })
  expect(result.status, JSON.stringify(result.body)).toBe(201)
}
