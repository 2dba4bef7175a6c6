import { Cause, Effect, Exit } from "effect"
import type { SqlClient } from "effect/sql"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { Migrations } from "@ledger/engine"
import { makeTestApp, messageChain, type TestApp } from "../support/index.ts"
import { inMigratedSchema } from "../support/migrations.ts"

/**
 * Journal lines are laid out without padding and found by a non-unique index on their entry, with
 * no primary key (ADR 0710; migration 0011 before the baselines of issue 18): the rules the
 * primary key and the old table kept still hold.
 */

let app: TestApp
beforeAll(async () => {
  app = await makeTestApp()
}, 60_000)
afterAll(() => app?.close())

const company = "00000000-0000-4000-8000-0000000000c1"

/** Posts an entry of `lines` (line number, account id, signed cents, memo) straight into the tables. */
const poster = (sql: SqlClient.SqlClient) => (id: number, date: string, lines: ReadonlyArray<readonly [number, number, number, string | null]>) => {
  const total = lines.reduce((sum, [, , cents]) => sum + (cents > 0 ? cents : 0), 0)
  return sql.unsafe(`WITH entry AS (
      INSERT INTO journal_entries (company_id, id, entry_date, total_cents, source_kind, posted_by_type, posted_at)
      VALUES ('${company}', ${id}, '${date}', ${total}, 'journal_entry', 'user', now()) RETURNING id
    )
    INSERT INTO journal_lines (company_id, entry_id, line_no, account_id, entry_date, amount_cents, memo)
    SELECT '${company}', entry.id, line.line_no, line.account_id, '${date}', line.amount_cents, line.memo
    FROM entry, json_to_recordset($1::json) AS line(line_no int, account_id bigint, amount_cents bigint, memo text)`,
    [JSON.stringify(lines.map(([lineNo, accountId, cents, memo]) => ({ line_no: lineNo, account_id: accountId, amount_cents: cents, memo })))]
  )
}

/** Runs `attempt` under a savepoint and answers its refusal's messages, or "not refused". */
const refusal = (sql: SqlClient.SqlClient) => (attempt: Effect.Effect<unknown, unknown>) =>
  Effect.gen(function*() {
    yield* sql.unsafe(`SAVEPOINT attempt`)
    const exit = yield* Effect.exit(attempt)
    yield* sql.unsafe(`ROLLBACK TO SAVEPOINT attempt`)
    if (Exit.isSuccess(exit)) return "not refused"
    return messageChain(Cause.squash(exit.cause))
  })

