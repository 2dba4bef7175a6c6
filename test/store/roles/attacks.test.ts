import { PgClient } from "@effect/sql-pg"
import { Effect, ManagedRuntime, Redacted } from "effect"
import { SqlClient } from "effect/sql"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { DatabaseRoles } from "@ledger/engine"
import { makeTestApp, type TestApp } from "../../support/index.ts"
import { expectTotalsMatchLines, trialBalanceDifference } from "../../support/database.ts"

/**
 * The database enforces its own rules against a direct SQL session (issue 19 item 6, ADR 0009):
 * each attack below was committed from `psql` before migration 0032. They run as the session the
 * tests query with (PGlite's superuser, or PostgreSQL's) to show the triggers refuse them whoever
 * asks, and on PostgreSQL again as the application role, which is refused by its grants as well.
 */

type Run = (text: string, params?: ReadonlyArray<unknown>) => Promise<Array<Record<string, unknown>>>

/** The SQLSTATE of the refusal (LD0xx are Ledger's, 42501 a missing privilege), or "accepted". */
const refusal = async (attempt: Promise<unknown>): Promise<string> => {
  try {
    await attempt
    return "accepted"
  } catch (error) {
    let cause: unknown = error
    for (let depth = 0; depth < 5 && typeof cause === "object" && cause !== null; depth++) {
      const code = (cause as { code?: unknown }).code
      if (typeof code === "string") return code
      cause = (cause as { cause?: unknown }).cause
    }
    return `unknown: ${String(error)}`
  }
}

let app: TestApp
let companyId = ""
let debitAccount = 0
let creditAccount = 0
let lockedPeriod = 0
let reopenedPeriod = 0
/** Hard-locked as the engine locks: with a reason and a person's stamp, which 0032's guard took for a reopening's. */
let stampedPeriod = 0

/** An entry and its two lines in one transaction (a DO block), as a session would write them. */
const entrySql = (options: {
  readonly entryDate: string
  readonly lineDate?: string
  readonly credit: number
  readonly forgeMemo?: boolean
}) => `DO $$
DECLARE
  entry bigint := nextval('ledger_ids');
  marks text := '';
BEGIN
  INSERT INTO journal_entries (company_id, id, entry_date, total_cents, source_kind, posted_by_type, posted_at)
    VALUES ('${companyId}', entry, '${options.entryDate}', 100, 'journal_entry', 'user', now());
  INSERT INTO journal_lines (company_id, entry_id, account_id, amount_cents, entry_date, line_no) VALUES
    ('${companyId}', entry, ${debitAccount}, 100, '${options.lineDate ?? options.entryDate}', 1),
    ('${companyId}', entry, ${creditAccount}, ${-options.credit}, '${options.lineDate ?? options.entryDate}', 2);
  ${options.forgeMemo === true ? `
  -- The memo the commit check once trusted, at every statement count a transaction this short reaches.
  FOR n IN 0..4 LOOP
    marks := marks || ',${companyId}:' || entry || '@' || n || '=100,';
  END LOOP;
  PERFORM set_config('ledger.checked_entries', marks, true);` : ""}
END $$`

