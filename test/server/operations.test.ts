import { spawnSync } from "node:child_process"
import { createServer } from "node:http"
import path from "node:path"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { Config } from "@ledger/server"
import { makeTestApp, type TestApp } from "../support/index.ts"
import { freshStore, repositoryRoot, startServer } from "../support/server-process.ts"

/**
 * What an operator watches a server by (issue 20 item 7, docs/operations.md): readiness, Prometheus
 * metrics without tenant labels, a request id on every answer, and a JSON access line per request.
 */

let app: TestApp
beforeAll(async () => {
  app = await makeTestApp()
}, 120_000)
afterAll(() => app?.close())

const get = (path: string, headers: Record<string, string> = {}) =>
  app.fetch(new Request(`http://localhost${path}`, { headers }))

describe("readiness and metrics", () => {
  it("is ready once every migration of this build is applied", async () => {
    const response = await get("/ready")
    expect(response.status).toBe(200)
    expect(await response.json()).toEqual({ status: "ready" })
  })

  it("is not ready while a migration of this build is missing, and ready again once it is back", async () => {
    const [latest] = await app.query<{ id: number; name: string }>(
      "SELECT id, name FROM ledger_migrations ORDER BY id DESC LIMIT 1"
    )
    await app.query("DELETE FROM ledger_migrations WHERE id = $1", [latest!.id])
    try {
      const response = await get("/ready")
      expect(response.status).toBe(503)
      expect(await response.json()).toEqual({ status: "not_ready", reason: "migrations_pending", pending: [latest!.name] })
    } finally {
      await app.query("INSERT INTO ledger_migrations (id, name) VALUES ($1, $2)", [latest!.id, latest!.name])
    }
    expect((await get("/ready")).status).toBe(200)
  })

  it("counts requests by route pattern and status class, never by company or id", async () => {
    const company = await app.createCompany({ name: "Metrics Co" })
    for (const id of [101, 202, 303]) {
      const missing = await app.call("GET", `/v1/contacts/${id}`, { token: company.ownerKey })
      expect(missing.status).toBe(404)
    }
    const response = await get("/metrics")
    expect(response.status).toBe(200)
    expect(response.headers.get("content-type")).toMatch(/^text\/plain/)
    const text = await response.text()
    const line = text.split("\n").find((entry) => entry.startsWith(`ledger_http_requests_total{method="GET",route="/v1/contacts/:id",status="4xx"}`))
    expect(line).toBeDefined()
    expect(Number(line!.split(" ").at(-1))).toBeGreaterThanOrEqual(3)
    expect(text).toContain("ledger_http_request_duration_seconds_bucket")
    expect(text).toContain("ledger_outbox_events")
    expect(text).not.toContain(company.companyId)
    expect(text).not.toMatch(/\/v1\/contacts\/(101|202|303)/)
  })

  it("shows group-commit batch sizes by operation", async () => {
    const company = await app.createCompany({ name: "Batch Metrics Co" })
    const postings = await Promise.all([1, 2, 3, 4].map((cents) =>
      app.call("POST", "/v1/journal-entries/propose", {
        token: company.ownerKey,
        key: `batch-metrics-${cents}-${company.companyId}`,
        body: { entry_date: "2026-02-01", lines: [{ account: "1010", debit_cents: cents }, { account: "4000", credit_cents: cents }] }
      })))
    expect(postings.map((posting) => posting.status)).toEqual([201, 201, 201, 201])
    const text = await (await get("/metrics")).text()
    const count = text.split("\n").find((entry) => entry.startsWith(`ledger_group_commit_batch_size_count{operation="proposeJournalEntry"}`))
    expect(count).toBeDefined()
    // Four writes in however many statements: at least one, at most four.
    const statements = Number(count!.split(" ").at(-1))
    expect(statements).toBeGreaterThanOrEqual(1)
    const sum = text.split("\n").find((entry) => entry.startsWith(`ledger_group_commit_batch_size_sum{operation="proposeJournalEntry"}`))
    expect(Number(sum!.split(" ").at(-1))).toBeGreaterThanOrEqual(4)
  })

  it("echoes a caller's sane X-Request-Id in process, and makes none up there (one seed, one answer)", async () => {
    const kept = await get("/health", { "x-request-id": "trace-42.a:b" })
    expect(kept.headers.get("x-request-id")).toBe("trace-42.a:b")
    expect((await get("/health", { "x-request-id": "<script>" })).headers.get("x-request-id")).toBeNull()
    expect((await get("/health")).headers.get("x-request-id")).toBeNull()
  })
})

