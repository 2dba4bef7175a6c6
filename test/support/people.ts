import { expect } from "vitest"
import { newKey, type TestApp, type TestCompany } from "./app.ts"

/** People, agents and their keys, made through the API itself as a company's owner or admin. */

export type Role = "owner" | "cpa" | "accountant" | "staff"

/** The model an agent's writes name (X-Agent-Model); agents' writes need one. */
export const agentModel = "test-model/1.0"

export const createUser = async (app: TestApp, adminKey: string, role: Role, name = `${role} person`) => {
  const result = await app.call("POST", "/v1/users", { token: adminKey, key: newKey(), body: { name, role } })
  expect(result.status, JSON.stringify(result.body)).toBe(201)
  return result.body as { id: number; role: string; scopes: Array<string> }
}

export const createAgent = async (
  app: TestApp,
  adminKey: string,
  options: { readonly scopes?: ReadonlyArray<string>; readonly posting_threshold_cents?: number; readonly name?: string } = {}
) => {
  const result = await app.call("POST", "/v1/agents", {
    token: adminKey,
    key: newKey(),
    body: {
      name: options.name ?? "Bookkeeping agent",
      scopes: options.scopes ?? ["read", "propose"],
      posting_threshold_cents: options.posting_threshold_cents ?? 10_000
    }
  })
  expect(result.status, JSON.stringify(result.body)).toBe(201)
  return result.body as { id: number; scopes: Array<string> }
}

export interface IssuedKey {
  readonly id: number
  readonly secret: string
  readonly body: any
}

export const createKey = async (app: TestApp, adminKey: string, body: Record<string, unknown>): Promise<IssuedKey> => {
  const result = await app.call("POST", "/v1/keys", { token: adminKey, key: newKey(), body })
  expect(result.status, JSON.stringify(result.body)).toBe(201)
  return { id: result.body.key.id, secret: result.body.secret, body: result.body }
}

/** A person of `role` and a key of theirs with `scopes` (default: everything the role allows). */
export const personWithKey = async (app: TestApp, adminKey: string, role: Role, scopes?: ReadonlyArray<string>) => {
  const user = await createUser(app, adminKey, role)
  const key = await createKey(app, adminKey, { principal_type: "user", user_id: user.id, scopes: scopes ?? user.scopes })
  return { user, key }
}

/** An agent with `scopes` and a key holding all of them. */
export const agentWithKey = async (
  app: TestApp,
  adminKey: string,
  scopes: ReadonlyArray<string> = ["read", "propose"],
  keyOptions: Record<string, unknown> = {}
) => {
  const agent = await createAgent(app, adminKey, { scopes })
  const key = await createKey(app, adminKey, { principal_type: "agent", agent_id: agent.id, scopes, ...keyOptions })
  return { agent, key }
}

/** An agent as its writes use it: its id, its key's secret and the headers its writes need. */
export interface Agent {
  readonly id: number
  readonly key: string
  readonly headers: Record<string, string>
}

/** An agent of the company with these scopes and posting threshold, and a key holding them. */
export const agentWithThreshold = async (
  app: TestApp,
  company: TestCompany,
  options: { readonly thresholdCents: number; readonly scopes?: ReadonlyArray<string>; readonly name?: string }
): Promise<Agent> => {
  const scopes = options.scopes ?? ["read", "propose"]
  const agent = await createAgent(app, company.ownerKey, {
    scopes,
    posting_threshold_cents: options.thresholdCents,
    ...(options.name === undefined ? {} : { name: options.name })
  })
  const key = await createKey(app, company.ownerKey, { principal_type: "agent", agent_id: agent.id, scopes })
  return { id: agent.id, key: key.secret, headers: { "x-agent-model": agentModel } }
}

/** A person of the company with this role and a key holding `scopes`. */
export const createPerson = async (
  app: TestApp,
  company: TestCompany,
  role: Role,
  scopes: ReadonlyArray<string>
): Promise<{ readonly id: number; readonly key: string }> => {
  const user = await createUser(app, company.ownerKey, role, `A ${role}`)
  const key = await createKey(app, company.ownerKey, { principal_type: "user", user_id: user.id, scopes })
  return { id: user.id, key: key.secret }
}

/**
 * A person's own browser session, for the operations the spec keeps for a person "signed in"
 * (crypto's and online payments' owner operations, billing's writes: any API key is refused
 * `session_required`). Signs the person in by email code as the web app does; the code is read
 * from the mail queued for them (`auth_mails`), so no worker runs and no other job is touched.
 * Signing in counts as a step-up (concepts 5.5) for 10 minutes of the app's clock.
 */

let addresses = 0

export interface SignedIn {
  /** `ldgs_…`: the session token, used as Bearer like a key. */
  readonly secret: string
  readonly userId: number
  readonly email: string
}

/**
 * Signs `userId` (default: the company's first owner) in. A person without an address is given a
 * fresh one first (a test seam: the API sets addresses only when it creates a person).
 */
export const signInAs = async (
  app: TestApp,
  company: { readonly companyId: string; readonly ownerId: number },
  userId: number = company.ownerId
): Promise<SignedIn> => {
  const found = await app.query<{ email: string | null }>(`SELECT email FROM users WHERE company_id = $1 AND id = $2`, [company.companyId, userId])
  if (found[0] === undefined) throw new Error(`no user ${userId} in ${company.companyId}`)
  let email = found[0].email
  if (email === null) {
    email = `signed-in-${Date.now().toString(36)}-${(addresses++).toString(36)}@example.test`
    await app.query(`UPDATE users SET email = $1 WHERE company_id = $2 AND id = $3`, [email, company.companyId, userId])
  }
  const browser = `browser-${Math.random().toString(36).slice(2)}-${(addresses++).toString(36)}`
  const link = await app.call("POST", "/v1/auth/email-links", { body: { email, browser } })
  expect(link.status, JSON.stringify(link.body)).toBe(202)
  const mails = await app.query<{ body: string | null }>(
    `SELECT body FROM auth_mails WHERE lower(to_address) = lower($1) AND kind = 'email_code' ORDER BY id DESC LIMIT 1`,
    [email]
  )
  const code = /\b(\d{6})\b/u.exec(mails[0]?.body ?? "")?.[1]
  if (code === undefined) throw new Error(`no sign-in code queued for ${email}`)
  const signed = await app.call("POST", "/v1/auth/email-links/code", { body: { browser, code } })
  expect(signed.status, JSON.stringify(signed.body)).toBe(201)
  return { secret: signed.body.secret as string, userId, email }
}

/** A new person of `role` in the company, signed in: for a CPA's session, or a second owner's. */
export const signedInPerson = async (
  app: TestApp,
  company: { readonly companyId: string; readonly ownerKey: string; readonly ownerId: number },
  role: "owner" | "cpa" | "accountant" | "staff" = "owner"
): Promise<SignedIn> => {
  const made = await app.call("POST", "/v1/users", { token: company.ownerKey, key: newKey(), body: { name: `Signed-in ${role}`, role } })
  expect(made.status, JSON.stringify(made.body)).toBe(201)
  return signInAs(app, company, made.body.id as number)
}
