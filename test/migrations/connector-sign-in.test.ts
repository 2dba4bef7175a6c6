import { Effect } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { Migrations } from "@ledger/engine"
import type { TestApp } from "../support/index.ts"
import { inMigratedSchema } from "../support/migrations.ts"
import { makeProviderApp, writer } from "./support.ts"
import { connector, listen } from "./soap.ts"

/**
 * The Web Connector's sign-in against guessing and storms (issue 38 item 13, ADR 2110): a
 * connection's user name is random, so `ledger-<id>` names nothing; wrong sign-ins are limited
 * per client address (10 in 15 minutes), past which an address is refused before any look-up and
 * no connection's failed-attempt counter moves. Calls come over real HTTP with `X-Forwarded-For`
 * (the app trusts its proxy), each test from addresses of its own.
 */

let app: TestApp
let server: { url: string; close: () => Promise<void> }
beforeAll(async () => {
  app = (await makeProviderApp({ trustProxy: true })).app
  server = await listen(app.fetch)
})
afterAll(async () => {
  await server.close()
  await app.close()
})

const from = (address: string) => connector(server.url, { "x-forwarded-for": address })

const start = async (name: string) => {
  const company = await app.createCompany({ name, starter_chart: "empty" })
  const owner = writer(app, company.ownerKey)
  const created = await owner.post("/v1/migrations/desktop/connections", { as_of: "2026-03-31" })
  expect(created.status).toBe(201)
  const id = created.body.connection.id as number
  return {
    owner,
    id,
    userName: created.body.user_name as string,
    password: created.body.password as string,
    downloadToken: created.body.download_token as string,
    state: async () => (await owner.get(`/v1/migrations/desktop/connections/${id}`)).body
  }
}

describe("the Web Connector's user names", () => {
  it("are random, in the creation's answer and the connector file, and ledger-<id> locks nothing", async () => {
    const first = await start("Guessed Co")
    const second = await start("Other Co")
    expect(first.userName).toMatch(/^ledger-[A-Za-z0-9_-]{20}$/)
    expect(second.userName).toMatch(/^ledger-[A-Za-z0-9_-]{20}$/)
    expect(first.userName).not.toBe(second.userName)
    expect(first.userName).not.toBe(`ledger-${first.id}`)
    const file = await first.owner.post(`/v1/migrations/desktop/connections/${first.id}/qwc`, { download_token: first.downloadToken })
    expect(file.status).toBe(200)
    expect(file.body.qwc).toContain(`<UserName>${first.userName}</UserName>`)
    expect(file.body.qwc).not.toContain(`ledger-${first.id}<`)

    // The old way in: the sequential name and five wrong passwords, and then some.
    const guesser = from("203.0.113.10")
    for (let attempt = 0; attempt < 6; attempt++) expect((await guesser.authenticate(`ledger-${first.id}`, "nope")).status).toBe("nvu")
    expect(await first.state()).toMatchObject({ status: "created", failed_password_attempts: 0 })

    // The real user name still signs in.
    const session = await from("198.51.100.20").authenticate(first.userName, first.password)
    expect(session.status).toBe("")
    expect(session.ticket.length).toBeGreaterThan(20)
    expect((await first.state()).status).toBe("extracting")
  })
})