describe("configuration", () => {
  it("refuses an unknown log format at start, in one line", () => {
    expect(() => Config.fromEnvironment({ LEDGER_LOG_FORMAT: "xml" })).toThrow(/LEDGER_LOG_FORMAT must be text or json/)
    expect(Config.fromEnvironment({ LEDGER_LOG_FORMAT: "json" }).logFormat).toBe("json")
    expect(Config.fromEnvironment({}).accessLog).toBe(true)
    expect(Config.fromEnvironment({ LEDGER_ACCESS_LOG: "off" }).accessLog).toBe(false)
  })

  it("takes a read replica only beside a PostgreSQL primary, with a staleness bound of 5 s unless set", () => {
    const primary = "postgres://ledger@db/ledger"
    const replica = "postgres://ledger@standby/ledger"
    expect(Config.fromEnvironment({}).readDatabase).toBeUndefined()
    expect(Config.fromEnvironment({ DATABASE_URL: primary, LEDGER_READ_DATABASE_URL: replica }).readDatabase)
      .toEqual({ url: replica, maxStalenessMs: 5000 })
    expect(Config.fromEnvironment({ DATABASE_URL: primary, LEDGER_READ_DATABASE_URL: replica, LEDGER_READ_MAX_STALENESS_MS: "250" }).readDatabase)
      .toEqual({ url: replica, maxStalenessMs: 250 })
    expect(() => Config.fromEnvironment({ LEDGER_READ_DATABASE_URL: replica })).toThrow(/LEDGER_READ_DATABASE_URL needs DATABASE_URL/)
    for (const bad of ["-1", "1.5", "soon", "3600001"]) {
      expect(() => Config.fromEnvironment({ DATABASE_URL: primary, LEDGER_READ_DATABASE_URL: replica, LEDGER_READ_MAX_STALENESS_MS: bad }))
        .toThrow(/LEDGER_READ_MAX_STALENESS_MS must be/)
    }
  })
})

describe("ledger serve with LEDGER_LOG_FORMAT=json", () => {
  it("writes one JSON access line per request, with no credential in it", async () => {
    const store = await freshStore()
    const server = await startServer(store, { LEDGER_LOG_FORMAT: "json", LEDGER_WORKERS: "off" })
    try {
      const token = "ldg_not_a_real_key_but_secret_looking_000000000"
      const response = await fetch(`${server.url}/v1/accounts`, {
        headers: { authorization: `Bearer ${token}`, "x-request-id": "from-the-test", "x-ledger-company": "acme" }
      })
      expect(response.status).toBe(401)
      await new Promise((resolve) => setTimeout(resolve, 200))
      const lines = server.output().split("\n").filter((line) => line.startsWith("{"))
      const access = lines.map((line) => JSON.parse(line)).find((entry) => entry.annotations?.request_id === "from-the-test")
      expect(access).toMatchObject({
        message: "request",
        level: "INFO",
        annotations: { method: "GET", route: "/v1/accounts", status: 401, company: "acme", request_id: "from-the-test" }
      })
      expect(typeof access.annotations.duration_ms).toBe("number")
      expect(server.output()).not.toContain(token)
      // The server gives every answer a request id: a caller's odd one is replaced by a new one.
      const replaced = await fetch(`${server.url}/health`, { headers: { "x-request-id": "<script>" } })
      expect(replaced.headers.get("x-request-id")).toMatch(/^[0-9a-f-]{36}$/)
      const fresh = await fetch(`${server.url}/health`)
      expect(fresh.headers.get("x-request-id")).toMatch(/^[0-9a-f-]{36}$/)
      expect(fresh.headers.get("x-request-id")).not.toBe(replaced.headers.get("x-request-id"))
    } finally {
      await server.stop()
      await store.remove()
    }
  }, 300_000)
})

