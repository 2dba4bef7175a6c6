import { newKey, type TestApp, type TestCompany } from "../support/app.ts"

/** Helpers shared by the ledger tests: agents with keys, people with keys, entries. */

export interface Agent {
  readonly id: number
  readonly key: string
  readonly headers: Record<string, string>
}

export const agentModel = "test-model/1.0"

/** An agent with these scopes and threshold, and a key holding them. */
export const createAgent = async (
  app: TestApp,
  company: TestCompany,
  options: { readonly thresholdCents: number; readonly scopes?: ReadonlyArray<string>; readonly name?: string }
): Promise<Agent> => {
  const scopes = options.scopes ?? ["read", "propose"]
  const agent = await app.call("POST", "/v1/agents", {
    token: company.ownerKey,
    key: newKey(),
    body: { name: options.name ?? "Bookkeeping agent", scopes, posting_threshold_cents: options.thresholdCents }
  })
  if (agent.status !== 201) throw new Error(`agent: ${agent.status} ${JSON.stringify(agent.body)}`)
  const key = await app.call("POST", "/v1/keys", {
    token: company.ownerKey,
    key: newKey(),
    body: { principal_type: "agent", agent_id: agent.body.id, scopes }
  })
  if (key.status !== 201) throw new Error(`agent key: ${key.status} ${JSON.stringify(key.body)}`)
  return { id: agent.body.id, key: key.body.secret, headers: { "x-agent-model": agentModel } }
}

/** A person of the company with this role and a key holding the role's scopes. */
export const createPerson = async (
  app: TestApp,
  company: TestCompany,
  role: "owner" | "cpa" | "accountant" | "staff",
  scopes: ReadonlyArray<string>
): Promise<{ readonly id: number; readonly key: string }> => {
  const user = await app.call("POST", "/v1/users", { token: company.ownerKey, key: newKey(), body: { name: `A ${role}`, role } })
  if (user.status !== 201) throw new Error(`user: ${user.status} ${JSON.stringify(user.body)}`)
  const key = await app.call("POST", "/v1/keys", {
    token: company.ownerKey,
    key: newKey(),
    body: { principal_type: "user", user_id: user.body.id, scopes }
  })
  if (key.status !== 201) throw new Error(`user key: ${key.status} ${JSON.stringify(key.body)}`)
  return { id: user.body.id, key: key.body.secret }
}

/** Two lines: debit one account, credit another. */
export const simpleLines = (debit: string, credit: string, cents: number) => [
  { account: debit, debit_cents: cents },
  { account: credit, credit_cents: cents }
]

export const propose = (
  app: TestApp,
  token: string,
  body: Record<string, unknown>,
  options: { readonly headers?: Record<string, string>; readonly key?: string | null } = {}
) =>
  app.call("POST", "/v1/journal-entries/propose", {
    token,
    body,
    ...(options.key === null ? {} : { key: options.key ?? newKey() }),
    ...(options.headers === undefined ? {} : { headers: options.headers })
  })

/** The company's balances by account code, as GET /v1/accounts reports them. */
export const balances = async (app: TestApp, token: string, asOf?: string): Promise<Record<string, number>> => {
  const result = await app.call(
    "GET",
    `/v1/accounts?include_balances=true&include_inactive=true&limit=1000${asOf === undefined ? "" : `&as_of=${asOf}`}`,
    { token }
  )
  if (result.status !== 200) throw new Error(`accounts: ${result.status} ${JSON.stringify(result.body)}`)
  return Object.fromEntries(result.body.data.map((account: { code: string; balance_cents: number }) => [account.code, account.balance_cents]))
}

/** Today's date as the server sees it (UTC). */
export const today = () => new Date().toISOString().slice(0, 10)

/** An MCP client over the app's in-process fetch, as an agent or person holding `token`. */
export const connectMcp = async (
  app: TestApp,
  token: string,
  headers: Record<string, string> = {}
) => {
  const { Client } = await import("@modelcontextprotocol/sdk/client/index.js")
  const { StreamableHTTPClientTransport } = await import("@modelcontextprotocol/sdk/client/streamableHttp.js")
  const client = new Client({ name: "ledger-core-test", version: "1.0.0" })
  const transport = new StreamableHTTPClientTransport(new URL("http://ledger.test/mcp"), {
    requestInit: { headers: { authorization: `Bearer ${token}`, ...headers } },
    fetch: (input: string | URL | Request, init?: RequestInit) => app.fetch(new Request(input, init))
  })
  await client.connect(transport)
  return client
}

/** Row counts of every table of the app's schema, and the id sequence's position. */
export const snapshot = async (app: TestApp): Promise<Record<string, number>> => {
  const tables = await app.query<{ table_name: string }>(
    `SELECT table_name FROM information_schema.tables WHERE table_schema = current_schema() AND table_type = 'BASE TABLE'
     ORDER BY table_name`
  )
  const counts: Record<string, number> = {}
  for (const { table_name } of tables) {
    const rows = await app.query<{ count: string }>(`SELECT count(*) AS count FROM "${table_name}"`)
    counts[table_name] = Number(rows[0]!.count)
  }
  const sequence = await app.query<{ last_value: string }>(`SELECT last_value FROM ledger_ids`)
  counts["sequence ledger_ids"] = Number(sequence[0]!.last_value)
  return counts
}

/** An error's message with those of its causes (drivers wrap the database's own message in a cause). */
export const messageChain = (error: unknown): string => {
  const messages: Array<string> = []
  let current: any = error
  for (let depth = 0; current !== undefined && current !== null && depth < 10; depth++) {
    messages.push(String(current.message ?? current))
    current = current.cause
  }
  return messages.join(" / ")
}