describe("wrong sign-ins per client address", () => {
  it("stop counting against the connection at the address's limit, and free up after the window", async () => {
    const connection = await start("Storm Co")
    const storm = from("203.0.113.50")
    // Eight guessed user names, then wrong passwords on the real one: the ninth and tenth wrong
    // sign-ins from the address still count against the connection, none after them does.
    for (let attempt = 0; attempt < 8; attempt++) expect((await storm.authenticate(`ledger-guess${attempt}`, "nope")).status).toBe("nvu")
    for (let attempt = 0; attempt < 2; attempt++) expect((await storm.authenticate(connection.userName, "nope")).status).toBe("nvu")
    expect((await connection.state()).failed_password_attempts).toBe(2)
    for (let attempt = 0; attempt < 20; attempt++) expect((await storm.authenticate(connection.userName, "nope")).status).toBe("nvu")
    expect(await connection.state()).toMatchObject({ status: "created", failed_password_attempts: 2 })
    // Past its limit the address is refused before any look-up, even with the right password.
    expect((await storm.authenticate(connection.userName, connection.password)).status).toBe("nvu")
    expect((await connection.state()).status).toBe("created")

    // Another address is not held back: the right user name and password sign in.
    const session = await from("198.51.100.60").authenticate(connection.userName, connection.password)
    expect(session.status).toBe("")
    expect(await connection.state()).toMatchObject({ status: "extracting", failed_password_attempts: 0 })

    // The window slides: once its failures are 15 minutes old the address signs in again. (The
    // endpoint reads the system clock, not a test's: the counts are moved back instead.)
    await app.query(`UPDATE auth_throttle SET at = at - interval '15 minutes' WHERE bucket = 'qbwc-client:203.0.113.50'`)
    expect((await storm.authenticate(connection.userName, connection.password)).status).toBe("")
  })

  it("count unknown user names and wrong passwords, not a locked connection's connector calling on", async () => {
    const connection = await start("Locked Co")
    const own = from("203.0.113.70")
    for (let attempt = 0; attempt < 5; attempt++) expect((await own.authenticate(connection.userName, "typo")).status).toBe("nvu")
    expect((await connection.state()).status).toBe("locked")
    // Locked: the connector keeps calling on its schedule; these are refused and not counted.
    for (let attempt = 0; attempt < 10; attempt++) expect((await own.authenticate(connection.userName, connection.password)).status).toBe("nvu")
    expect((await connection.owner.post(`/v1/migrations/desktop/connections/${connection.id}/unlock`)).body.status).toBe("created")
    // Five wrong so far from this address, under its 10: the right password signs in.
    expect((await own.authenticate(connection.userName, connection.password)).status).toBe("")
  })
})

describe("migration 0043", () => {
  it("names existing desktop connections: a random name, or ledger-<id> where a connector already holds that file", async () => {
    const company = "00000000-0000-4000-8000-0000000043c1"
    const { value } = await inMigratedSchema(app, 42, ({ sql, apply }) =>
      Effect.gen(function*() {
        yield* sql.unsafe(`INSERT INTO companies (company_id, name, plan, starter_chart, periods, created_at)
          VALUES ('${company}', 'Migrated Co', 'owned', 'empty', false, now())`)
        const insert = (id: number, source: string, status: string, downloadToken: string | null, expires: string) =>
          sql.unsafe(`INSERT INTO migration_connections (company_id, id, source, status, as_of, download_token_hash, expires_at, created_by, created_at)
            VALUES ('${company}', ${id}, '${source}', '${status}', '2026-03-31', ${downloadToken === null ? "NULL" : `'${downloadToken}'`},
              now() + interval '${expires}', 'user:1', now())`)
        yield* insert(101, "desktop", "extracting", null, "10 days")
        yield* insert(102, "desktop", "created", "not-yet-downloaded", "10 days")
        yield* insert(103, "desktop", "revoked", null, "10 days")
        yield* insert(104, "desktop", "created", null, "-1 day")
        yield* insert(105, "desktop", "locked", null, "10 days")
        yield* insert(106, "online", "created", null, "10 days")
        yield* apply(43)
        return yield* sql.unsafe<{ id: unknown; user_name: string | null }>(`SELECT id, user_name FROM migration_connections ORDER BY id`)
      }))
    const names = new Map(value.map((row) => [Number(row.id), row.user_name]))
    // Files already out, on connections that can still connect (a locked one can be unlocked).
    expect(names.get(101)).toBe("ledger-101")
    expect(names.get(105)).toBe("ledger-105")
    for (const id of [102, 103, 104]) expect(names.get(id)).toMatch(/^ledger-[A-Za-z0-9_-]{20}$/)
    expect(new Set([102, 103, 104].map((id) => names.get(id))).size).toBe(3)
    expect(names.get(106)).toBeNull()
    expect(Migrations.migrations.find((migration) => migration.id === 43)?.name).toBe("migration_connection_user_names")
  })
})
