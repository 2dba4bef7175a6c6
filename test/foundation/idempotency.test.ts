import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { Row, StoredAnswer } from "@ledger/engine"
import { createKey, createUser, expectErrorBody, makeTestApp, newKey, subscribeToEvents, type TestApp, type TestCompany } from "../support/index.ts"

let app: TestApp
let company: TestCompany
beforeAll(async () => {
  app = await makeTestApp({ clock: "2026-03-01T09:00:00Z" })
  company = await app.createCompany({ name: "Idempotent Co" })
  await subscribeToEvents(app, company)
})
afterAll(() => app.close())

/** The tenant and principal of the owner's keys: with a key, the parts of its record's scope (ADR 0708). */
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

    // The form of records written before packed answers (ADR 0706): the answer as json, no packed answer.
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
})
