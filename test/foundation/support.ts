import { Client } from "@modelcontextprotocol/sdk/client/index.js"
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js"
import { expect } from "vitest"
import { ApiError } from "@ledger/api"
import { newKey, type TestApp } from "../support/app.ts"

/** People, agents and keys for the foundation's tests, made through the API itself. */

export const createUser = async (app: TestApp, adminKey: string, role: "owner" | "cpa" | "accountant" | "staff", name = `${role} person`) => {
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
export const personWithKey = async (
  app: TestApp,
  adminKey: string,
  role: "owner" | "cpa" | "accountant" | "staff",
  scopes?: ReadonlyArray<string>
) => {
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

/** Asserts the spec's error body (DECISIONS.md) with a type Ledger declares, and returns the type. */
export const expectErrorBody = (body: unknown, type?: string): string => {
  expect(body).toBeTypeOf("object")
  const error = (body as { error?: Record<string, unknown> }).error
  expect(error, JSON.stringify(body)).toBeTypeOf("object")
  expect(Object.keys(body as object)).toEqual(["error"])
  expect(error!.type).toBeTypeOf("string")
  expect(error!.message).toBeTypeOf("string")
  expect(ApiError.errorTypes).toContain(error!.type)
  for (const key of Object.keys(error!)) expect(["type", "message", "details"]).toContain(key)
  if (error!.details !== undefined) expect(error!.details).toBeTypeOf("object")
  if (type !== undefined) expect(error!.type, JSON.stringify(body)).toBe(type)
  return error!.type as string
}

/** The company's audit log, newest first, as the given key sees it (all pages). */
export const auditEvents = async (app: TestApp, key: string): Promise<Array<any>> => {
  const events: Array<any> = []
  let cursor: string | null = null
  do {
    const page: { status: number; body: any } = await app.call(
      "GET",
      `/v1/audit/events?limit=1000${cursor === null ? "" : `&cursor=${encodeURIComponent(cursor)}`}`,
      { token: key }
    )
    expect(page.status, JSON.stringify(page.body)).toBe(200)
    events.push(...page.body.data)
    cursor = page.body.next_cursor
  } while (cursor !== null)
  return events
}

/** An MCP client over Streamable HTTP: in process through `fetch`, or over the network to `url`. */
export const connectMcp = async (options: {
  readonly token: string
  readonly fetch?: (request: Request) => Promise<Response>
  readonly url?: string
  readonly headers?: Record<string, string>
}) => {
  const client = new Client({ name: "ledger-foundation-test", version: "1.0.0" })
  const transport = new StreamableHTTPClientTransport(new URL(options.url ?? "http://ledger.test/mcp"), {
    requestInit: { headers: { authorization: `Bearer ${options.token}`, ...options.headers } },
    ...(options.fetch === undefined
      ? {}
      : { fetch: (input: string | URL | Request, init?: RequestInit) => options.fetch!(new Request(input, init)) })
  })
  await client.connect(transport)
  return client
}
