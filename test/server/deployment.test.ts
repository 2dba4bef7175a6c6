import { spawnSync } from "node:child_process"
import { randomBytes } from "node:crypto"
import path from "node:path"
import { Effect } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { freshStore, repositoryRoot, type RunningServer, startServer, type Store, withStore } from "../support/server-process.ts"

/**
 * docs/operations.md's PostgreSQL deployment, step by step, as an operator types it (the same steps
 * compose.yaml runs where Docker is present): the roles provisioned once by a superuser, `ledger
 * migrate` as the owner granting the application role, then `ledger serve` as a login role of the
 * application role. The server is ready, keeps books, and its session cannot do what the owner can.
 */

const postgres = process.env.DATABASE_URL !== undefined && process.env.DATABASE_URL !== ""
const ledger = path.join(repositoryRoot, "packages/server/bin/ledger.mjs")
// Roles are the cluster's, not the database's: unique names, dropped at the end.
const suffix = `${Date.now().toString(36)}${randomBytes(3).toString("hex")}`
const roles = { owner: `ledger_owner_${suffix}`, app: `ledger_app_${suffix}`, server: `ledger_server_${suffix}` }
const password = randomBytes(12).toString("hex")

const as = (store: Store, role: string) => {
  const url = new URL(store.databaseUrl!)
  url.username = role
  url.password = password
  return url.toString()
}

/** The environment of an operator's shell: nothing of Ledger's but what a step sets. */
const shell = (settings: Record<string, string>) => {
  const env: Record<string, string> = {}
  for (const [name, value] of Object.entries(process.env)) {
    if (value !== undefined && !name.startsWith("LEDGER_") && name !== "DATABASE_URL") env[name] = value
  }
  return { ...env, ...settings }
}

describe.skipIf(!postgres)("the documented PostgreSQL deployment (docs/operations.md)", () => {
  let store: Store
  let server: RunningServer | undefined
  beforeAll(async () => {
    store = await freshStore()
    const database = new URL(store.databaseUrl!).pathname.slice(1)
    // "To provision the roles yourself (as a superuser, once)".
    const provisioning = [
      `CREATE ROLE ${roles.owner} LOGIN PASSWORD '${password}'`,
      `CREATE ROLE ${roles.app} NOLOGIN`,
      `CREATE ROLE ${roles.server} LOGIN PASSWORD '${password}' IN ROLE ${roles.app}`,
      `GRANT CONNECT ON DATABASE ${database} TO ${roles.owner}, ${roles.server}`,
      `ALTER SCHEMA public OWNER TO ${roles.owner}`
    ]
    await withStore(store, (sql) => Effect.forEach(provisioning, (statement) => sql.unsafe(statement), { discard: true }))
  }, 120_000)
  afterAll(async () => {
    await server?.stop()
    await store?.remove()
    await withStore({ databaseUrl: process.env.DATABASE_URL }, (sql) =>
      Effect.forEach([roles.server, roles.app, roles.owner], (role) => sql.unsafe(`DROP ROLE IF EXISTS ${role}`), { discard: true }))
      .catch(() => undefined)
  }, 120_000)

  it("migrates as the owner, serves as the application role, and keeps books", async () => {
    const migrated = spawnSync(process.execPath, [ledger, "migrate"], {
      env: shell({ LEDGER_MIGRATION_DATABASE_URL: as(store, roles.owner), LEDGER_APP_ROLE: roles.app, LEDGER_DATA_DIR: store.dataDir }),
      encoding: "utf8",
      timeout: 240_000
    })
    expect(migrated.status, migrated.stderr).toBe(0)
    const operatorToken = /(ldgop_[A-Za-z0-9_-]{43})/.exec(migrated.stdout)?.[1]
    expect(operatorToken).toBeDefined()

    server = await startServer({ ...store, env: {} }, {
      DATABASE_URL: as(store, roles.server),
      LEDGER_DATA_DIR: store.dataDir,
      LEDGER_MASTER_KEY: randomBytes(32).toString("base64"),
      LEDGER_WORKERS: "off"
    })
    expect((await fetch(`${server.url}/ready`)).status).toBe(200)
    const send = (method: string, route: string, token: string, key: string, body: unknown) =>
      fetch(`${server!.url}${route}`, {
        method,
        headers: { authorization: `Bearer ${token}`, "idempotency-key": key, "content-type": "application/json" },
        body: JSON.stringify(body)
      }).then(async (response) => ({ status: response.status, body: await response.json() as any }))
    const company = await send("POST", "/v1/companies", operatorToken!, "deploy-company", { name: "Deployed Co", owner_name: "Owner" })
    expect(company.status).toBe(201)
    const entry = await send("POST", "/v1/journal-entries/propose", company.body.secret, "deploy-entry", {
      entry_date: "2026-04-01",
      memo: "first entry on the deployment",
      lines: [{ account: "1010", debit_cents: 12_345 }, { account: "4000", credit_cents: 12_345 }]
    })
    expect(entry.status, JSON.stringify(entry.body)).toBe(201)

    // The server's role owns nothing: no schema change, no TRUNCATE of the books.
    const refusals = await withStore({ databaseUrl: as(store, roles.server) }, (sql) =>
      sql.unsafe("SELECT has_table_privilege('journal_lines', 'TRUNCATE') AS truncate, has_schema_privilege('public', 'CREATE') AS create_in_schema"))
    expect(refusals[0]).toEqual({ truncate: false, create_in_schema: false })
  }, 600_000)
})
