import { Effect } from "effect"
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest"
import { createUser, makeTestApp, newKey, type TestApp, type TestCompany } from "../support/index.ts"
import { inMigratedSchema } from "../support/migrations.ts"
import { propose, simpleLines } from "../support/postings.ts"

/**
 * The company audit log's hash chain (issue 41 item 5, docs/decisions/2310-company-audit-hash-chain.md)
 * against tampering made directly in the database, as the session the tests query with (PGlite's
 * superuser, or PostgreSQL's), which can turn the append-only trigger off.
 */

let app: TestApp
let company: TestCompany
beforeAll(async () => {
  app = await makeTestApp()
})
afterAll(() => app.close())

const verify = async (query = "") => {
  const answer = await app.call("GET", `/v1/audit/verify${query}`, { token: company.ownerKey })
  expect(answer.status, JSON.stringify(answer.body)).toBe(200)
  return answer.body
}

const events = async () =>
  app.query<{ seq: string; hash: string; id: string }>(`SELECT seq, hash, id FROM audit_events WHERE company_id = $1 ORDER BY seq`,
    [company.companyId])

/** The append-only trigger keeps honest code out; an attacker with the database turns it off. */
const tamper = async (statement: string, params: ReadonlyArray<unknown> = []) => {
  await app.query(`ALTER TABLE audit_events DISABLE TRIGGER audit_events_append_only`)
  try {
    await app.query(statement, params)
  } finally {
    await app.query(`ALTER TABLE audit_events ENABLE TRIGGER audit_events_append_only`)
  }
}

/** Moves the company's head as only the chaining trigger may: with its guard off. */
const setHead = async (seq: number, hash: string) => {
  await app.query(`ALTER TABLE audit_chain_heads DISABLE TRIGGER audit_chain_heads_kept`)
  try {
    await app.query(`UPDATE audit_chain_heads SET seq = $2, hash = $3 WHERE company_id = $1`, [company.companyId, seq, hash])
  } finally {
    await app.query(`ALTER TABLE audit_chain_heads ENABLE TRIGGER audit_chain_heads_kept`)
  }
}

beforeEach(async () => {
  company = await app.createCompany({ name: "Chained Co", starter_chart: "general" })
  for (const name of ["Ann", "Bob", "Cy"]) await createUser(app, company.ownerKey, "accountant", name)
  expect(await verify()).toMatchObject({ valid: true, events_checked: 4, head_seq: 4, problem: null })
})

