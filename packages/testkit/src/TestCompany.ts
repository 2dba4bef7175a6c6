import type { PromiseClient } from "@ledger/client"
import * as Balances from "./Balances.ts"
import type { TestClientOptions, TestLedger } from "./TestLedger.ts"

export interface NewCompany {
  readonly name?: string
  readonly owner_name?: string
  /** Default `advanced` (1,200 requests a minute), so ordinary tests never meet the limit. */
  readonly plan?: "solo" | "business" | "advanced" | "owned"
  readonly starter_chart?: "general" | "services" | "retail" | "empty"
  readonly periods?: boolean
}

export interface NewAgent {
  readonly name?: string
  /** Default read and propose. */
  readonly scopes?: ReadonlyArray<"read" | "propose" | "approve" | "admin">
  /** Entries at or under this post; larger ones become proposals. Default 0 (everything is proposed). */
  readonly posting_threshold_cents?: number
  /** Sent as X-Agent-Model on every call of the agent's client. Default `testkit-model/1`. */
  readonly model?: string
  readonly run_id?: string
  readonly expires_in_days?: number
}

export interface TestAgent {
  readonly id: number
  readonly name: string
  readonly scopes: ReadonlyArray<string>
  readonly postingThresholdCents: number
  readonly keyId: number
  readonly secret: string
  /** When the agent's key expires (agents' keys last 30 days unless asked otherwise, 90 at most). */
  readonly keyExpiresAt: string
  /** The agent's client: its key, and X-Agent-Model (and X-Agent-Run-Id) on every call. */
  readonly client: PromiseClient
}

export interface NewUser {
  readonly name?: string
  readonly role: "owner" | "cpa" | "accountant" | "staff"
}

export interface TestUser {
  readonly id: number
  readonly name: string
  readonly role: string
  readonly scopes: ReadonlyArray<string>
  readonly keyId: number
  readonly secret: string
  readonly client: PromiseClient
}

export interface TestCompany {
  readonly companyId: string
  readonly name: string
  readonly ownerId: number
  /** The owner's API key secret. */
  readonly ownerKey: string
  /** The owner's client (every scope). */
  readonly client: PromiseClient
  /** The full 201 body of company creation. */
  readonly created: unknown
  /** Another client of this company: a different key, agent model or retry policy. */
  readonly clientWith: (options: TestClientOptions) => PromiseClient
  /** An agent with its own key and client. */
  readonly createAgent: (options?: NewAgent) => Promise<TestAgent>
  /** A person with a key of every scope the role allows, and a client. */
  readonly createUser: (options: NewUser) => Promise<TestUser>
  /**
   * Every account's balance in cents, by code, as of a date (default today), signed in the
   * account's natural direction; from GET /v1/accounts?include_balances=true.
   */
  readonly balances: (options?: { readonly asOf?: string }) => Promise<Readonly<Record<string, number>>>
  /** Fails with a readable difference unless each named account has exactly that balance. */
  readonly assertBalances: (expected: Readonly<Record<string, number>>, options?: { readonly asOf?: string }) => Promise<void>
}

export const makeTestCompany = async (ledger: TestLedger, options: NewCompany = {}): Promise<TestCompany> => {
  const created = await ledger.operator.createCompany({
    name: options.name ?? "Test Company",
    owner_name: options.owner_name ?? "Owner",
    plan: options.plan ?? "advanced",
    ...(options.starter_chart === undefined ? {} : { starter_chart: options.starter_chart }),
    ...(options.periods === undefined ? {} : { periods: options.periods })
  })
  const companyId = created.company.company_id
  const ownerKey = created.secret
  const client = ledger.client({ token: ownerKey })
  let agentCounter = 0
  let userCounter = 0

  const createAgent = async (agent: NewAgent = {}): Promise<TestAgent> => {
    const scopes = agent.scopes ?? ["read", "propose"]
    const made = await client.createAgent({
      name: agent.name ?? `Agent ${++agentCounter}`,
      scopes,
      posting_threshold_cents: agent.posting_threshold_cents ?? 0
    })
    const key = await client.createKey({
      principal_type: "agent",
      agent_id: made.id,
      scopes,
      ...(agent.expires_in_days === undefined ? {} : { expires_in_days: agent.expires_in_days })
    })
    return {
      id: made.id,
      name: made.name,
      scopes: made.scopes,
      postingThresholdCents: made.posting_threshold_cents,
      keyId: key.key.id,
      secret: key.secret,
      keyExpiresAt: key.key.expires_at,
      client: ledger.client({
        token: key.secret,
        agentModel: agent.model ?? "testkit-model/1",
        ...(agent.run_id === undefined ? {} : { agentRunId: agent.run_id })
      })
    }
  }

  const createUser = async (user: NewUser): Promise<TestUser> => {
    const made = await client.createUser({ name: user.name ?? `Person ${++userCounter}`, role: user.role })
    const key = await client.createKey({ principal_type: "user", user_id: made.id, scopes: made.scopes })
    return {
      id: made.id,
      name: made.name,
      role: made.role,
      scopes: made.scopes,
      keyId: key.key.id,
      secret: key.secret,
      client: ledger.client({ token: key.secret })
    }
  }

  const balances = (balanceOptions: { readonly asOf?: string } = {}) =>
    Balances.read(client, balanceOptions.asOf)

  const assertBalances = async (expected: Readonly<Record<string, number>>, balanceOptions: { readonly asOf?: string } = {}) => {
    const actual = await balances(balanceOptions)
    const differences = Balances.compare(expected, actual)
    if (differences.length > 0) throw new Balances.BalanceMismatch(differences, balanceOptions.asOf ?? ledger.clock.today())
  }

  return {
    companyId,
    name: created.company.name,
    ownerId: created.owner.id,
    ownerKey,
    client,
    created,
    clientWith: (clientOptions) => ledger.client({ token: ownerKey, ...clientOptions }),
    createAgent,
    createUser,
    balances,
    assertBalances
  }
}