/** Every attack of issue 19 item 6, as `run`'s session; each must be refused. */
const attacks = (run: Run): Record<string, readonly [string, () => Promise<unknown>]> => ({
  "a forged ledger.checked_entries commits an unbalanced entry": ["LD010", () =>
    run(entrySql({ entryDate: "2001-03-15", credit: 1, forgeMemo: true }))],
  "lines dated in a hard-locked month under an entry dated in an open one": ["LD011", () =>
    run(entrySql({ entryDate: "2001-03-15", lineDate: "2001-01-15", credit: 100 }))],
  "lines dated otherwise than their entry": ["LD010", () =>
    run(entrySql({ entryDate: "2001-03-15", lineDate: "2001-03-16", credit: 100 }))],
  "an UPDATE of the daily totals": ["LD001", () =>
    run(`UPDATE account_daily_totals SET debit_cents = debit_cents + 99 WHERE company_id = $1`, [companyId])],
  "an INSERT into the monthly totals": ["LD001", () =>
    run(`INSERT INTO account_monthly_totals (company_id, account_id, month, debit_cents, credit_cents)
         VALUES ($1, $2, '2001-05-01', 99, 0)`, [companyId, debitAccount])],
  "a DELETE of the monthly totals": ["LD001", () =>
    run(`DELETE FROM account_monthly_totals WHERE company_id = $1`, [companyId])],
  "TRUNCATE journal_lines": ["LD001", () => run(`TRUNCATE journal_lines`)],
  "TRUNCATE audit_events": ["LD001", () => run(`TRUNCATE audit_events`)],
  "TRUNCATE account_daily_totals": ["LD001", () => run(`TRUNCATE account_daily_totals`)],
  "an UPDATE of the audit log's chain head (migration 0049)": ["LD001", () =>
    run(`UPDATE audit_chain_heads SET seq = 0 WHERE company_id = $1`, [companyId])],
  "a DELETE of the audit log's chain head": ["LD001", () => run(`DELETE FROM audit_chain_heads WHERE company_id = $1`, [companyId])],
  "a hard-locked period updated straight to open": ["LD011", () =>
    run(`UPDATE periods SET status = 'open' WHERE company_id = $1 AND id = $2`, [companyId, lockedPeriod])],
  "a hard-locked period reopened without a reason": ["LD011", () =>
    run(`UPDATE periods SET status = 'open', status_changed_at = now(), status_changed_by = 'user:1'
         WHERE company_id = $1 AND id = $2`, [companyId, lockedPeriod])],
  // Issue 38 item 8: the lock's own reason and stamp are not a reopening's (migration 0039).
  "a period locked with a reason and a stamp, updated straight to open": ["LD011", () =>
    run(`UPDATE periods SET status = 'open' WHERE company_id = $1 AND id = $2`, [companyId, stampedPeriod])],
  "a period locked with a reason and a stamp, reopened with a new stamp and the lock's reason": ["LD011", () =>
    run(`UPDATE periods SET status = 'open', status_changed_at = now(), status_changed_by = 'user:2'
         WHERE company_id = $1 AND id = $2`, [companyId, stampedPeriod])],
  "a hard-locked period reopened with a blank reason": ["LD011", () =>
    run(`UPDATE periods SET status = 'open', status_reason = '  ', status_changed_at = now(), status_changed_by = 'user:1'
         WHERE company_id = $1 AND id = $2`, [companyId, stampedPeriod])],
  "a hard-locked period reopened with a new reason and no stamp": ["LD011", () =>
    run(`UPDATE periods SET status = 'open', status_reason = 'late invoice', status_changed_by = NULL
         WHERE company_id = $1 AND id = $2`, [companyId, stampedPeriod])],
  ...Object.fromEntries(["agent:7", "firm_agent:7", "ai_app:7", "system", "user:", "user:1 or anyone"].map((stamp) => [
    `a hard-locked period reopened with a new reason, stamped ${stamp}`,
    ["LD011", () => run(`UPDATE periods SET status = 'open', status_reason = 'late invoice', status_changed_at = now(), status_changed_by = $3
         WHERE company_id = $1 AND id = $2`, [companyId, stampedPeriod, stamp])] as const
  ])),
  "a hard-locked period moved to soft_locked with a new reason and a person's stamp": ["LD011", () =>
    run(`UPDATE periods SET status = 'soft_locked', status_reason = 'late invoice', status_changed_at = now(), status_changed_by = 'user:1'
         WHERE company_id = $1 AND id = $2`, [companyId, stampedPeriod])],
  "a hard-locked period shortened": ["LD011", () =>
    run(`UPDATE periods SET end_date = '2001-01-10' WHERE company_id = $1 AND id = $2`, [companyId, lockedPeriod])],
  "a hard-locked period deleted": ["LD011", () =>
    run(`DELETE FROM periods WHERE company_id = $1 AND id = $2`, [companyId, lockedPeriod])]
})

