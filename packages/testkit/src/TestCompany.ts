import type { PromiseClient } from "@ledger/client"
import * as Balances from "./Balances.ts"
import type { NewAgent, NewCompany, NewUser, TestAgent, TestCompany, TestLedger, TestUser } from "./Model.ts"

export type { NewAgent, NewCompany, NewUser, TestAgent, TestCompany, TestUser } from "./Model.ts"

/**
 * An agent of the company with a key holding its scopes, and a client that sends its model.
 * `defaultName` is called only when the options name none, so the numbering stays as it was.
 */
const createAgent = async (ledger: TestLedger, owner: PromiseClient, agent: NewAgent, defaultName: () => string): Promise<TestAgent> => {
  const scopes = agent.scopes ?? ["read", "propose"]
  const made = await owner.createAgent({
    name: agent.name ?? defaultName(),
    scopes,
    posting_threshold_cents: agent.posting_threshold_cents ?? 0
  })
  const key = await owner.createKey({
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

/** A person of the company with a key of every scope the role allows. */
const createUser = async (ledger: TestLedger, owner: PromiseClient, user: NewUser, defaultName: () => string): Promise<TestUser> => {
  const made = await owner.createUser({ name: user.name ?? defaultName(), role: user.role })
  const key = await owner.createKey({ principal_type: "user", user_id: made.id, scopes: made.scopes })
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

export const makeTestCompany = async (ledger: TestLedger, options: NewCompany = {}): Promise<TestCompany> => {
  const created = await ledger.operator.createCompany({
    name: options.name ?? "Test Company",
    owner_name: options.owner_name ?? "Owner",
    plan: options.plan ?? "advanced",
    ...(options.starter_chart === undefined ? {} : { starter_chart: options.starter_chart }),
    ...(options.periods === undefined ? {} : { periods: options.periods })
  })
  const ownerKey = created.secret
  const client = ledger.client({ token: ownerKey })
  let agentCounter = 0
  let userCounter = 0

  const balances = (balanceOptions: { readonly asOf?: string } = {}) =>
    Balances.read(client, balanceOptions.asOf)

  const assertBalances = async (expected: Readonly<Record<string, number>>, balanceOptions: { readonly asOf?: string } = {}) => {
    const actual = await balances(balanceOptions)
    const differences = Balances.compare(expected, actual)
    if (differences.length > 0) throw new Balances.BalanceMismatch(differences, balanceOptions.asOf ?? ledger.clock.today())
  }

  return {
    companyId: created.company.company_id,
    name: created.company.name,
    ownerId: created.owner.id,
    ownerKey,
    client,
    created,
    clientWith: (clientOptions) => ledger.client({ token: ownerKey, ...clientOptions }),
    createAgent: (agent = {}) => createAgent(ledger, client, agent, () => `Agent ${++agentCounter}`),
    createUser: (user) => createUser(ledger, client, user, () => `Person ${++userCounter}`),
    balances,
    assertBalances
  }
}