describe("journal lines layout (ADR 0710)", () => {
  it("lays lines out widest first, finds them by their entry, and keeps every rule of a primary key", async () => {
    // Every migration in a schema of its own, inside a transaction that is rolled back.
    const { value: found, schema } = await inMigratedSchema(app, Math.max(...Migrations.migrations.map((migration) => migration.id)), ({ sql, schema }) =>
      Effect.gen(function*() {
        // The commit checks run at the end of each statement, so that this transaction sees them.
        yield* sql.unsafe(`SET CONSTRAINTS ALL IMMEDIATE`)
        yield* sql.unsafe(`INSERT INTO companies (company_id, name, plan, starter_chart, periods, created_at)
          VALUES ('${company}', 'Layout Co', 'owned', 'empty', false, now())`)
        yield* sql.unsafe(`INSERT INTO accounts (company_id, id, code, name, type, created_at) VALUES
          ('${company}', 1, '1010', 'Bank', 'asset', now()), ('${company}', 2, '6070', 'Supplies', 'expense', now()),
          ('${company}', 3, '4000', 'Sales', 'income', now())`)
        const post = poster(sql)
        yield* post(100, "2026-03-01", [[1, 2, 1_250, "Paper"], [2, 1, -1_250, null]])
        yield* post(101, "2026-03-02", [[1, 1, 9_000, null], [2, 3, -6_000, "Design"], [3, 3, -3_000, "Hosting"]])
        const lines = `SELECT entry_id, line_no, account_id, entry_date::text AS entry_date, amount_cents::text AS amount_cents, memo,
            class_id, contact_id FROM journal_lines ORDER BY entry_id, line_no`
        const totals = `SELECT account_id, day::text AS day, debit_cents::text AS debit_cents, credit_cents::text AS credit_cents
            FROM account_daily_totals ORDER BY account_id, day`
        const posted = yield* sql.unsafe(lines)
        const totalsBefore = yield* sql.unsafe(totals)
        const columns = (yield* sql.unsafe<{ column_name: string }>(`SELECT column_name FROM information_schema.columns
            WHERE table_schema = '${schema}' AND table_name = 'journal_lines' ORDER BY ordinal_position`)).map((row) => row.column_name)
        const indexes = (yield* sql.unsafe<{ indexdef: string }>(`SELECT indexdef FROM pg_indexes
            WHERE schemaname = '${schema}' AND tablename = 'journal_lines' ORDER BY indexname`))
          .map((row) => row.indexdef.replace(`${schema}.`, ""))
        const triggers = (yield* sql.unsafe<{ tgname: string }>(`SELECT tgname FROM pg_trigger
            WHERE tgrelid = '${schema}.journal_lines'::regclass AND NOT tgisinternal ORDER BY tgname`)).map((row) => row.tgname)

        // The rules, each tried under a savepoint so that its refusal leaves the transaction usable.
        // (A line added later to a checked entry is test/ledger/invariants.test.ts's.)
        const refused = refusal(sql)
        const refusals = [
          yield* refused(post(102, "2026-03-03", [[1, 2, 500, null], [1, 1, -500, null]])),
          yield* refused(post(103, "2026-03-03", [[1, 2, 500, null], [2, 1, -499, null]])),
          yield* refused(sql.unsafe(`UPDATE journal_lines SET amount_cents = 1 WHERE entry_id = 100`)),
          yield* refused(sql.unsafe(`DELETE FROM journal_lines WHERE entry_id = 101`))
        ]
        yield* post(104, "2026-03-01", [[1, 2, 50, null], [2, 1, -50, null]])
        const totalsAfterPosting = yield* sql.unsafe(totals)
        return { posted, totalsBefore, totalsAfterPosting, columns, indexes, triggers, refusals }
      }))

    expect(found.posted).toHaveLength(5)
    expect(found.columns).toEqual([
      "company_id", "entry_id", "account_id", "amount_cents", "class_id", "contact_id", "entry_date", "line_no", "memo"
    ])
    expect(found.indexes).toEqual([
      "CREATE INDEX journal_lines_by_account ON journal_lines USING btree (company_id, account_id, entry_date)",
      "CREATE INDEX journal_lines_by_entry ON journal_lines USING btree (company_id, entry_id)"
    ])
    expect(found.triggers).toEqual([
      "journal_lines_checked", "journal_lines_immutable", "journal_lines_no_truncate", "journal_lines_period",
      "journal_lines_totals"
    ])
    expect(found.refusals[0]).toMatch(/has 2 lines but 1 line numbers/)
    expect(found.refusals[1]).toMatch(/does not balance/)
    expect(found.refusals[2]).toMatch(/append-only/)
    expect(found.refusals[3]).toMatch(/append-only/)
    // A posting adds to the totals (its day's row for accounts 1 and 2).
    const day = (rows: ReadonlyArray<any>, accountId: number) => rows.find((row) => Number(row.account_id) === accountId && row.day === "2026-03-01")
    expect(Number(day(found.totalsAfterPosting, 2).debit_cents)).toBe(Number(day(found.totalsBefore, 2).debit_cents) + 50)
    expect(Number(day(found.totalsAfterPosting, 1).credit_cents)).toBe(Number(day(found.totalsBefore, 1).credit_cents) + 50)
    expect(await app.query("SELECT 1 FROM pg_namespace WHERE nspname = $1", [schema])).toHaveLength(0)
  })

  it("finds an entry's lines through the index on its entry", async () => {
    const plan = await app.query<Record<string, string>>(
      "EXPLAIN SELECT * FROM journal_lines WHERE company_id = '00000000-0000-4000-8000-000000000001' AND entry_id = 42"
    )
    // Lines are never found by a scan of the whole table (PGlite and PostgreSQL both).
    expect(plan.map((row) => Object.values(row).join(" ")).join("\n")).toMatch(/journal_lines_by_entry/)
  })
})