/** The books after the attacks are the books before them. */
const expectBooksIntact = async () => {
  expect(await trialBalanceDifference(app, companyId)).toBe(0)
  await expectTotalsMatchLines(app, { companyId })
  const january = await app.query<{ count: string }>(
    `SELECT count(*) AS count FROM journal_lines WHERE company_id = $1 AND entry_date < '2001-02-01'`, [companyId])
  expect(Number(january[0]!.count)).toBe(0)
  const periods = await app.query<{ status: string }>(`SELECT status FROM periods WHERE company_id = $1 AND id IN ($2, $3)`,
    [companyId, lockedPeriod, stampedPeriod])
  expect(periods.map((period) => period.status)).toEqual(["hard_locked", "hard_locked"])
}

beforeAll(async () => {
  app = await makeTestApp()
  const company = await app.createCompany()
  companyId = company.companyId
  const accounts = await app.query<{ id: string }>(
    `INSERT INTO accounts (company_id, code, name, type, created_at) VALUES
       ($1, 'R6DEBIT', 'Attacks debit', 'asset', now()), ($1, 'R6CREDIT', 'Attacks credit', 'income', now())
     RETURNING id`, [companyId])
  debitAccount = Number(accounts[0]!.id)
  creditAccount = Number(accounts[1]!.id)
  const periods = await app.query<{ id: string }>(
    `INSERT INTO periods (company_id, start_date, end_date, status, created_at) VALUES
       ($1, '2001-01-01', '2001-01-31', 'hard_locked', now()), ($1, '2002-02-01', '2002-02-28', 'hard_locked', now())
     RETURNING id`, [companyId])
  lockedPeriod = Number(periods[0]!.id)
  reopenedPeriod = Number(periods[1]!.id)
  const stamped = await app.query<{ id: string }>(
    `INSERT INTO periods (company_id, start_date, end_date, status, status_reason, status_changed_at, status_changed_by, created_at)
       VALUES ($1, '2003-03-01', '2003-03-31', 'hard_locked', 'Year end', now(), 'user:1', now()) RETURNING id`, [companyId])
  stampedPeriod = Number(stamped[0]!.id)
  // A sound entry through the triggers: totals rows for the attacks on them to find.
  await app.query(entrySql({ entryDate: "2001-03-15", credit: 100 }))
}, 180_000)
afterAll(() => app?.close())

describe("a direct SQL session", () => {
  it("still commits a sound entry, with its totals", async () => {
    await app.query(entrySql({ entryDate: "2001-03-20", credit: 100 }))
    await expectBooksIntact()
  })

  for (const [name, [code, attack]] of Object.entries(attacks((text, params) => app.query(text, params)))) {
    it(`is refused: ${name}`, async () => {
      expect(await refusal(attack())).toBe(code)
      await expectBooksIntact()
    })
  }

  it("reopens a hard lock as the spec does: to open, with a reason, stamped by a principal", async () => {
    await app.query(
      `UPDATE periods SET status = 'open', status_reason = 'late invoice', status_changed_at = now(),
         status_changed_by = 'user:1' WHERE company_id = $1 AND id = $2`, [companyId, reopenedPeriod])
    const rows = await app.query<{ status: string }>(`SELECT status FROM periods WHERE id = $1`, [reopenedPeriod])
    expect(rows[0]!.status).toBe("open")
  })

  it("reopens a lock that had a reason and a stamp when the statement carries its own reason and a person's id", async () => {
    const [period] = await app.query<{ id: string }>(
      `INSERT INTO periods (company_id, start_date, end_date, status, status_reason, status_changed_at, status_changed_by, created_at)
         VALUES ($1, '2004-04-01', '2004-04-30', 'hard_locked', 'Year end', now(), 'user:1', now()) RETURNING id`, [companyId])
    await app.query(
      `UPDATE periods SET status = 'open', status_reason = 'Audit adjustment', status_changed_at = now(),
         status_changed_by = 'firm_member:3' WHERE company_id = $1 AND id = $2`, [companyId, period!.id])
    const rows = await app.query<{ status: string }>(`SELECT status FROM periods WHERE id = $1`, [period!.id])
    expect(rows[0]!.status).toBe("open")
  })
})

