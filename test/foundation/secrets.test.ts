import { Effect } from "effect"
import { SqlClient } from "effect/sql"
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest"
import { agentWithKey, connectMcp, makeTestApp, newKey, personWithKey, type TestApp } from "../support/index.ts"
import { everyStoredValue } from "../support/server-process.ts"

/**
 * No secret rests in plain text anywhere (spec 5.1, docs/decisions/0006-secrets.md): after every
 * way of making one, no column of any table and no line the process logged holds it.
 */

const logged: Array<string> = []
let app: TestApp
const restores: Array<() => void> = []

beforeAll(async () => {
  // Everything written to the console or the process's streams, from before the app starts.
  for (const stream of [process.stdout, process.stderr]) {
    const write = stream.write.bind(stream)
    stream.write = ((chunk: unknown, ...rest: Array<any>) => {
      logged.push(String(chunk))
      return write(chunk as string, ...rest)
    }) as typeof stream.write
    restores.push(() => (stream.write = write))
  }
  for (const method of ["log", "info", "warn", "error", "debug", "trace"] as const) {
    const spy = vi.spyOn(console, method).mockImplementation((...args: Array<unknown>) => {
      logged.push(args.map((arg) => (typeof arg === "string" ? arg : JSON.stringify(arg, (_, value) => typeof value === "bigint" ? String(value) : value) ?? String(arg))).join(" "))
    })
    restores.push(() => spy.mockRestore())
  }
  app = await makeTestApp({ rateLimits: true })
})
afterAll(async () => {
  await app.close()
  for (const restore of restores) restore()
})

describe("secrets at rest", () => {
  it("are nowhere in the database or the logs, however they were made", async () => {
    const secrets: Array<string> = [app.operatorToken]
    const first = await app.createCompany({ name: "Secretive Co" })
    const second = await app.createCompany({ name: "Also Secretive" })
    secrets.push(first.ownerKey, second.ownerKey)

    const person = await personWithKey(app, first.ownerKey, "cpa")
    const agent = await agentWithKey(app, first.ownerKey, ["read", "propose"], { rate_limit_rpm: 30 })
    secrets.push(person.key.secret, agent.key.secret)

    // A key made twice with one Idempotency-Key: its result is stored for replay.
    const idempotencyKey = newKey()
    const body = { principal_type: "user", user_id: person.user.id, scopes: ["read"] }
    const made = await app.call("POST", "/v1/keys", { token: first.ownerKey, key: idempotencyKey, body })
    const replayed = await app.call("POST", "/v1/keys", { token: first.ownerKey, key: idempotencyKey, body })
    expect(replayed.body.secret).toBe(made.body.secret)
    secrets.push(made.body.secret)

    // Rotations, by an admin and by the agent itself.
    const rotated = await app.call("POST", `/v1/keys/${person.key.id}/rotate`, { token: first.ownerKey, key: newKey(), body: { overlap_seconds: 60 } })
    const selfRotated = await app.call("POST", `/v1/keys/${agent.key.id}/rotate`, {
      token: agent.key.secret,
      key: newKey(),
      body: {},
      headers: { "x-agent-model": "test-model-1" }
    })
    secrets.push(rotated.body.secret, selfRotated.body.secret)

    // Over MCP.
    const client = await connectMcp(app, first.ownerKey)
    const viaMcp = await client.callTool({ name: "create_key", arguments: { ...body, idempotency_key: newKey() } })
    await client.close()
    secrets.push((viaMcp.structuredContent as { secret: string }).secret)

    // Refused requests that carry a secret where it does not belong, and unknown credentials.
    await app.call("POST", "/v1/users", { token: first.ownerKey, key: newKey(), body: { name: "x", role: "staff", token: made.body.secret } })
    await app.call("POST", "/v1/users", { token: first.ownerKey, key: newKey(), body: { name: made.body.secret.length, role: made.body.secret } })
    await app.call("GET", "/v1/me", { token: made.body.secret.slice(0, -2) + "zz" })
    await app.call("POST", `/v1/keys/${person.key.id}/revoke`, { token: first.ownerKey, key: newKey(), body: { reason: "done" } })
    await app.call("GET", "/v1/me", { token: person.key.secret })

    for (const secret of secrets) expect(secret).toMatch(/^(ldg_|operator-)/)
    expect(new Set(secrets).size).toBe(secrets.length)

    const { tables, values } = await app.runtime.runPromise(Effect.flatMap(SqlClient.SqlClient, everyStoredValue))
    for (const table of ["api_keys", "idempotency_records", "audit_events", "operator_credentials", "users", "agents", "companies"]) {
      expect(tables).toContain(table)
    }
    expect(values.length).toBeGreaterThan(100)
    for (const secret of secrets) {
      // The whole secret, and its random part without the prefix.
      const needles = [secret, secret.replace(/^ldg_/, "")]
      for (const value of values) {
        for (const needle of needles) expect(value.value.includes(needle), `${value.table}.${value.column} holds a secret`).toBe(false)
      }
      for (const line of logged) for (const needle of needles) expect(line.includes(needle), `a log line holds a secret: ${line}`).toBe(false)
    }
    // What lists show of a key is too little to use.
    const prefixes = values.filter((value) => value.table === "api_keys" && value.column === "prefix")
    for (const prefix of prefixes) expect(prefix.value).toMatch(/^ldg_[A-Za-z0-9_-]{4}$/)
  })
})
