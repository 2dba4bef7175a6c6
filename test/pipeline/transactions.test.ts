import { Effect } from "effect"
import { SqlClient, SqlError } from "effect/sql"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { makeTestApp, newKey, type TestApp, type TestCompany } from "../support/index.ts"

/**
 * A write's transaction against a database that asks for it again: a serialization failure
 * (40001) or a deadlock (40P01) anywhere in it runs the whole transaction again, a few times at
 * most, and the request succeeds once, with one audit event and one idempotency record. The
 * failures are injected by a trigger that raises the SQLSTATE on its first calls (counted by a
 * sequence, which a rollback does not undo), on PGlite and on PostgreSQL alike.
 */

let app: TestApp
beforeAll(async () => {
  app = await makeTestApp()
  await app.query(`CREATE OR REPLACE FUNCTION pipeline_test_fault() RETURNS trigger LANGUAGE plpgsql AS $$
    DECLARE
      fields jsonb := to_jsonb(NEW);
      i int := 3;
    BEGIN
      -- Arguments: the sequence counting calls, how many calls fail, the SQLSTATE, then pairs of
      -- column and value the row must have for the trigger to count it.
      WHILE i < TG_NARGS LOOP
        IF fields ->> TG_ARGV[i] IS DISTINCT FROM TG_ARGV[i + 1] THEN RETURN NEW; END IF;
        i := i + 2;
      END LOOP;
      IF nextval(TG_ARGV[0]::regclass) <= TG_ARGV[1]::bigint THEN
        RAISE EXCEPTION 'fault injected by a test' USING ERRCODE = TG_ARGV[2];
      END IF;
      RETURN NEW;
    END $$`)
}, 120_000)
afterAll(() => app?.close())

let faults = 0

/** Makes the first `times` inserts into `table` of rows with `fields` fail with `sqlstate`. */
const injectFault = async (table: string, fields: Record<string, string>, times: number, sqlstate: "40001" | "40P01") => {
  const name = `pipeline_test_fault_${faults++}`
  const pairs = Object.entries(fields).flatMap(([column, value]) => [column, value])
  const args = [name, String(times), sqlstate, ...pairs].map((arg) => `'${arg.replaceAll("'", "''")}'`).join(", ")
  await app.query(`CREATE SEQUENCE ${name}`)
  await app.query(`CREATE TRIGGER ${name} BEFORE INSERT ON ${table} FOR EACH ROW EXECUTE FUNCTION pipeline_test_fault(${args})`)
  return {
    /** How many inserts met the trigger. */
    calls: async () => {
      const [row] = await app.query<{ last_value: string; is_called: boolean }>(`SELECT last_value, is_called FROM ${name}`)
      return row!.is_called ? Number(row!.last_value) : 0
    },
    remove: () => app.query(`DROP TRIGGER ${name} ON ${table}`)
  }
}

const count = async (text: string, params: ReadonlyArray<unknown>) =>
  Number((await app.query<{ count: string }>(text, params))[0]!.count)

/** What a keyed write of the company's owner left: its audit events of `action`, and its record under `key`. */
const traces = async (company: TestCompany, action: string, key: string) => ({
  auditEvents: await count(
    `SELECT count(*) AS count FROM audit_events WHERE company_id = $1 AND action = $2 AND outcome = 'ok'`,
    [company.companyId, action]
  ),
  records: await count(
    `SELECT count(*) AS count FROM idempotency_records WHERE scope = ledger_idempotency_scope($1, $2, $3)`,
    [`company:${company.companyId}`, `user:${company.ownerId}`, key]
  )
})

const createUser = (company: TestCompany, name: string, key: string) =>
  app.call("POST", "/v1/users", { token: company.ownerKey, key, body: { name, role: "staff" } })

