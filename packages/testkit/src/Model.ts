import type { OperationId, PromiseClient, PromiseOptions } from "@ledger/client"
import type { Duration } from "effect"
import type { TestProviders } from "./Providers.ts"

/**
 * The shapes of the test kit: a test ledger, its companies, agents and people, and scenarios.
 * Types only, so that TestLedger.ts (which makes companies and runs scenarios), TestCompany.ts and
 * Scenario.ts all import them from here and none imports another back.
 */

export interface TestLedgerOptions {
  /**
   * Seeds company ids, secrets and the operator token: the same seed and the same script of
   * requests give byte-identical answers on every run. Default 1.
   */
  readonly seed?: number | undefined
  /** Where the clock starts; it moves only when told. Default 2025-01-06T09:00:00Z (a Monday). */
  readonly start?: string | Date | number | undefined
  /** The plans' rate limits, as a server applies them. Default on. */
  readonly rateLimits?: boolean | undefined
  /**
   * A PostgreSQL URL to run on instead of in-memory PGlite: each test ledger gets a fresh schema,
   * dropped on close.
   */
  readonly databaseUrl?: string | undefined
}

/** The test ledger's clock: frozen until moved, so every timestamp in a run is repeatable. */
export interface TestClock {
  /** The current time as an ISO timestamp. */
  readonly now: () => string
  /** The current date, YYYY-MM-DD (UTC). */
  readonly today: () => string
  /** Moves time forward: milliseconds or an Effect duration such as "1 day" or "90 minutes". */
  readonly advance: (duration: Duration.Input) => void
  /** Sets the time. Moving it backwards is allowed but rarely what a test means. */
  readonly set: (time: string | Date | number) => void
}

/** Options of a client made by the test ledger; its fetch and base URL are filled in. */
export type TestClientOptions = Partial<Omit<PromiseOptions, "baseUrl" | "fetch">>

export interface TestLedger {
  readonly seed: number
  readonly storage: "pglite" | "postgresql"
  /** The base URL the SDK and MCP clients use with `fetch`; nothing listens there. */
  readonly baseUrl: string
  /** A Fetch implementation served by this ledger in-process: give it to an SDK or MCP client. */
  readonly fetch: typeof globalThis.fetch
  readonly operatorToken: string
  readonly clock: TestClock
  /**
   * A Promise SDK client of this ledger. Its Idempotency-Keys are repeatable (`tk<seed>-c<n>-...`),
   * and waiting before a retry moves the test clock instead of sleeping.
   */
  readonly client: (options?: TestClientOptions) => PromiseClient
  /** The operator's client (POST /v1/companies, plans). */
  readonly operator: PromiseClient
  /** Replays a scenario (e.g. `yearOfBusiness()`) in a new company and checks its closing balances. */
  readonly runScenario: (scenario: Scenario) => Promise<ScenarioRun>
  /** Creates a company with its owner and the owner's key; see `TestCompany` for its helpers. */
  readonly createCompany: (options?: NewCompany) => Promise<TestCompany>
  /** The fake outside providers: the bank-feed aggregator to script, the mailbox to read. */
  readonly providers: TestProviders
  /**
   * Runs the background jobs that are due (email delivery, payment reminders) until none is left,
   * as a server's workers would; answers how many ran. Nothing runs in the background by itself.
   */
  readonly runJobs: () => Promise<number>
  /** Runs SQL on the ledger's database, to inspect what a test cannot see through the API. */
  readonly query: <Row = Record<string, unknown>>(text: string, params?: ReadonlyArray<unknown>) => Promise<Array<Row>>
  readonly close: () => Promise<void>
}

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

/** What steps can read: the bodies earlier steps saved, by name. */
export interface StepContext {
  readonly saved: Readonly<Record<string, any>>
}

export type StepExpectation =
  /** Any success (the default). */
  | "ok"
  /** Queued for a person's approval (202). */
  | "queued"
  /** Refused with this error type. */
  | { readonly refused: string }

export interface Step {
  /** YYYY-MM-DD: the clock moves to 09:00 UTC that day before the step (never backwards). */
  readonly date: string
  /** Says what the step is, in failure messages. */
  readonly label: string
  /** `owner` (the default), or the name of one of the scenario's agents. */
  readonly actor?: string
  readonly operation: OperationId
  /** The flat input, or a function of earlier results. */
  readonly input: Readonly<Record<string, unknown>> | ((context: StepContext) => Readonly<Record<string, unknown>>)
  /** Saves the answer's body under this name for later steps. */
  readonly save?: string
  readonly expect?: StepExpectation
}

export interface Scenario {
  readonly name: string
  readonly company?: NewCompany
  /** Agents created before the first step, by name. */
  readonly agents?: ReadonlyArray<NewAgent & { readonly name: string }>
  readonly steps: ReadonlyArray<Step>
  /** Balances in cents by account code the ledger must show at the end (natural direction). */
  readonly expectedBalances?: Readonly<Record<string, number>>
  /** The date `expectedBalances` are as of; default the last step's date. */
  readonly balancesAsOf?: string
}

export interface StepOutcome {
  readonly label: string
  readonly date: string
  readonly operation: string
  readonly status: number
}

/** An agent of a running scenario; its key and client change when it renews its key. */
export interface ScenarioAgent {
  readonly id: number
  keyId: number
  keyExpiresAt: string
  client: PromiseClient
}

export interface ScenarioRun {
  readonly company: TestCompany
  readonly agents: Readonly<Record<string, ScenarioAgent>>
  readonly saved: Readonly<Record<string, unknown>>
  readonly outcomes: ReadonlyArray<StepOutcome>
}
