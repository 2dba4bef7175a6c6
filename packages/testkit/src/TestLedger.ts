import type { PGlite } from "@electric-sql/pglite"
import type { Duration } from "effect"
import { Clock, Effect } from "effect"
import { SqlClient } from "effect/sql"
import { createClient, IdempotencyKey, type PromiseClient, type PromiseOptions } from "@ledger/client"
import { Server } from "@ledger/server"
import * as Worker from "@ledger/server/workers"
import * as Providers from "./Providers.ts"
import * as Scenario from "./Scenario.ts"
import * as Template from "./Template.ts"
import { makeTestCompany, type NewCompany, type TestCompany } from "./TestCompany.ts"

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
  readonly runScenario: (scenario: Scenario.Scenario) => Promise<Scenario.ScenarioRun>
  /** Creates a company with its owner and the owner's key; see `TestCompany` for its helpers. */
  readonly createCompany: (options?: NewCompany) => Promise<TestCompany>
  /** The fake outside providers: the bank-feed aggregator to script, the mailbox to read. */
  readonly providers: Providers.TestProviders
  /**
   * Runs the background jobs that are due (email delivery, payment reminders) until none is left,
   * as a server's workers would; answers how many ran. Nothing runs in the background by itself.
   */
  readonly runJobs: () => Promise<number>
  /** Runs SQL on the ledger's database, to inspect what a test cannot see through the API. */
  readonly query: <Row = Record<string, unknown>>(text: string, params?: ReadonlyArray<unknown>) => Promise<Array<Row>>
  readonly close: () => Promise<void>
}

export const seedDefault = 1
export const startDefault = "2025-01-06T09:00:00.000Z"
export const baseUrl = "http://ledger.test"

/** The operator token of a seeded test ledger: repeatable, and never a real deployment's. */
const operatorTokenOf = (seed: number) => `ldgop_testkit_${seed.toString(36)}_operator_token`

let schemaCounter = 0

/** A whole Ledger in this process, over a copy of a migrated in-memory database. */
export const makeTestLedger = async (options: TestLedgerOptions = {}): Promise<TestLedger> => {
  const seed = options.seed ?? seedDefault
  const clock = Server.manualClock(options.start ?? startDefault)
  const operatorToken = operatorTokenOf(seed)
  const databaseUrl = options.databaseUrl === "" ? undefined : options.databaseUrl
  const searchPath = databaseUrl === undefined
    ? undefined
    : `testkit_${process.pid}_${Date.now().toString(36)}_${(schemaCounter++).toString(36)}`
  const providers = Providers.make(seed)
  let pglite: PGlite | undefined = databaseUrl === undefined ? await Template.clone() : undefined
  const app = await Server.inProcess({
    ...(databaseUrl === undefined ? { pglite } : { databaseUrl, searchPath, maxConnections: 5 }),
    operatorToken,
    seed,
    clock,
    rateLimits: options.rateLimits ?? true,
    providers: providers.layer
  }).catch(async (error: unknown) => {
    await pglite?.close()
    throw error
  })

  const fetch: typeof globalThis.fetch = (input, init) =>
    app.handler(input instanceof Request && init === undefined ? input : new Request(input, init))

  let clientCounter = 0
  const client = (clientOptions: TestClientOptions = {}): PromiseClient =>
    createClient({
      idempotencyKeys: IdempotencyKey.sequential(`tk${seed}-c${++clientCounter}`),
      // Time in a test ledger is the test clock's: waiting for a retry moves it.
      sleep: async (milliseconds) => clock.advance(milliseconds),
      validateResponses: true,
      ...clientOptions,
      baseUrl,
      fetch
    })

  const operator = client({ token: operatorToken })

  const query: TestLedger["query"] = (text, params = []) =>
    app.runtime.runPromise(Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      return (yield* sql.unsafe(text, params)) as never
    }))

  // The runtime holds the providers (the mailbox among them) beside the engine; its type names
  // only the engine's services. Jobs read the test clock, as requests do.
  const runJobs = () =>
    app.runtime.runPromise(
      Worker.drain({ id: `testkit-${seed}`, ...Worker.defaults }).pipe(
        Effect.provideService(Clock.Clock, clock)
      ) as Effect.Effect<number, never, SqlClient.SqlClient>
    )

  const testClock: TestClock = {
    now: () => new Date(clock.now()).toISOString(),
    today: () => new Date(clock.now()).toISOString().slice(0, 10),
    advance: (duration) => clock.advance(duration),
    set: (time) => clock.set(time)
  }

  let closed = false
  const close = async () => {
    if (closed) return
    closed = true
    if (searchPath !== undefined) await query(`DROP SCHEMA IF EXISTS ${searchPath} CASCADE`).catch(() => undefined)
    await app.dispose()
    await pglite?.close()
    pglite = undefined
  }

  const ledger: TestLedger = {
    seed,
    storage: databaseUrl === undefined ? "pglite" : "postgresql",
    baseUrl,
    fetch,
    operatorToken,
    clock: testClock,
    client,
    operator,
    createCompany: (company) => makeTestCompany(ledger, company),
    providers,
    runJobs,
    runScenario: (scenario) => Scenario.run(ledger, scenario),
    query,
    close
  }
  return ledger
}
