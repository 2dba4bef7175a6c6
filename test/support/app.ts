import { Effect } from "effect"
import { SqlClient } from "effect/sql"
import { Server } from "@ledger/server"
import { Template } from "@ledger/testkit"
import { type Call, callOf } from "./http.ts"
import { entriesWithoutSourceId } from "./sources.ts"

export type { Call, CallOptions, CallResult } from "./http.ts"

/**
 * A whole Ledger in this process for tests: the real routes, pipeline and engine, over PGlite in
 * memory, or over PostgreSQL in a fresh schema when DATABASE_URL is set. On PGlite each app is a
 * copy of the testkit's migrated template (a second, against four to start PGlite and migrate),
 * the same one every `@ledger/testkit` ledger starts from. Share one per test file and keep tests
 * apart by company.
 */
export interface TestApp {
  readonly storage: "pglite" | "postgresql"
  readonly operatorToken: string
  readonly fetch: (request: Request) => Promise<Response>
  /** One JSON request; `token` is the Bearer credential, `key` the Idempotency-Key. */
  readonly call: Call
  /** Runs SQL against the app's database (to inspect tables). */
  readonly query: <Row = Record<string, unknown>>(text: string, params?: ReadonlyArray<unknown>) => Promise<Array<Row>>
  readonly createCompany: (options?: {
    readonly name?: string
    readonly plan?: "solo" | "business" | "advanced" | "owned"
    readonly starter_chart?: "general" | "services" | "retail" | "empty"
    readonly periods?: boolean
  }) => Promise<TestCompany>
  readonly close: () => Promise<void>
  /** The clock the app reads its time from, when `makeTestApp({ clock })` was given one. */
  readonly clock: Server.ManualClock | undefined
  /** The app's runtime: the engine's Dispatcher and SQL client, for tests that go below HTTP. */
  readonly runtime: Awaited<ReturnType<typeof Server.inProcess>>["runtime"]
}

export interface TestAppOptions {
  /** Rate limits per plan and key; off by default so tests are not throttled. */
  readonly rateLimits?: boolean
  /**
   * A clock to move by hand: `true` starts it at the system time, a timestamp or date at that time,
   * or pass your own `Server.manualClock()`. The app's `clock` is then that clock; move it with
   * `app.clock.advance("61 minutes")` or `app.clock.set("2026-01-31T23:59:59Z")`.
   */
  readonly clock?: boolean | string | Date | Server.ManualClock
  /** Group commit of journal-entry postings (on by default, as in a server). */
  readonly groupCommit?: boolean
  /** The server's upkeep of planner statistics (on by default, as in a server). */
  readonly analyzeGrownTables?: boolean
  /** The outside world's ports (mail, bank feeds, sealer); default the server's unconfigured ones. */
  readonly providers?: Parameters<typeof Server.inProcess>[0]["providers"]
  /** Where clients reach the API (LEDGER_BASE_URL); default unset. */
  readonly publicBaseUrl?: string
  /** Take a request's client address from `X-Forwarded-For` (LEDGER_TRUST_PROXY=1); off by default. */
  readonly trustProxy?: boolean
  /** PostgreSQL to use instead of DATABASE_URL (a cluster the test started). */
  readonly databaseUrl?: string
  /** A hot standby of that database for reports (LEDGER_READ_DATABASE_URL) and its staleness bound. */
  readonly readDatabase?: { readonly url: string; readonly maxStalenessMs: number }
}

export interface TestCompany {
  readonly companyId: string
  readonly ownerKey: string
  readonly ownerId: number
  readonly body: any
}

let counter = 0
const uniqueKey = () => `test-key-${Date.now().toString(36)}-${(counter++).toString(36)}-${Math.random().toString(36).slice(2, 8)}`

const clockOf = (option: TestAppOptions["clock"]): Server.ManualClock | undefined => {
  if (option === undefined || option === false) return undefined
  if (option === true) return Server.manualClock()
  if (typeof option === "string" || option instanceof Date) return Server.manualClock(option)
  return option
}

const readDatabaseOf = (read: TestAppOptions["readDatabase"]) =>
  read === undefined ? {} : { readDatabaseUrl: read.url, readMaxStalenessMs: read.maxStalenessMs }