describe("the company audit log's hash chain", () => {
  it("numbers each company's events 1, 2, 3... and keeps them valid under concurrent writes (group commit included)", async () => {
    const other = await app.createCompany({ name: "Other Co", starter_chart: "general" })
    const postings = Array.from({ length: 24 }, (_, index) =>
      propose(app, index % 2 === 0 ? company.ownerKey : other.ownerKey, {
        entry_date: "2026-03-14",
        memo: `Concurrent ${index}`,
        lines: simpleLines("1000", "4000", 100 + index)
      }))
    const people = Array.from({ length: 4 }, (_, index) => createUser(app, company.ownerKey, "staff", `Staff ${index}`))
    const answers = await Promise.all(postings)
    await Promise.all(people)
    for (const answer of answers) expect(answer.status).toBe(201)
    const rows = await events()
    expect(rows.map((row) => Number(row.seq))).toEqual(Array.from({ length: 4 + 12 + 4 }, (_, index) => index + 1))
    const verdict = await verify()
    expect(verdict, JSON.stringify(verdict)).toMatchObject({ valid: true, events_checked: 20, head_seq: 20, head_hash: rows.at(-1)!.hash })
    const otherVerdict = await app.call("GET", "/v1/audit/verify", { token: other.ownerKey })
    expect(otherVerdict.body).toMatchObject({ valid: true, events_checked: 13, head_seq: 13 })
  })

  it("refuses changes through the database's own guards", async () => {
    await expect(app.query(`UPDATE audit_events SET reason = 'x' WHERE company_id = $1`, [company.companyId])).rejects.toThrow()
    await expect(app.query(`DELETE FROM audit_events WHERE company_id = $1`, [company.companyId])).rejects.toThrow()
    await expect(app.query(`UPDATE audit_chain_heads SET seq = 1 WHERE company_id = $1`, [company.companyId])).rejects.toThrow()
    await expect(app.query(`DELETE FROM audit_chain_heads WHERE company_id = $1`, [company.companyId])).rejects.toThrow()
    await expect(app.query(`INSERT INTO audit_chain_heads VALUES ($1, 0, $2)`, [company.companyId.replace(/.$/u, "0"), "0".repeat(64)]))
      .rejects.toThrow()
    expect(await verify()).toMatchObject({ valid: true, head_seq: 4 })
  })

  it("chains a direct INSERT too, whatever seq and hash it states", async () => {
    await app.query(`INSERT INTO audit_events (company_id, occurred_at, action, outcome, status, principal_type, via, details,
        seq, prev_hash, hash) VALUES ($1, now(), 'direct', 'ok', 200, 'operator', 'engine', '{"b": 1, "a": [1.50, "x"]}', 99, 'x', 'y')`,
    [company.companyId])
    const rows = await events()
    expect(rows.map((row) => Number(row.seq))).toEqual([1, 2, 3, 4, 5])
    expect(await verify()).toMatchObject({ valid: true, events_checked: 5, head_seq: 5 })
  })

  it("walks a long log a page at a time, and finds an edit on a later page", async () => {
    // One statement of 1,500 rows, as a group commit inserts many: each row chained after the last.
    await app.query(`INSERT INTO audit_events (company_id, occurred_at, action, outcome, status, principal_type, via, details)
      SELECT $1, now(), 'bulk', 'ok', 200, 'operator', 'engine', jsonb_build_object('n', n) FROM generate_series(1, 1500) AS n`,
    [company.companyId])
    expect(await verify()).toMatchObject({ valid: true, events_checked: 1504, head_seq: 1504 })
    await tamper(`UPDATE audit_events SET details = '{"n": 0}' WHERE company_id = $1 AND seq = 1200`, [company.companyId])
    expect(await verify()).toMatchObject({ valid: false, events_checked: 1199, first_broken_seq: 1200, problem: "hash_mismatch" })
  })

  it("detects an event's details changed in place", async () => {
    await tamper(`UPDATE audit_events SET details = '{"role":"owner"}' WHERE company_id = $1 AND seq = 3`, [company.companyId])
    expect(await verify()).toMatchObject({ valid: false, events_checked: 2, first_broken_seq: 3, problem: "hash_mismatch" })
  })

  it("detects any column changed, the time included", async () => {
    await tamper(`UPDATE audit_events SET occurred_at = occurred_at + interval '1 microsecond' WHERE company_id = $1 AND seq = 2`,
      [company.companyId])
    expect(await verify()).toMatchObject({ valid: false, first_broken_seq: 2, problem: "hash_mismatch" })
  })

  it("detects an event changed and rehashed: its successor no longer follows", async () => {
    await tamper(`UPDATE audit_events SET action = 'forged' WHERE company_id = $1 AND seq = 2`, [company.companyId])
    await tamper(`UPDATE audit_events e SET hash = ledger_audit_hash(e, e.seq, e.prev_hash) WHERE company_id = $1 AND seq = 2`, [company.companyId])
    expect(await verify()).toMatchObject({ valid: false, first_broken_seq: 3, problem: "link_broken" })
  })

  it("detects a deleted event as a gap in the sequence", async () => {
    await tamper(`DELETE FROM audit_events WHERE company_id = $1 AND seq = 2`, [company.companyId])
    expect(await verify()).toMatchObject({ valid: false, events_checked: 1, first_broken_seq: 2, problem: "sequence_gap" })
  })

  it("detects the last events cut off, and an event added past the head", async () => {
    await tamper(`DELETE FROM audit_events WHERE company_id = $1 AND seq = 4`, [company.companyId])
    expect(await verify()).toMatchObject({ valid: false, first_broken_seq: 4, problem: "head_mismatch" })
    await tamper(`INSERT INTO audit_events SELECT company_id, nextval('ledger_ids'), occurred_at, 'forged', outcome, status, error_type,
        principal_type, principal_id, principal_name, key_id, agent_model, agent_run_id, target_type, target_id, reason, via,
        details, 4, hash, hash FROM audit_events WHERE company_id = $1 AND seq = 3`, [company.companyId])
    // The trigger that chains inserts was on: the forged row was numbered 5 and the head moved with it.
    const rows = await events()
    expect(rows.map((row) => Number(row.seq))).toEqual([1, 2, 3, 5])
    await app.query(`ALTER TABLE audit_events DISABLE TRIGGER audit_events_chained`)
    try {
      await app.query(`INSERT INTO audit_events SELECT company_id, nextval('ledger_ids'), occurred_at, 'forged', outcome, status,
          error_type, principal_type, principal_id, principal_name, key_id, agent_model, agent_run_id, target_type, target_id, reason,
          via, details, 6, hash, hash FROM audit_events WHERE company_id = $1 AND seq = 5`, [company.companyId])
    } finally {
      await app.query(`ALTER TABLE audit_events ENABLE TRIGGER audit_events_chained`)
    }
    expect(await verify()).toMatchObject({ valid: false, first_broken_seq: 4, problem: "sequence_gap" })
  })

  it("detects an event appended past the head with its trigger off", async () => {
    await app.query(`ALTER TABLE audit_events DISABLE TRIGGER audit_events_chained`)
    try {
      await app.query(`INSERT INTO audit_events SELECT company_id, nextval('ledger_ids'), occurred_at, 'forged', outcome, status,
          error_type, principal_type, principal_id, principal_name, key_id, agent_model, agent_run_id, target_type, target_id, reason,
          via, details, 5, hash, hash FROM audit_events WHERE company_id = $1 AND seq = 4`, [company.companyId])
    } finally {
      await app.query(`ALTER TABLE audit_events ENABLE TRIGGER audit_events_chained`)
    }
    expect(await verify()).toMatchObject({ valid: false, first_broken_seq: 5, problem: "head_mismatch" })
  })

  it("a head recorded outside the database catches a chain rewritten consistently", async () => {
    const head = await app.call("GET", `/v1/operator/companies/${company.companyId}/audit-head`, { token: app.operatorToken })
    expect(head.status).toBe(200)
    expect(head.body).toMatchObject({ company_id: company.companyId, head_seq: 4 })
    expect(head.body.head_hash).toMatch(/^[0-9a-f]{64}$/)
    expect(Date.parse(head.body.as_of)).not.toBeNaN()
    const anchor = `?anchor_seq=4&anchor_hash=${head.body.head_hash}`
    expect(await verify(anchor)).toMatchObject({ valid: true, problem: null })
    // The log grows past the anchor: still valid.
    await app.call("POST", "/v1/company/fiscal-year", { token: company.ownerKey, key: newKey(), body: { start_month: 4, reason: "April" } })
    expect(await verify(anchor)).toMatchObject({ valid: true, head_seq: 5 })

    // Someone with the database rewrites event 2 and rehashes every event after it and the head:
    // the chain alone holds; the anchor does not.
    await tamper(`DO $$
      DECLARE
        e audit_events;
        previous text;
      BEGIN
        FOR e IN SELECT * FROM audit_events WHERE company_id = '${company.companyId}' AND seq >= 2 ORDER BY seq LOOP
          IF e.seq = 2 THEN e.details := '{"forged": true}'; ELSE e.prev_hash := previous; END IF;
          e.hash := ledger_audit_hash(e, e.seq, e.prev_hash);
          previous := e.hash;
          UPDATE audit_events SET details = e.details, prev_hash = e.prev_hash, hash = e.hash WHERE company_id = e.company_id AND id = e.id;
        END LOOP;
      END $$`)
    const rewritten = await events()
    await setHead(5, rewritten.at(-1)!.hash)
    expect(await verify()).toMatchObject({ valid: true, head_seq: 5 })
    expect(await verify(anchor)).toMatchObject({ valid: false, first_broken_seq: 4, problem: "anchor_mismatch" })

    // A log cut back before the anchor, its head moved back to match.
    await tamper(`DELETE FROM audit_events WHERE company_id = $1 AND seq > 3`, [company.companyId])
    await setHead(3, rewritten[2]!.hash)
    expect(await verify()).toMatchObject({ valid: true, head_seq: 3 })
    expect(await verify(anchor)).toMatchObject({ valid: false, first_broken_seq: 4, problem: "anchor_mismatch" })
  })

  it("answers half an anchor 400, the head only to the operator, an unknown company 404", async () => {
    expect((await app.call("GET", "/v1/audit/verify?anchor_seq=3", { token: company.ownerKey })).status).toBe(400)
    expect((await app.call("GET", `/v1/audit/verify?anchor_seq=3&anchor_hash=${"0".repeat(63)}`, { token: company.ownerKey })).status)
      .toBe(400)
    expect((await app.call("GET", `/v1/operator/companies/${company.companyId}/audit-head`, { token: company.ownerKey })).status)
      .toBe(401)
    const unknown = "00000000-0000-4000-8000-000000000000"
    expect((await app.call("GET", `/v1/operator/companies/${unknown}/audit-head`, { token: app.operatorToken })).status).toBe(404)
  })
})

