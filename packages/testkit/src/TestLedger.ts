import type { PGlite } from "@electric-sql/pglite"
import { Clock, Effect } from "effect"
import { SqlClient } from "effect/sql"
import { createClient, IdempotencyKey, type PromiseClient } from "@ledger/client"
import { Server } from "@ledger/server"
import * as Worker from "@ledger/server/workers"
import * as Providers from "./Providers.ts"
import * as Scenario from "./Scenario.ts"
import * as Template from "./Template.ts"
import type { TestClientOptions, TestClock, TestLedger, TestLedgerOptions } from "./Model.ts"
import { makeTestCompany } from "./TestCompany.ts"

export type { TestClientOptions, TestClock, TestLedger, TestLedgerOptions } from "./Model.ts"

export const seedDefault = 1
export const startDefault = "2025-01-06T09:00:00.000Z"
export const baseUrl = "http://ledger.test"

/** The operator token of a seeded test ledger: repeatable, and never a real deployment's. */
const operatorTokenOf = (seed: number) => `ldgop_testkit_${seed.toString(36)}_operator_token`

let schemaCounter = 0

type ManualClock = ReturnType<typeof Server.manualClock>

/** The test ledger's clock as tests see it, over the server's manual clock. */
const testClockOf = (clock: ManualClock): TestClock => ({
  now: () => new Date(clock.now()).toISOString(),
  today: () => new Date(clock.now()).toISOString().slice(0, 10),
  advance: (duration) => clock.advance(duration),
  set: (time) => clock.set(time)
})

/** The server in this process: over a clone of the migrated template, or a fresh PostgreSQL schema. */
const start = async (options: TestLedgerOptions, seed: number, clock: ManualClock, providers: Providers.TestProviders) => {
  const databaseUrl = options.databaseUrl === "" ? undefined : options.databaseUrl
  const searchPath = databaseUrl === undefined
    ? undefined
    : `testkit_${process.pid}_${Date.now().toString(36)}_${(schemaCounter++).toString(36)}`
  const pglite: PGlite | undefined = databaseUrl === undefined ? await Template.clone() : undefined
  const app = await Server.inProcess({
    ...(databaseUrl === undefined ? { pglite } : { databaseUrl, searchPath, maxConnections: 5 }),
    operatorToken: operatorTokenOf(seed),
    seed,
    clock,
    rateLimits: options.rateLimits ?? true,
    providers: providers.layer
  }).catch(async (error: unknown) => {
    await pglite?.close()
    throw error
  })
  return { app, pglite, searchPath, storage: databaseUrl === undefined ? "pglite" as const : "postgresql" as const }
}

type App = Awaited<ReturnType<typeof start>>["app"]

const queryOf = (app: App): TestLedger["query"] => (text, params = []) =>
  app.runtime.runPromise(Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    return (yield* sql.unsafe(text, params)) as never
  }))

// The runtime holds the providers (the mailbox among them) beside the engine; its type names
// only the engine's services. Jobs read the test clock, as requests do.
const jobRunnerOf = (app: App, seed: number, clock: ManualClock) => () =>
  app.runtime.runPromise(
    Worker.drain({ id: `testkit-${seed}`, ...Worker.defaults }).pipe(
      Effect.provideService(Clock.Clock, clock)
    ) as Effect.Effect<number, never, SqlClient.SqlClient>
  )

/** A whole Ledger in this process, over a copy of a migrated in-memory database. */
export const makeTestLedger = async (options: TestLedgerOptions = {}): Promise<TestLedger> => {
  const seed = options.seed ?? seedDefault
  const clock = Server.manualClock(options.start ?? startDefault)
  const operatorToken = operatorTokenOf(seed)
  const providers = Providers.make(seed)
  const started = await start(options, seed, clock, providers)
  const { app, searchPath } = started
  let pglite = started.pglite

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

  const query = queryOf(app)
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
    storage: started.storage,
    baseUrl,
    fetch,
    operatorToken,
    clock: testClockOf(clock),
    client,
    operator: client({ token: operatorToken }),
    createCompany: (company) => makeTestCompany(ledger, company),
    providers,
    runJobs: jobRunnerOf(app, seed, clock),
    runScenario: (scenario) => Scenario.run(ledger, scenario),
    query,
    close
  }
  return ledger
}
