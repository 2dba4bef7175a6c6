import { Effect, Layer } from "effect"
import { SqlClient } from "effect/sql"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { type Dispatcher, Ledger, Ports } from "@ledger/engine"
import { Config, Server } from "@ledger/server"
import { callOf, newKey } from "../support/index.ts"

/**
 * Every outside dependency is a port the engine's layer requires (engine/src/ports/Ports.ts), and
 * `ledger serve` provides each: an adapter where its settings configure one, the unconfigured layer
 * otherwise, whose operations answer a 503 whose type says what to configure.
 */

// PGlite in memory, or PostgreSQL in a fresh schema when DATABASE_URL is set (without a master key,
// so the sealer is unconfigured too there, as on such a real server).
const databaseUrl = process.env.DATABASE_URL === "" ? undefined : process.env.DATABASE_URL
const searchPath = databaseUrl === undefined ? undefined : `ports_${Date.now().toString(36)}_${Math.random().toString(36).slice(2, 8)}`
const operatorToken = `operator-${Math.random().toString(36).slice(2)}-${Date.now()}`
// The settings `ledger serve` reads, with no outside provider configured.
const config = Config.fromEnvironment(databaseUrl === undefined ? { LEDGER_DATA_DIR: "memory" } : { DATABASE_URL: databaseUrl })
const ports = Server.portsOf(config)

let app: Awaited<ReturnType<typeof Server.inProcess>>
let call: ReturnType<typeof callOf>

beforeAll(async () => {
  app = await Server.inProcess({
    ...(databaseUrl === undefined ? { dataDir: "memory" } : { databaseUrl, searchPath, maxConnections: 5 }),
    operatorToken,
    rateLimits: false,
    providers: ports.layer
  })
  call = callOf((request) => app.handler(request))
}, 120_000)
afterAll(async () => {
  if (searchPath !== undefined) {
    await app.runtime.runPromise(Effect.flatMap(SqlClient.SqlClient, (sql) => sql.unsafe(`DROP SCHEMA IF EXISTS ${searchPath} CASCADE`)))
      .catch(() => undefined)
  }
  await app?.dispose()
})

describe("a server with no bank-feed aggregator configured", () => {
  it("says so among what it has not configured", () => {
    expect(ports.unconfigured.some((setting) => setting.startsWith("bank feeds"))).toBe(true)
    expect(ports.unconfigured.some((setting) => setting.startsWith("mail"))).toBe(true)
  })

  it("answers a bank-feed operation 503 bank_feeds_not_configured, and lists feeds as not configured", async () => {
    const company = await call("POST", "/v1/companies", {
      token: operatorToken,
      key: newKey(),
      body: { name: "Unconfigured Co", owner_name: "Owner", plan: "owned" }
    })
    expect(company.status).toBe(201)
    const ownerKey = company.body.secret as string

    const link = await call("POST", "/v1/bank-feeds/link-token", { token: ownerKey, key: newKey(), body: {} })
    expect(link.status).toBe(503)
    expect(link.body).toMatchObject({ error: { type: "bank_feeds_not_configured" } })

    const list = await call("GET", "/v1/bank-feeds", { token: ownerKey })
    expect(list.status).toBe(200)
    expect(list.body).toMatchObject({ data: [], feeds_configured: false })
  })
})

describe("the engine layer", () => {
  it("requires the ports in its type, and runs with their unconfigured layers", () => {
    const engine = Ledger.layer({ storage: "pglite" })
    // @ts-expect-error the ports are requirements: without them the layer needs more than SQL.
    const withoutPorts: Layer.Layer<Dispatcher, never, SqlClient.SqlClient> = engine
    const withPorts: Layer.Layer<Dispatcher, never, SqlClient.SqlClient> = engine.pipe(Layer.provide(Ports.layerUnconfigured))
    expect([withoutPorts, withPorts].every(Layer.isLayer)).toBe(true)
  })
})
