import { Effect } from "effect"
import { SqlClient } from "effect/sql"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { Entropy, Idempotency, Row, Secret, StoredAnswer } from "@ledger/engine"
import { makeTestApp, newKey, subscribeToEvents, type TestApp, type TestCompany } from "../support/app.ts"
import { inMigratedSchema } from "../support/migrations.ts"
import { createKey, createUser, expectErrorBody } from "./support.ts"

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

/** The tenant and principal of the owner's keys: with a key, the parts of its record's scope (migration 0009). */
const ownerScope = () => [`company:${company.companyId}`, `user:${company.ownerId}`]

const usersNamed = async (companyId: string, name: string) =>
  Number((await app.query<{ count: unknown }>(
    "SELECT count(*) AS count FROM users WHERE company_id = $1 AND name = $2",
    [companyId, name]
  ))[0]!.count)

/** The same keyed POST each call, as raw HTTP: the answer's text is compared byte for byte. */
const rawSender = (path: string, body: unknown, key = newKey()) => () =>
  app.fetch(new Request(`http://ledger.test${path}`, {
    method: "POST",
    headers: { authorization: `Bearer ${company.ownerKey}`, "idempotency-key": key, "content-type": "application/json" },
    body: JSON.stringify(body)
  }))

describe("Idempotency-Key", () => {
  it("replays the first answer byte for byte, from the record read with the API key", async () => {
    const send = rawSender("/v1/users", { name: "Byte Bea", role: "staff" })
    const first = await send()
    const firstText = await first.text()
    expect(first.status).toBe(201)
    for (let attempt = 0; attempt < 3; attempt++) {
      const replay = await send()
      expect(replay.status).toBe(201)
      expect(replay.headers.get("idempotent-replayed")).toBe("true")
      expect(await replay.text()).toBe(firstText)
    }
    expect(await usersNamed(company.companyId, "Byte Bea")).toBe(1)
  })

  it("keeps the answer packed, and still replays a record written before it was", async () => {
    const key = newKey()
    const send = rawSender("/v1/journal-entries/propose", {
      entry_date: "2026-02-27",
      memo: "Packed answer",
      lines: [{ account: "6100", debit_cents: 12_345 }, { account: "1010", credit_cents: 12_345 }]
    }, key)
    const first = await send()
    expect(first.status).toBe(201)
    const firstText = await first.text()
    const [row] = await app.query<{ answer: unknown; body: unknown }>(
      "SELECT answer, body FROM idempotency_records WHERE scope = ledger_idempotency_scope($2, $3, $1)",
      [key, ...ownerScope()]
    )
    const packed = Row.bytesOrNull(row!.answer)!
    expect(row!.body).toBeNull()
    expect(StoredAnswer.unpack(packed)).toBe(firstText)
    // What packing is for: a posting's answer in a fraction of its text.
    expect(packed.length * 3).toBeLessThan(firstText.length)

    // The form of records written before migration 0008: the answer as json, no packed answer.
    await app.query(
      "UPDATE idempotency_records SET body = $2::json, answer = NULL WHERE scope = ledger_idempotency_scope($3, $4, $1)",
      [key, firstText, ...ownerScope()]
    )
    const replay = await send()
    expect(replay.status).toBe(201)
    expect(replay.headers.get("idempotent-replayed")).toBe("true")
    expect(await replay.text()).toBe(firstText)
    // A record holds its answer one way, never both or neither.
    await expect(app.query("UPDATE idempotency_records SET answer = '\\x01'::bytea WHERE scope = ledger_idempotency_scope($2, $3, $1)", [key, ...ownerScope()])).rejects.toThrow()
    await expect(app.query("UPDATE idempotency_records SET body = NULL WHERE scope = ledger_idempotency_scope($2, $3, $1)", [key, ...ownerScope()])).rejects.toThrow()
    const [kept] = await app.query<{ answer: unknown; body: unknown }>(
      "SELECT answer, body::text AS body FROM idempotency_records WHERE scope = ledger_idempotency_scope($2, $3, $1)",
      [key, ...ownerScope()]
    )
    expect(kept).toEqual({ answer: null, body: firstText })
  })

  it("makes one change for 50 concurrent identical requests, and answers each with the same status and body", async () => {
    const key = newKey()
    const results = await Promise.all(Array.from({ length: 50 }, () =>
      app.call("POST", "/v1/users", { token: company.ownerKey, key, body: { name: "Concurrent Cleo", role: "staff" } })))
    expect(await usersNamed(company.companyId, "Concurrent Cleo")).toBe(1)
    expect(new Set(results.map((result) => result.status))).toEqual(new Set([201]))
    expect(new Set(results.map((result) => JSON.stringify(result.body))).size).toBe(1)
    const replayed = results.filter((result) => result.headers.get("idempotent-replayed") === "true")
    expect(replayed).toHaveLength(49)
    const audited = await app.query(
      "SELECT 1 FROM audit_events WHERE company_id = $1 AND action = 'createUser' AND details->>'idempotency_key' = $2",
      [company.companyId, key]
    )
    expect(audited).toHaveLength(1)
  })

  it("replays a new key's secret to the same credential, though only a sealed form is stored", async () => {
    const user = await createUser(app, company.ownerKey, "accountant")
    const key = newKey()
    const body = { principal_type: "user", user_id: user.id, scopes: ["read"] }
    const results = await Promise.all(Array.from({ length: 20 }, () =>
      app.call("POST", "/v1/keys", { token: company.ownerKey, key, body })))
    expect(new Set(results.map((result) => result.status))).toEqual(new Set([201]))
    expect(new Set(results.map((result) => result.body.secret)).size).toBe(1)
    const secret = results[0]!.body.secret as string
    expect(secret).toMatch(/^ldg_[A-Za-z0-9_-]{43}$/)
    const keys = await app.query("SELECT id FROM api_keys WHERE company_id = $1 AND user_id = $2", [company.companyId, user.id])
    expect(keys).toHaveLength(1)
    const stored = await app.query<{ answer: unknown }>("SELECT answer FROM idempotency_records WHERE scope = ledger_idempotency_scope($2, $3, $1)", [key, ...ownerScope()])
    const text = StoredAnswer.unpack(Row.bytesOrNull(stored[0]!.answer)!)
    expect(text).not.toContain(secret)
    expect(text).toContain("$sealed")
    // The replayed secret is the live key.
    expect((await app.call("GET", "/v1/me", { token: secret })).status).toBe(200)
  })

  it("refuses the replay of a secret to another credential of the same person", async () => {
    const key = newKey()
    const user = await createUser(app, company.ownerKey, "staff")
    const body = { principal_type: "user", user_id: user.id, scopes: ["read"] }
    const first = await app.call("POST", "/v1/keys", { token: company.ownerKey, key, body })
    expect(first.status).toBe(201)
    const second = await createKey(app, company.ownerKey, { principal_type: "user", user_id: company.ownerId, scopes: ["admin"] })
    const replay = await app.call("POST", "/v1/keys", { token: second.secret, key, body })
    expect(replay.status).toBe(409)
    expectErrorBody(replay.body, "idempotency_conflict")
  })

  it("replays a company's creation with its owner secret to the operator", async () => {
    const key = newKey()
    const body = { name: "Replayed Co", owner_name: "Rae" }
    const first = await app.call("POST", "/v1/companies", { token: app.operatorToken, key, body })
    const again = await app.call("POST", "/v1/companies", { token: app.operatorToken, key, body })
    expect(first.status).toBe(201)
    expect(again.status).toBe(201)
    expect(again.headers.get("idempotent-replayed")).toBe("true")
    expect(again.body).toEqual(first.body)
    const companies = await app.query("SELECT 1 FROM companies WHERE name = 'Replayed Co'")
    expect(companies).toHaveLength(1)
  })

  it("refuses the same key with a different request: 409 idempotency_conflict", async () => {
    const key = newKey()
    const first = await app.call("POST", "/v1/users", { token: company.ownerKey, key, body: { name: "Dana", role: "staff" } })
    expect(first.status).toBe(201)
    const different = await app.call("POST", "/v1/users", { token: company.ownerKey, key, body: { name: "Dana", role: "accountant" } })
    expect(different.status).toBe(409)
    expectErrorBody(different.body, "idempotency_conflict")
    const otherOperation = await app.call("POST", "/v1/agents", {
      token: company.ownerKey,
      key,
      body: { name: "Dana", scopes: ["read"], posting_threshold_cents: 0 }
    })
    expect(otherOperation.status).toBe(409)
    expectErrorBody(otherOperation.body, "idempotency_conflict")
    // The same request in another order of fields is the same request.
    const reordered = await app.call("POST", "/v1/users", { token: company.ownerKey, key, rawBody: `{"role":"staff","name":"Dana"}` })
    expect(reordered.status).toBe(201)
    expect(reordered.headers.get("idempotent-replayed")).toBe("true")
  })

  it("scopes keys to the company and the principal", async () => {
    const key = newKey()
    const other = await app.createCompany({ name: "Other Co" })
    const mine = await app.call("POST", "/v1/users", { token: company.ownerKey, key, body: { name: "Same Key", role: "staff" } })
    const theirs = await app.call("POST", "/v1/users", { token: other.ownerKey, key, body: { name: "Same Key", role: "cpa" } })
    expect(mine.status).toBe(201)
    expect(theirs.status).toBe(201)
    expect(theirs.headers.get("idempotent-replayed")).toBeNull()
    expect(theirs.body.role).toBe("cpa")
    const cpa = await createKey(app, company.ownerKey, { principal_type: "user", user_id: (await createUser(app, company.ownerKey, "cpa")).id, scopes: ["admin"] })
    const colleague = await app.call("POST", "/v1/users", { token: cpa.secret, key, body: { name: "Same Key", role: "accountant" } })
    expect(colleague.status).toBe(201)
    expect(colleague.body.role).toBe("accountant")
  })

  it("accepts keys of 8 to 200 characters and refuses others with invalid_idempotency_key", async () => {
    for (const [key, status] of [["k".repeat(7), 400], ["k".repeat(8), 201], ["k".repeat(200), 201], ["k".repeat(201), 400]] as const) {
      const result = await app.call("POST", "/v1/users", { token: company.ownerKey, key, body: { name: `Len ${key.length}`, role: "staff" } })
      expect(result.status, `${key.length} characters`).toBe(status)
      if (status === 400) expectErrorBody(result.body, "invalid_idempotency_key")
    }
  })

  it("refuses a K write without a key with idempotency_key_required, before looking at its body", async () => {
    for (const body of [{ name: "Keyless", role: "staff" }, { name: 42, role: "boss", extra: true }, undefined]) {
      const result = await app.call("POST", "/v1/users", { token: company.ownerKey, ...(body === undefined ? {} : { body }) })
      expect(result.status).toBe(400)
      expectErrorBody(result.body, "idempotency_key_required")
    }
    const badJson = await app.call("POST", "/v1/users", { token: company.ownerKey, rawBody: "{not json" })
    expectErrorBody(badJson.body, "idempotency_key_required")
    // `dry_run` exempts only operations that take it: createUser does not.
    const fakeDryRun = await app.call("POST", "/v1/users", { token: company.ownerKey, body: { name: "x", role: "staff", dry_run: true } })
    expectErrorBody(fakeDryRun.body, "idempotency_key_required")
    expect(await usersNamed(company.companyId, "Keyless")).toBe(0)
  })

  it("does not record a refusal, so a corrected retry may reuse the key", async () => {
    const key = newKey()
    const staff = await createUser(app, company.ownerKey, "staff")
    const refused = await app.call("POST", "/v1/keys", {
      token: company.ownerKey,
      key,
      body: { principal_type: "user", user_id: staff.id, scopes: ["admin"] }
    })
    expect(refused.status).toBe(422)
    expectErrorBody(refused.body, "validation_failed")
    const corrected = await app.call("POST", "/v1/keys", {
      token: company.ownerKey,
      key,
      body: { principal_type: "user", user_id: staff.id, scopes: ["read", "propose"] }
    })
    expect(corrected.status).toBe(201)
    expect(corrected.headers.get("idempotent-replayed")).toBeNull()
  })

  it("keeps a key 7 days, then forgets it", async () => {
    const key = newKey()
    const first = await app.call("POST", "/v1/users", { token: company.ownerKey, key, body: { name: "Week One", role: "staff" } })
    expect(first.status).toBe(201)
    app.clock!.advance("6 days")
    const within = await app.call("POST", "/v1/users", { token: company.ownerKey, key, body: { name: "Week Two", role: "staff" } })
    expect(within.status).toBe(409)
    app.clock!.advance("1 day")
    const after = await app.call("POST", "/v1/users", { token: company.ownerKey, key, body: { name: "Week Two", role: "staff" } })
    expect(after.status).toBe(201)
    expect(after.body.name).toBe("Week Two")
  })

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
    // An app of its own: its table holds only what this test writes.
    const own = await makeTestApp()
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
    }
  }, 60_000)

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

  it("carries live records of the old table over to their scopes, so a retry across the upgrade replays", async () => {
    // Migrations 1 to 8 in a schema of their own, inside a transaction that is rolled back.
    const { value: carried, schema } = await inMigratedSchema(app, 8, ({ sql, apply }) =>
      Effect.gen(function*() {
        const fullHash = Secret.sha256Hex("createUser\n{}")
        yield* sql.unsafe(`INSERT INTO idempotency_records (tenant, principal, idempotency_key, operation, request_hash, status,
            answer, body, created_at, expires_at) VALUES
          ('company:00000000-0000-4000-8000-000000000001', 'user:7', 'old-key-live', 'createUser', $1, 201,
            '\\x01', NULL, now(), now() + interval '1 day'),
          ('company:00000000-0000-4000-8000-000000000001', 'user:8', 'old-key-json', 'createUser', $1, 200,
            NULL, '{"id": 1}', now(), now() + interval '1 day')`, [fullHash])
        yield* apply(9)
        const rows = yield* sql.unsafe<{ scope: string; status: number; request_hash: string; answer: unknown; body: unknown }>(
          `SELECT replace(scope::text, '-', '') AS scope, status, encode(request_hash, 'hex') AS request_hash, answer,
             body::text AS body FROM idempotency_records ORDER BY status`
        )
        return { rows, fullHash }
      }))
    expect(carried.rows).toHaveLength(2)
    const expectedScope = (principal: string, key: string) =>
      Secret.sha256Hex(`company:00000000-0000-4000-8000-000000000001\n${principal}\n${key}`).slice(0, 32)
    expect(carried.rows.map((row) => row.scope)).toEqual([expectedScope("user:8", "old-key-json"), expectedScope("user:7", "old-key-live")])
    expect(carried.rows.map((row) => row.request_hash)).toEqual([carried.fullHash.slice(0, 32), carried.fullHash.slice(0, 32)])
    // What the engine computes for the same request on a retry, so the retry replays.
    expect(carried.rows[0]!.request_hash).toBe(Idempotency.requestHashOf("createUser", {}))
    expect(carried.rows[0]!.body).toBe('{"id": 1}')
    expect(Array.from(Row.bytesOrNull(carried.rows[1]!.answer)!)).toEqual([1])
    expect(await app.query("SELECT 1 FROM pg_namespace WHERE nspname = $1", [schema])).toHaveLength(0)
  })
})