describe("ledger operator-token", () => {
  it("replaces a lost operator token: the new one works, the old one is refused", async () => {
    const store = await freshStore()
    const env = { ...process.env, ...store.env }
    delete env.LEDGER_OPERATOR_TOKEN
    if (store.databaseUrl === undefined) delete env.DATABASE_URL
    const ledger = path.join(repositoryRoot, "packages/server/bin/ledger.mjs")
    const tokenIn = (output: string) => /(ldgop_[A-Za-z0-9_-]{43})/.exec(output)?.[1]
    try {
      const first = spawnSync(process.execPath, [ledger, "migrate"], { env, encoding: "utf8", timeout: 240_000 })
      const lost = tokenIn(first.stdout)
      expect(lost).toBeDefined()
      const replaced = spawnSync(process.execPath, [ledger, "operator-token"], { env, encoding: "utf8", timeout: 240_000 })
      expect(replaced.status).toBe(0)
      const token = tokenIn(replaced.stdout)
      expect(token).toBeDefined()
      expect(token).not.toBe(lost)
      const server = await startServer(store, { LEDGER_WORKERS: "off", LEDGER_ACCESS_LOG: "off" })
      try {
        const create = (bearer: string, key: string) =>
          fetch(`${server.url}/v1/companies`, {
            method: "POST",
            headers: { authorization: `Bearer ${bearer}`, "idempotency-key": key, "content-type": "application/json" },
            body: JSON.stringify({ name: "Recovered Co", owner_name: "Owner" })
          })
        expect((await create(lost!, "recovery-old")).status).toBe(401)
        expect((await create(token!, "recovery-new")).status).toBe(201)
      } finally {
        await server.stop()
      }
    } finally {
      await store.remove()
    }
  }, 600_000)
})

describe("OpenTelemetry", () => {
  it("exports the request's spans over OTLP/HTTP when OTEL_EXPORTER_OTLP_ENDPOINT is set", async () => {
    // A collector as small as the protocol allows: it keeps each POST's path and JSON body.
    const received: Array<{ readonly path: string; readonly body: any }> = []
    const collector = createServer((request, response) => {
      let text = ""
      request.on("data", (chunk: Buffer) => (text += chunk.toString()))
      request.on("end", () => {
        received.push({ path: request.url ?? "", body: text === "" ? null : JSON.parse(text) })
        response.writeHead(200, { "content-type": "application/json" }).end("{}")
      })
    })
    await new Promise<void>((resolve) => collector.listen(0, "127.0.0.1", resolve))
    const address = collector.address()
    const endpoint = `http://127.0.0.1:${typeof address === "object" && address !== null ? address.port : 0}`
    const store = await freshStore()
    const server = await startServer(store, {
      LEDGER_WORKERS: "off",
      OTEL_EXPORTER_OTLP_ENDPOINT: endpoint,
      OTEL_SERVICE_NAME: "ledger-under-test"
    })
    try {
      expect((await fetch(`${server.url}/v1/accounts`, { headers: { authorization: "Bearer ldg_unknown" } })).status).toBe(401)
      const deadline = Date.now() + 30_000
      const spansOf = () =>
        received.filter((entry) => entry.path === "/v1/traces").flatMap((entry) =>
          entry.body.resourceSpans.flatMap((resource: any) => resource.scopeSpans.flatMap((scope: any) => scope.spans)))
      while (spansOf().length === 0 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 250))
      const traces = received.find((entry) => entry.path === "/v1/traces")
      expect(traces).toBeDefined()
      const service = traces!.body.resourceSpans[0].resource.attributes.find((attribute: any) => attribute.key === "service.name")
      expect(service.value.stringValue).toBe("ledger-under-test")
      expect(spansOf().length).toBeGreaterThan(0)
    } finally {
      await server.stop()
      await store.remove()
      collector.close()
    }
  }, 300_000)
})