describe("migration 0049", () => {
  it("chains the events written before it, per company in id order, and the next insert follows", async () => {
    const [first, second] = ["00000000-0000-4000-8000-0000000049a1", "00000000-0000-4000-8000-0000000049a2"]
    const { value } = await inMigratedSchema(app, 48, ({ apply, sql }) =>
      Effect.gen(function*() {
        // Ids out of company order, as the shared id sequence hands them out.
        for (const [id, company] of [[905, second], [901, first], [903, first], [902, second], [904, first]] as const) {
          yield* sql.unsafe(`INSERT INTO audit_events (company_id, id, occurred_at, action, outcome, status, principal_type, via, details)
            VALUES ('${company}', ${id}, '2026-01-02T03:04:05.678901Z', 'old', 'ok', 200, 'user', 'http', '{"id": ${id}}')`)
        }
        yield* apply(49)
        yield* sql.unsafe(`INSERT INTO audit_events (company_id, occurred_at, action, outcome, status, principal_type, via)
          VALUES ('${first}', now(), 'new', 'ok', 200, 'user', 'http')`)
        const events = yield* sql.unsafe<{ company_id: string; id: string; seq: string; linked: boolean; hashed: boolean }>(`
          SELECT company_id, id, seq,
            prev_hash = coalesce(lag(hash) OVER (PARTITION BY company_id ORDER BY seq), repeat('0', 64)) AS linked,
            hash = ledger_audit_hash(e, e.seq, e.prev_hash) AS hashed
          FROM audit_events e ORDER BY company_id, seq`)
        const heads = yield* sql.unsafe<{ company_id: string; seq: string; last: boolean }>(`
          SELECT h.company_id, h.seq, h.hash = (SELECT hash FROM audit_events e WHERE e.company_id = h.company_id AND e.seq = h.seq) AS last
          FROM audit_chain_heads h ORDER BY h.company_id`)
        return { events, heads }
      }))
    expect(value.events.map((event) => [event.company_id, Number(event.id), Number(event.seq)])).toEqual([
      [first, 901, 1], [first, 903, 2], [first, 904, 3], [first, expect.any(Number), 4], [second, 902, 1], [second, 905, 2]
    ])
    for (const event of value.events) expect(event).toMatchObject({ linked: true, hashed: true })
    expect(value.heads.map((head) => [head.company_id, Number(head.seq), head.last])).toEqual([[first, 4, true], [second, 2, true]])
  })
})