const databaseUrl = process.env.DATABASE_URL === "" ? undefined : process.env.DATABASE_URL

describe.skipIf(databaseUrl === undefined)("the application role on PostgreSQL", () => {
  const role = "ledger_test_app"
  let runtime: ManagedRuntime.ManagedRuntime<SqlClient.SqlClient, unknown> | undefined
  const asApp: Run = (text, params = []) =>
    runtime!.runPromise(Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      return (yield* sql.unsafe(text, params)) as never
    }))

  beforeAll(async () => {
    // A login role for the test (trust authentication); `ledger migrate` makes it NOLOGIN.
    await app.query(`DO $$ BEGIN
      IF NOT EXISTS (SELECT FROM pg_roles WHERE rolname = '${role}') THEN CREATE ROLE ${role} LOGIN; END IF;
    END $$`)
    await app.query(DatabaseRoles.grantStatement(role))
    const [schema] = await app.query<{ name: string }>(`SELECT current_schema() AS name`)
    const url = new URL(databaseUrl!)
    url.username = role
    url.password = ""
    runtime = ManagedRuntime.make(PgClient.layer({
      url: Redacted.make(url.toString()),
      maxConnections: 2,
      startupParameters: { search_path: schema!.name }
    }))
  }, 60_000)
  afterAll(() => runtime?.dispose())

  it("posts a sound entry and reads the books", async () => {
    await asApp(entrySql({ entryDate: "2001-03-25", credit: 100 }))
    const rows = await asApp(`SELECT count(*) AS count FROM journal_entries WHERE company_id = $1`, [companyId])
    expect(Number(rows[0]!.count)).toBeGreaterThan(0)
    await expectBooksIntact()
  })

  it("has its own INSERT into the audit log chained: the seq and hash it states are replaced", async () => {
    await asApp(`INSERT INTO audit_events (company_id, occurred_at, action, outcome, status, principal_type, via, seq, prev_hash, hash)
      VALUES ($1, now(), 'direct', 'ok', 200, 'operator', 'engine', 1, 'forged', 'forged')`, [companyId])
    const rows = await asApp(`SELECT e.seq, e.hash = h.hash AS is_head, e.hash = ledger_audit_hash(e, e.seq, e.prev_hash) AS hashed
      FROM audit_events e JOIN audit_chain_heads h USING (company_id) WHERE e.company_id = $1 AND e.action = 'direct'`, [companyId])
    expect(rows).toHaveLength(1)
    expect(Number(rows[0]!.seq)).toBeGreaterThan(1)
    expect(rows[0]).toMatchObject({ is_head: true, hashed: true })
  })

  for (const [name, [code, attack]] of Object.entries(attacks(asApp))) {
    it(`is refused: ${name}`, async () => {
      // By a trigger, or earlier by a privilege the role lacks (DELETE of totals, TRUNCATE).
      expect([code, "42501"]).toContain(await refusal(attack()))
      await expectBooksIntact()
    })
  }

  const privileged: Record<string, string> = {
    "UPDATE of a posted line": `UPDATE journal_lines SET amount_cents = amount_cents + 1`,
    "DELETE from the audit log": `DELETE FROM audit_events`,
    "turning the triggers off": `ALTER TABLE journal_lines DISABLE TRIGGER ALL`,
    "dropping a trigger": `DROP TRIGGER journal_lines_period ON journal_lines`,
    "creating a table": `CREATE TABLE attack_table (a int)`,
    "replica mode, which skips triggers": `SET session_replication_role = replica`,
    "recording a migration": `INSERT INTO ledger_migrations (id, name) VALUES (9999, 'attack')`
  }
  for (const [name, text] of Object.entries(privileged)) {
    it(`is refused by its grants: ${name}`, async () => {
      // 42501: insufficient privilege, as is "must be owner" of ALTER and DROP.
      expect(await refusal(asApp(text))).toBe("42501")
    })
  }
})
