import { Effect } from "effect"
import { SqlClient } from "effect/sql"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { Entropy, Idempotency, Secret } from "@ledger/engine"
import { expectErrorBody, makeTestApp, newKey, subscribeToEvents, type TestApp, type TestCompany } from "../support/index.ts"
import { freshStore } from "../support/server-process.ts"

/**
 * Idempotency records under load and over time: concurrent duplicates, a duplicate meeting a first
 * request still in its transaction, retention and the purge, and how a record is keyed and found.
 * (idempotency.test.ts: what a client sees of a key.)
 */

let app: TestApp
let company: TestCompany
beforeAll(async () => {
  app = await makeTestApp({ clock: "2026-03-01T09:00:00Z" })
  company = await app.createCompany({ name: "Idempotent Co" })
  await subscribeToEvents(app, company)
})
afterAll(() => app.close())

/**
 * Records an answer under `key` for the owner, as a first request does at the end of its work, in
 * a transaction then held open for `milliseconds` and rolled back: what a duplicate meets while
 * the first is committing, or is stuck before its commit.
 */
const holdClaim = (key: string, milliseconds: number) =>
  app.runtime.runPromise(Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    yield* sql.withTransaction(Effect.gen(function*() {
      yield* Idempotency.record({
        tenant: `company:${company.companyId}`,
        principal: `user:${company.ownerId}`,
        key,
        requestHash: Idempotency.requestHashOf("createUser", { path: {}, query: {}, body: { name: "Held", role: "staff" } }),
        now: new Date(app.clock!.now()).toISOString(),
        credential: company.ownerKey
      }, 201, { held: true })
      yield* Effect.sleep(milliseconds)
      return yield* Effect.fail("roll back" as const)
    }))
  }).pipe(Effect.provide(Entropy.layer), Effect.catch(() => Effect.void)))

/** The tenant and principal of the owner's keys: with a key, the parts of its record's scope (ADR 0708). */
const ownerScope = () => [`company:${company.companyId}`, `user:${company.ownerId}`]

const usersNamed = async (companyId: string, name: string) =>
  Number((await app.query<{ count: unknown }>(
    "SELECT count(*) AS count FROM users WHERE company_id = $1 AND name = $2",
    [companyId, name]
  ))[0]!.count)