export const makeTestApp = async (options: TestAppOptions = {}): Promise<TestApp> => {
  const databaseUrl = options.databaseUrl ?? (process.env.DATABASE_URL === "" ? undefined : process.env.DATABASE_URL)
  const operatorToken = `operator-${Math.random().toString(36).slice(2)}-${Date.now()}`
  const searchPath = databaseUrl === undefined ? undefined : `test_${Date.now().toString(36)}_${Math.random().toString(36).slice(2, 8)}`
  const clock = clockOf(options.clock)
  const pglite = databaseUrl === undefined ? await Template.clone() : undefined
  const app = await Server.inProcess({
    ...(pglite !== undefined ? { pglite } : { databaseUrl, searchPath, maxConnections: 10 }),
    operatorToken,
    rateLimits: options.rateLimits ?? false,
    ...(options.groupCommit === undefined ? {} : { groupCommit: options.groupCommit }),
    ...(options.analyzeGrownTables === undefined ? {} : { analyzeGrownTables: options.analyzeGrownTables }),
    ...(options.providers === undefined ? {} : { providers: options.providers }),
    ...(options.trustProxy === undefined ? {} : { trustProxy: options.trustProxy }),
    ...(options.publicBaseUrl === undefined ? {} : { publicBaseUrl: options.publicBaseUrl }),
    ...readDatabaseOf(options.readDatabase),
    ...(clock === undefined ? {} : { clock })
  }).catch(async (error: unknown) => {
    await pglite?.close()
    throw error
  })

  const fetch = (request: Request) => app.handler(request)
  const call = callOf(fetch)

  const query: TestApp["query"] = (text, params = []) =>
    app.runtime.runPromise(Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      return (yield* sql.unsafe(text, params)) as never
    }))

  const createCompany: TestApp["createCompany"] = async (company = {}) => {
    const result = await call("POST", "/v1/companies", {
      token: operatorToken,
      key: uniqueKey(),
      body: { name: company.name ?? "Test Company", owner_name: "Owner", plan: company.plan ?? "owned", ...company }
    })
    if (result.status !== 201) throw new Error(`company creation failed: ${result.status} ${JSON.stringify(result.body)}`)
    return {
      companyId: result.body.company.company_id,
      ownerKey: result.body.secret,
      ownerId: result.body.owner.id,
      body: result.body
    }
  }

  const close = async () => {
    // Every entry the test posted for a record names it (issue 38 item 11, ./sources.ts): read
    // before the database goes, reported after it has, so a failure still cleans up.
    const unnamed = await entriesWithoutSourceId({ query }).catch(() => [] as Array<string>)
    if (searchPath !== undefined) await query(`DROP SCHEMA IF EXISTS ${searchPath} CASCADE`).catch(() => undefined)
    await app.dispose()
    await pglite?.close()
    if (unnamed.length > 0) {
      throw new Error(`Entries posted for a record without its id as source.id (kind:entry): ${unnamed.join(", ")}`)
    }
  }

  return {
    storage: databaseUrl === undefined ? "pglite" : "postgresql",
    operatorToken,
    fetch,
    call,
    query,
    createCompany,
    close,
    clock,
    runtime: app.runtime
  }
}

/** A fresh idempotency key. */
export const newKey = uniqueKey

/**
 * Subscribes the company to events as a webhook endpoint would (spec 6.2 rule 4: events exist only
 * while an endpoint wants them). The webhooks operations are not built yet, so the row is written
 * directly; `enabled: false` writes a disabled endpoint.
 */
export const subscribeToEvents = async (
  app: Pick<TestApp, "query">,
  company: Pick<TestCompany, "companyId">,
  eventTypes: ReadonlyArray<string> = ["*"],
  options: { readonly enabled?: boolean } = {}
): Promise<void> => {
  await app.query(
    `INSERT INTO webhook_endpoints (company_id, event_types, enabled) VALUES ($1, string_to_array($2, ','), $3)`,
    [company.companyId, eventTypes.join(","), options.enabled ?? true]
  )
}
