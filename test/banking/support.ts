import { readFileSync } from "node:fs"
import { fileURLToPath } from "node:url"
import type { Ports } from "@ledger/engine"
import type { Server } from "@ledger/server"
import { Layer } from "effect"
import { FakeAggregator, FakePaymentProcessor } from "@ledger/testkit"
import { Ports as ServerPorts } from "@ledger/server/adapters"
import { makeTestApp, newKey } from "../support/index.ts"

/**
 * The banking tests' app: test/support's app (the real routes, pipeline, engine and storage) with
 * the bank-feed ports the default app has none of: the fake aggregator and the server's token
 * sealer over a master key for an in-memory data folder. PGlite in memory, or PostgreSQL in a
 * fresh schema when DATABASE_URL is set.
 */

export interface Company {
  readonly companyId: string
  readonly ownerKey: string
  readonly ownerId: number
}

let agentCounter = 0

/**
 * `billing: true` adds the testkit's fake payment processor, so billing applies and the plans'
 * feed-account limits hold; without it (as `pnpm start`) no plan limits anything (ADR 2000).
 */
export const makeBankingApp = async (options: {
  readonly clock?: Server.ManualClock
  readonly billing?: boolean
  /** A fake made by the test and the port over it, when not the fake's own (the real HTTP adapter over its HTTP face). */
  readonly aggregator?: { readonly fake: FakeAggregator.FakeAggregator; readonly layer: Layer.Layer<Ports.Aggregator> }
} = {}) => {
  const aggregator = options.aggregator?.fake ?? FakeAggregator.make()
  const processor = options.billing === true ? FakePaymentProcessor.make() : null
  const ports = ServerPorts.wire({ dataDir: "memory", aggregator: options.aggregator?.layer ?? aggregator.layer })
  const providers = processor === null ? ports.layer : Layer.merge(ports.layer, processor.layer)
  const app = await makeTestApp({ providers, ...(options.clock === undefined ? {} : { clock: options.clock }) })

  /** A write with a fresh Idempotency-Key. */
  const write = (path: string, token: string, body: unknown, headers?: Record<string, string>) =>
    app.call("POST", path, { token, body, key: newKey(), ...(headers === undefined ? {} : { headers }) })

  const createCompany = async (company: { plan?: "solo" | "business" | "advanced" | "owned"; name?: string } = {}): Promise<Company> => {
    const made = await app.createCompany({ name: company.name ?? "Bank Test Co", plan: company.plan ?? "owned" })
    return { companyId: made.companyId, ownerKey: made.ownerKey, ownerId: made.ownerId }
  }

  /** An agent with these scopes and threshold, and its key. */
  const createAgent = async (company: Company, thresholdCents: number, scopes: ReadonlyArray<string> = ["read", "propose"]) => {
    const agent = await write("/v1/agents", company.ownerKey, { name: `Agent ${agentCounter++}`, scopes, posting_threshold_cents: thresholdCents })
    if (agent.status !== 201) throw new Error(`agent creation failed: ${JSON.stringify(agent.body)}`)
    const key = await write("/v1/keys", company.ownerKey, { principal_type: "agent", agent_id: agent.body.id, scopes })
    if (key.status !== 201) throw new Error(`agent key failed: ${JSON.stringify(key.body)}`)
    return { agentId: agent.body.id as number, key: key.body.secret as string }
  }

  return {
    storage: app.storage,
    fetch: app.fetch,
    call: app.call,
    write,
    query: app.query,
    createCompany,
    createAgent,
    aggregator,
    close: async () => {
      await app.close()
      await processor?.close()
    }
  }
}

export type BankingApp = Awaited<ReturnType<typeof makeBankingApp>>

/** The repository's root folder, wherever the clone is: `test/fixtures/` (SOURCES.md) and `tools/`. */
export const repositoryFolder = fileURLToPath(new URL("../../", import.meta.url))

/** A statement file of the fixtures (test/fixtures/SOURCES.md), as text. */
export const ofxFixture = (name: string): string => readFileSync(`${repositoryFolder}test/fixtures/ofx/${name}`, "utf8")

/** A company of the app with one checking bank account tied to 1010. */
export const companyWithBankAccount = async (app: BankingApp): Promise<{ company: Company; bankAccountId: number }> => {
  const company = await app.createCompany()
  const bank = await app.write("/v1/bank-accounts", company.ownerKey, {
    name: "Operating",
    kind: "checking",
    ledger_account: "1010",
    institution: "First Bank"
  })
  if (bank.status !== 201) throw new Error(`bank account: ${bank.status} ${JSON.stringify(bank.body)}`)
  return { company, bankAccountId: bank.body.id }
}