describe("Idempotency records", () => {
  it("answers concurrent duplicates with the first's answer even when their own work fails because of it", async () => {
    const posted = await app.call("POST", "/v1/journal-entries/propose", {
      token: company.ownerKey,
      key: newKey(),
      body: { entry_date: "2026-03-01", lines: [{ account: "6070", debit_cents: 900 }, { account: "1010", credit_cents: 900 }] }
    })
    expect(posted.status).toBe(201)
    // Every duplicate reverses the same entry: all but the first find it reversed already.
    const key = newKey()
    const results = await Promise.all(Array.from({ length: 12 }, () =>
      app.call("POST", `/v1/journal-entries/${posted.body.id}/reverse`, { token: company.ownerKey, key, body: {} })))
    expect(new Set(results.map((result) => result.status))).toEqual(new Set([201]))
    expect(new Set(results.map((result) => JSON.stringify(result.body))).size).toBe(1)
    expect(results.filter((result) => result.headers.get("idempotent-replayed") === "true")).toHaveLength(11)
    const reversals = await app.query("SELECT 1 FROM journal_entries WHERE company_id = $1 AND reverses_entry_id = $2", [
      company.companyId,
      posted.body.id
    ])
    expect(reversals).toHaveLength(1)
    // The duplicates' events went with their rolled-back work: one reversal, one of each event.
    const events = await app.query<{ event_type: string }>(
      `SELECT event_type FROM outbox_events WHERE company_id = $1 AND event_type IN ('entry.posted', 'entry.reversed')
         AND (payload->>'entry_id')::bigint IN ($2, $3) ORDER BY id`,
      [company.companyId, posted.body.id, results[0]!.body.id]
    )
    expect(events.map((event) => event.event_type)).toEqual(["entry.posted", "entry.posted", "entry.reversed"])
  })

  it("makes a duplicate wait for the first request, then run itself if the first rolled back", async () => {
    const key = newKey()
    const held = holdClaim(key, 1_500)
    await new Promise((resolve) => setTimeout(resolve, 200))
    const started = Date.now()
    const duplicate = await app.call("POST", "/v1/users", { token: company.ownerKey, key, body: { name: "Patient Pat", role: "staff" } })
    await held
    expect(duplicate.status).toBe(201)
    expect(duplicate.headers.get("idempotent-replayed")).toBeNull()
    expect(Date.now() - started).toBeGreaterThanOrEqual(1_000)
    expect(await usersNamed(company.companyId, "Patient Pat")).toBe(1)
  })

  it("tells a duplicate that waited 10 s on PostgreSQL that the first is still in progress", async () => {
    const key = newKey()
    const held = holdClaim(key, Idempotency.inProgressWaitMilliseconds + 3_000)
    await new Promise((resolve) => setTimeout(resolve, 200))
    const duplicate = await app.call("POST", "/v1/users", { token: company.ownerKey, key, body: { name: "Hasty Hal", role: "staff" } })
    await held
    if (app.storage === "postgresql") {
      expect(duplicate.status).toBe(409)
      expectErrorBody(duplicate.body, "idempotency_in_progress")
      expect(await usersNamed(company.companyId, "Hasty Hal")).toBe(0)
    } else {
      // PGlite runs one transaction at a time: the duplicate waits its turn, then runs.
      expect(duplicate.status).toBe(201)
    }
  }, 60_000)

  it("purges records past retention", async () => {
    const key = newKey()
    expect((await app.call("POST", "/v1/users", { token: company.ownerKey, key, body: { name: "Purged", role: "staff" } })).status).toBe(201)
    const held = "SELECT 1 FROM idempotency_records WHERE scope = ledger_idempotency_scope($2, $3, $1)"
    expect(await app.query(held, [key, ...ownerScope()])).toHaveLength(1)
    const later = new Date(app.clock!.now() + 8 * 86_400_000).toISOString()
    const purged = await app.runtime.runPromise(Idempotency.purgeExpired(later, 1_000_000).pipe(Effect.orDie))
    expect(purged).toBeGreaterThan(0)
    expect(await app.query(held, [key, ...ownerScope()])).toHaveLength(0)
  })

  it("reuses the room of purged records once it is reclaimed, where nothing else vacuums", async () => {
    // An app of its own: its table holds only what this test writes. On PostgreSQL, in a database
    // of its own too: VACUUM keeps rows that any older transaction in the same database may still
    // see, and other test files' long transactions (a 200,000-line import) run beside this one.
    const store = (process.env.DATABASE_URL ?? "") === "" ? null : await freshStore()
    const shared = process.env.DATABASE_URL
    if (store !== null) process.env.DATABASE_URL = store.databaseUrl
    const own = await makeTestApp().finally(() => {
      if (store !== null) process.env.DATABASE_URL = shared
    })
    try {
      const pages = async () =>
        Number((await own.query<{ pages: string }>("SELECT pg_relation_size('idempotency_records') / 8192 AS pages"))[0]!.pages)
      const write = (round: number) =>
        own.query(`INSERT INTO idempotency_records (scope, expires_at, status, request_hash, answer)
          SELECT md5('${round}:' || g)::uuid, now() - interval '1 day', 201, decode(md5(g::text), 'hex'), decode(repeat('ab', 150), 'hex')
          FROM generate_series(1, 5000) AS g`)
      const later = new Date(Date.now() + 86_400_000).toISOString()
      await write(1)
      const written = await pages()
      expect(written).toBeGreaterThan(20)
      for (const round of [2, 3]) {
        expect(await own.runtime.runPromise(Idempotency.purgeExpired(later, 1_000_000))).toBe(5000)
        await own.runtime.runPromise(Idempotency.reclaimSpace())
        await write(round)
        // The same rows again in the room the purged ones left, not after them.
        expect(await pages()).toBeLessThanOrEqual(written + 2)
      }
    } finally {
      await own.close()
      await store?.remove()
    }
  }, 120_000)

  it("keys a record by 16 bytes of SHA-256 over tenant, principal and key, with a 16-byte fingerprint", async () => {
    const key = newKey()
    const body = { name: "Scoped Sam", role: "staff" }
    expect((await app.call("POST", "/v1/users", { token: company.ownerKey, key, body })).status).toBe(201)
    const [tenant, principal] = ownerScope()
    const expected = Secret.sha256Hex(`${tenant}\n${principal}\n${key}`).slice(0, 32)
    const rows = await app.query<{ scope: string; request_hash: string }>(
      "SELECT replace(scope::text, '-', '') AS scope, encode(request_hash, 'hex') AS request_hash FROM idempotency_records WHERE scope = $1::uuid",
      [expected]
    )
    expect(rows).toHaveLength(1)
    expect(rows[0]!.scope).toBe(expected)
    expect(rows[0]!.request_hash).toBe(Idempotency.requestHashOf("createUser", { path: {}, query: {}, body }))
    expect(rows[0]!.request_hash).toMatch(/^[0-9a-f]{32}$/)
  })

  it("computes the scope inline in the statement that looks it up, not by a function call", async () => {
    // A SQL function PostgreSQL does not inline is planned again in every statement that calls it,
    // which cost HTTP postings about a millisecond at the median (ADR 0708).
    const plan = await app.query<Record<string, string>>(
      "EXPLAIN (VERBOSE) SELECT ledger_idempotency_scope('company:' || now()::text, 'user:1', 'some-key-1')"
    )
    const text = plan.map((row) => Object.values(row).join(" ")).join("\n")
    expect(text).toContain("sha256")
    expect(text).not.toContain("ledger_idempotency_scope(")
  })
})