describe("a write's transaction retried when the database asks", () => {
  it("runs again after a serialization failure in the handler's own statement, and answers once", async () => {
    const company = await app.createCompany({ name: "Serialized Co" })
    const fault = await injectFault("users", { company_id: company.companyId, name: "Retried Rita" }, 1, "40001")
    const key = newKey()
    const created = await createUser(company, "Retried Rita", key)
    expect(created.status, JSON.stringify(created.body)).toBe(201)
    expect(await fault.calls()).toBe(2)
    expect(await count(`SELECT count(*) AS count FROM users WHERE company_id = $1 AND name = 'Retried Rita'`, [company.companyId]))
      .toBe(1)
    expect(await traces(company, "createUser", key)).toEqual({ auditEvents: 1, records: 1 })
    // The record is the answer: a retry of the request replays it.
    const replay = await createUser(company, "Retried Rita", key)
    expect(replay.headers.get("idempotent-replayed")).toBe("true")
    expect(replay.body).toEqual(created.body)
    await fault.remove()
  })

  it("runs again after a deadlock in the statement that closes the write (audit event and record)", async () => {
    const company = await app.createCompany({ name: "Deadlocked Co" })
    const fault = await injectFault("audit_events", { company_id: company.companyId, action: "createUser" }, 2, "40P01")
    const key = newKey()
    const created = await createUser(company, "Dead Lock", key)
    expect(created.status, JSON.stringify(created.body)).toBe(201)
    expect(await fault.calls()).toBe(3)
    expect(await traces(company, "createUser", key)).toEqual({ auditEvents: 1, records: 1 })
    await fault.remove()
  })

  it("gives up after five attempts with a 503 to retry, having written nothing; the same key then succeeds", async () => {
    const company = await app.createCompany({ name: "Contended Co" })
    const fault = await injectFault("users", { company_id: company.companyId, name: "Busy Bea" }, 1_000, "40001")
    const key = newKey()
    const refused = await createUser(company, "Busy Bea", key)
    expect(refused.status, JSON.stringify(refused.body)).toBe(503)
    expect(refused.body.error.type).toBe("service_unavailable")
    expect(refused.headers.get("retry-after")).toBe("1")
    expect(await fault.calls()).toBe(5)
    expect(await traces(company, "createUser", key)).toEqual({ auditEvents: 0, records: 0 })
    await fault.remove()
    const created = await createUser(company, "Busy Bea", key)
    expect(created.status, JSON.stringify(created.body)).toBe(201)
    expect(await traces(company, "createUser", key)).toEqual({ auditEvents: 1, records: 1 })
  })

  it("retries a posting whose batch and first lone attempt met a serialization failure", async () => {
    const company = await app.createCompany({ name: "Batched Co", starter_chart: "general" })
    const fault = await injectFault("audit_events", { company_id: company.companyId, action: "proposeJournalEntry" }, 2, "40001")
    const key = newKey()
    const posted = await app.call("POST", "/v1/journal-entries/propose", {
      token: company.ownerKey,
      key,
      body: {
        entry_date: "2026-03-14",
        lines: [{ account: "6070", debit_cents: 1_500 }, { account: "1010", credit_cents: 1_500 }]
      }
    })
    expect(posted.status, JSON.stringify(posted.body)).toBe(201)
    expect(await count(`SELECT count(*) AS count FROM journal_entries WHERE company_id = $1`, [company.companyId])).toBe(1)
    expect(await traces(company, "proposeJournalEntry", key)).toEqual({ auditEvents: 1, records: 1 })
    await fault.remove()
  })
})

describe("database errors by their typed reason", () => {
  /** The `SqlError` a statement fails with, as the app's driver classified it. */
  const failureOf = (text: string, params: ReadonlyArray<unknown> = []) =>
    app.runtime.runPromise(Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      return yield* Effect.flip(sql.unsafe(text, params))
    }))

  it("names the unique constraint a write violated", async () => {
    const company = await app.createCompany({ name: "Unique Co" })
    const error = await failureOf(
      `INSERT INTO audit_events SELECT * FROM audit_events WHERE company_id = $1 ORDER BY id LIMIT 1`,
      [company.companyId]
    )
    expect(SqlError.isSqlError(error)).toBe(true)
    expect(error.reason._tag).toBe("UniqueViolation")
    expect((error.reason as SqlError.UniqueViolation).constraint).toBe("audit_events_pkey")
  })

  it("tells a serialization failure and a deadlock apart from other failures", async () => {
    const raising = (sqlstate: string) => `DO $$ BEGIN RAISE EXCEPTION 'raised by a test' USING ERRCODE = '${sqlstate}'; END $$`
    expect((await failureOf(raising("40001"))).reason._tag).toBe("SerializationError")
    expect((await failureOf(raising("40P01"))).reason._tag).toBe("DeadlockError")
    expect((await failureOf(raising("22012"))).reason._tag).not.toMatch(/SerializationError|DeadlockError/)
  })
})
