import { fileURLToPath } from "node:url"
import { Effect, Layer, ManagedRuntime } from "effect"
import { HttpRouter, HttpServer } from "effect/http"
import { SqlClient } from "effect/sql"
import { BankingPorts } from "@ledger/engine"
import { Http, Server } from "@ledger/server"
import * as ServerBanking from "../../packages/server/src/adapters/BankingPorts.ts"

/**
 * The banking tests' app: the real server app (routes, pipeline, engine, storage) like
 * test/support/app.ts, plus the bank-feed ports the default app has none of: the fake aggregator
 * and a token sealer over a random master key. PGlite in memory, or PostgreSQL in a fresh schema
 * when DATABASE_URL is set.
 */

export interface CallResult {
  readonly status: number
  readonly body: any
  readonly headers: Headers
}

export interface Company {
  readonly companyId: string
  readonly ownerKey: string
  readonly ownerId: number
}

let counter = 0
export const newKey = () => `bank-key-${Date.now().toString(36)}-${(counter++).toString(36)}-${Math.random().toString(36).slice(2, 8)}`

export const makeBankingApp = async (options: { readonly clock?: Server.ManualClock } = {}) => {
  const databaseUrl = process.env.DATABASE_URL === "" ? undefined : process.env.DATABASE_URL
  const operatorToken = `operator-${Math.random().toString(36).slice(2)}-${Date.now()}`
  const searchPath = databaseUrl === undefined ? undefined : `bank_${Date.now().toString(36)}_${Math.random().toString(36).slice(2, 8)}`
  const aggregator = BankingPorts.FakeAggregator.make()
  // The server's own banking ports (a master key for an in-memory data folder), plus the fake aggregator.
  const ports = ServerBanking.layer({ dataDir: "memory", aggregator: aggregator.layer })
  const runtime = ManagedRuntime.make(
    Server.engineLayer({
      ...(databaseUrl === undefined ? { dataDir: "memory" } : { databaseUrl, searchPath, maxConnections: 10 }),
      operatorToken,
      rateLimits: false,
      ...(options.clock === undefined ? {} : { clock: options.clock })
    }).pipe(Layer.provideMerge(ports))
  )
  const context = await runtime.context()
  const web = HttpRouter.toWebHandler(
    Http.routes.pipe(Layer.provide(Layer.succeedContext(context)), Layer.provide(HttpServer.layerServices)) as never,
    { disableLogger: true }
  ) as { readonly handler: (request: Request) => Promise<Response>; readonly dispose: () => Promise<void> }
  const fetch = (request: Request) => web.handler(request)

  const call = async (
    method: "GET" | "POST",
    path: string,
    callOptions: { token?: string; body?: unknown; key?: string; headers?: Record<string, string> } = {}
  ): Promise<CallResult> => {
    const headers = new Headers(callOptions.headers)
    if (callOptions.token !== undefined) headers.set("authorization", `Bearer ${callOptions.token}`)
    if (callOptions.key !== undefined) headers.set("idempotency-key", callOptions.key)
    const body = callOptions.body === undefined ? undefined : JSON.stringify(callOptions.body)
    if (body !== undefined) headers.set("content-type", "application/json")
    const response = await fetch(new Request(`http://ledger.test${path}`, { method, headers, ...(body === undefined ? {} : { body }) }))
    const text = await response.text()
    let parsed: unknown = text
    try {
      parsed = text === "" ? null : JSON.parse(text)
    } catch {
      // Not JSON: the text is the body.
    }
    return { status: response.status, body: parsed, headers: response.headers }
  }

  /** A write with a fresh Idempotency-Key. */
  const write = (path: string, token: string, body: unknown, headers?: Record<string, string>) =>
    call("POST", path, { token, body, key: newKey(), ...(headers === undefined ? {} : { headers }) })

  const query = <Row = Record<string, unknown>>(text: string, params: ReadonlyArray<unknown> = []) =>
    runtime.runPromise(Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      return (yield* sql.unsafe(text, params)) as unknown as Array<Row>
    }))

  const createCompany = async (company: { plan?: "solo" | "business" | "advanced" | "owned"; name?: string } = {}): Promise<Company> => {
    const result = await call("POST", "/v1/companies", {
      token: operatorToken,
      key: newKey(),
      body: { name: company.name ?? "Bank Test Co", owner_name: "Owner", plan: company.plan ?? "owned" }
    })
    if (result.status !== 201) throw new Error(`company creation failed: ${result.status} ${JSON.stringify(result.body)}`)
    return { companyId: result.body.company.company_id, ownerKey: result.body.secret, ownerId: result.body.owner.id }
  }

  /** An agent with these scopes and threshold, and its key. */
  const createAgent = async (company: Company, thresholdCents: number, scopes: ReadonlyArray<string> = ["read", "propose"]) => {
    const agent = await write("/v1/agents", company.ownerKey, { name: `Agent ${counter++}`, scopes, posting_threshold_cents: thresholdCents })
    if (agent.status !== 201) throw new Error(`agent creation failed: ${JSON.stringify(agent.body)}`)
    const key = await write("/v1/keys", company.ownerKey, { principal_type: "agent", agent_id: agent.body.id, scopes })
    if (key.status !== 201) throw new Error(`agent key failed: ${JSON.stringify(key.body)}`)
    return { agentId: agent.body.id as number, key: key.body.secret as string }
  }

  const close = async () => {
    if (searchPath !== undefined) await query(`DROP SCHEMA IF EXISTS ${searchPath} CASCADE`).catch(() => undefined)
    await web.dispose()
    await runtime.dispose()
  }

  return { storage: databaseUrl === undefined ? "pglite" : "postgresql", fetch, call, write, query, createCompany, createAgent, aggregator, close }
}

export type BankingApp = Awaited<ReturnType<typeof makeBankingApp>>

/** The shared folder beside the repository (spec, fixtures, tools), wherever the clone is. */
export const sharedFolder = fileURLToPath(new URL("../../../shared/", import.meta.url))
