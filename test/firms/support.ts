import { expect } from "vitest"
import { agentModel, type CallResult, newKey, type TestApp, type TestCompany } from "../support/index.ts"

/** Firms, their people and their clients, made through the API as tests use them. */

export interface TestFirm {
  readonly firmId: number
  readonly adminKey: string
  readonly adminId: number
  readonly body: any
}

export const createFirm = async (app: TestApp, name = "Ledger & Co CPAs"): Promise<TestFirm> => {
  const result = await app.call("POST", "/v1/firms", { token: app.operatorToken, key: newKey(), body: { name, admin_name: "Ada Admin" } })
  expect(result.status, JSON.stringify(result.body)).toBe(201)
  return { firmId: result.body.firm.id, adminKey: result.body.secret, adminId: result.body.member.id, body: result.body }
}

/** A call with a firm credential; `company` names the client (X-Ledger-Company). */
export const firmCall = (
  app: TestApp,
  token: string,
  method: "GET" | "POST",
  path: string,
  options: { readonly body?: unknown; readonly company?: string; readonly headers?: Record<string, string>; readonly key?: string | null } = {}
): Promise<CallResult> =>
  app.call(method, path, {
    token,
    ...(method === "POST" && options.key !== null ? { key: options.key ?? newKey() } : {}),
    ...(options.body === undefined ? {} : { body: options.body }),
    headers: { ...(options.company === undefined ? {} : { "x-ledger-company": options.company }), ...options.headers }
  })

export const expectStatus = (result: CallResult, status: number) => {
  expect(result.status, JSON.stringify(result.body)).toBe(status)
  return result.body
}

/** A member of the firm with a key holding everything the role allows. */
export const memberWithKey = async (app: TestApp, firm: TestFirm, role: "admin" | "cpa" | "bookkeeper", scopes?: ReadonlyArray<string>) => {
  const member = expectStatus(await firmCall(app, firm.adminKey, "POST", "/v1/firm/members", { body: { name: `A ${role}`, role } }), 201)
  const key = expectStatus(await firmCall(app, firm.adminKey, "POST", "/v1/firm/keys", {
    body: { principal_type: "member", member_id: member.id, scopes: scopes ?? member.scopes }
  }), 201)
  return { id: member.id as number, key: key.secret as string, keyId: key.key.id as number }
}

/** A firm agent with a key holding its scopes. */
export const firmAgentWithKey = async (app: TestApp, firm: TestFirm, scopes: ReadonlyArray<string> = ["read", "propose"]) => {
  const agent = expectStatus(await firmCall(app, firm.adminKey, "POST", "/v1/firm/agents", { body: { name: "Categorizer", scopes } }), 201)
  const key = expectStatus(await firmCall(app, firm.adminKey, "POST", "/v1/firm/keys", {
    body: { principal_type: "agent", firm_agent_id: agent.id, scopes }
  }), 201)
  return { id: agent.id as number, key: key.secret as string, headers: { "x-agent-model": agentModel } }
}

/** The company's owner grants the firm access with these scopes. */
export const grantAccess = async (app: TestApp, company: TestCompany, firm: TestFirm, scopes: ReadonlyArray<string> = ["read", "propose", "approve", "admin"]) =>
  expectStatus(await app.call("POST", "/v1/firm-access", {
    token: company.ownerKey,
    key: newKey(),
    body: { firm_id: firm.firmId, scopes, billing: "client", reason: "Our accountants" }
  }), 201)

export const lines = (debit: string, credit: string, cents: number) => [
  { account: debit, debit_cents: cents },
  { account: credit, credit_cents: cents }
]

export const today = () => new Date().toISOString().slice(0, 10)
