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
