import { Effect } from "effect"
import { SqlClient } from "effect/sql"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { makeTestApp, messageChain, newKey, type TestApp, type TestCompany } from "../support/index.ts"
import { propose, simpleLines, today } from "./support.ts"

/**
 * The database keeps the money rules even against SQL that bypasses the engine: entries balance
 * (checked at commit), posted rows never change, hard-locked periods take nothing.
 */

let app: TestApp
let company: TestCompany
let accountIds: Record<string, string>
beforeAll(async () => {
  app = await makeTestApp()
  company = await app.createCompany({ name: "Invariants Co" })
  const rows = await app.query<{ id: string; code: string }>(`SELECT id, code FROM accounts WHERE company_id = $1`, [company.companyId])
  accountIds = Object.fromEntries(rows.map((row) => [row.code, String(row.id)]))
})
afterAll(() => app.close())

interface RawLine {
  readonly line_no: number
  readonly account_id: number
  readonly amount_cents: number
}

/** One statement inserting an entry and its lines as given; it answers the lines' entry id. */
const entryWithLines = `WITH entry AS (
    INSERT INTO journal_entries (company_id, entry_date, total_cents, source_kind, posted_by_type, posted_at)
    VALUES ($1, $2, $3, 'journal_entry', 'user', now()) RETURNING id
  )
  INSERT INTO journal_lines (company_id, entry_id, line_no, account_id, entry_date, amount_cents)
  SELECT $1, entry.id, line.line_no, line.account_id, $2, line.amount_cents
  FROM entry, jsonb_to_recordset($4::jsonb) AS line(line_no int, account_id bigint, amount_cents bigint)
  RETURNING entry_id`

const entryParameters = (date: string, total: number, lines: ReadonlyArray<RawLine>) =>
  [company.companyId, date, total, JSON.stringify(lines)]

/** `entryWithLines`, committed on its own. */
const rawLines = (date: string, total: number, lines: ReadonlyArray<RawLine>) =>
  app.query<{ entry_id: string | number }>(entryWithLines, entryParameters(date, total, lines))

/** An entry with its lines numbered 1 to n, on accounts by code. */
const rawEntry = (date: string, amounts: ReadonlyArray<readonly [string, number]>, total: number) =>
  rawLines(date, total, amounts.map(([code, cents], index) => ({ line_no: index + 1, account_id: Number(accountIds[code]), amount_cents: cents })))

/** The database's own message for a refused statement (drivers wrap it in their error's cause). */
const refusal = async (statement: Promise<unknown>): Promise<string> => {
  try {
    await statement
  } catch (error) {
    return messageChain(error)
  }
  throw new Error("the statement was not refused")
}

const entryCount = async () =>
  Number((await app.query<{ count: string }>(`SELECT count(*) AS count FROM journal_entries WHERE company_id = $1`, [company.companyId]))[0]!.count)

describe("database invariants", () => {
  it("refuse at commit an entry whose lines do not sum to zero, or that has fewer than two lines", async () => {
    const before = await entryCount()
    expect(await refusal(rawEntry(today(), [["6070", 1000], ["1010", -999]], 1000))).toMatch(/does not balance/)
    expect(await refusal(rawEntry(today(), [["6070", 1000]], 1000))).toMatch(/at least 2/)
    expect(await refusal(rawEntry(today(), [], 1000))).toMatch(/at least 2/)
    expect(await refusal(rawEntry(today(), [["6070", 1000], ["1010", -1000]], 999))).toMatch(/states a total/)
    expect(await entryCount()).toBe(before)
    await rawEntry(today(), [["6070", 1000], ["1010", -400], ["1020", -600]], 1000)
    expect(await entryCount()).toBe(before + 1)
  })

  it("refuse at commit an entry whose line numbers repeat (ADR 0710)", async () => {
    const before = await entryCount()
    const withNumbers = (first: number, second: number, third: number) =>
      rawLines(today(), 100, [
        { line_no: first, account_id: Number(accountIds["6070"]), amount_cents: 100 },
        { line_no: second, account_id: Number(accountIds["1010"]), amount_cents: -60 },
        { line_no: third, account_id: Number(accountIds["1010"]), amount_cents: -40 }
      ])
    expect(await refusal(withNumbers(1, 2, 2))).toMatch(/has 3 lines but 2 line numbers/)
    expect(await refusal(withNumbers(1, 1, 1))).toMatch(/has 3 lines but 1 line numbers/)
    expect(await entryCount()).toBe(before)
    await withNumbers(1, 2, 3)
    expect(await entryCount()).toBe(before + 1)
  })

  it("refuse at commit a line on an account of another company, or on no account at all", async () => {
    const other = await app.createCompany({ name: "Other Invariants Co" })
    const [foreign] = await app.query<{ id: string }>(`SELECT id FROM accounts WHERE company_id = $1 LIMIT 1`, [other.companyId])
    const before = await entryCount()
    const withAccount = (accountId: number) =>
      rawLines(today(), 100, [
        { line_no: 1, account_id: accountId, amount_cents: 100 },
        { line_no: 2, account_id: Number(accountIds["1010"]), amount_cents: -100 }
      ])
    expect(await refusal(withAccount(Number(foreign!.id)))).toMatch(/not its company's/)
    expect(await refusal(withAccount(987_654_321))).toMatch(/not its company's/)
    expect(await entryCount()).toBe(before)
  })

  it("refuse a line added later to a posted entry", async () => {
    const posted = await propose(app, company.ownerKey, { entry_date: today(), lines: simpleLines("6070", "1010", 500) })
    expect(posted.status).toBe(201)
    expect(await refusal(app.query(
      `INSERT INTO journal_lines (company_id, entry_id, line_no, account_id, entry_date, amount_cents) VALUES ($1, $2, 3, $3, $4, 1)`,
      [company.companyId, posted.body.id, Number(accountIds["6070"]), today()]
    ))).toMatch(/does not balance/)
  })

  it("refuse a line added to an entry already checked in the same transaction (checks run at once)", async () => {
    const before = await entryCount()
    // With SET CONSTRAINTS ALL IMMEDIATE the entry is checked at the end of its statement; a line
    // added by a later statement of the same transaction must be checked again, not taken as
    // checked with its entry.
    const attempt = Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      yield* sql.withTransaction(Effect.gen(function*() {
        yield* sql.unsafe(`SET CONSTRAINTS ALL IMMEDIATE`)
        const [line] = yield* sql.unsafe<{ entry_id: string | number }>(entryWithLines, entryParameters(today(), 100, [
          { line_no: 1, account_id: Number(accountIds["6070"]), amount_cents: 100 },
          { line_no: 2, account_id: Number(accountIds["1010"]), amount_cents: -100 }
        ]))
        yield* sql.unsafe(
          `INSERT INTO journal_lines (company_id, entry_id, line_no, account_id, entry_date, amount_cents) VALUES ($1, $2, 3, $3, $4, 5)`,
          [company.companyId, Number(line!.entry_id), Number(accountIds["6070"]), today()]
        )
      }))
    })
    expect(await refusal(app.runtime.runPromise(attempt as Effect.Effect<void, unknown, never>))).toMatch(/does not balance/)
    expect(await entryCount()).toBe(before)
  })

  /** Statements run in order in one transaction of their own. */
  const inOneTransaction = (statements: ReadonlyArray<(previous: ReadonlyArray<{ entry_id: string | number }>) => readonly [string, ReadonlyArray<unknown>]>) =>
    app.runtime.runPromise(Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      yield* sql.withTransaction(Effect.gen(function*() {
        let previous: ReadonlyArray<{ entry_id: string | number }> = []
        for (const statement of statements) {
          const [text, parameters] = statement(previous)
          previous = yield* sql.unsafe<{ entry_id: string | number }>(text, parameters as Array<never>)
        }
      }))
    }) as Effect.Effect<void, unknown, never>)

  const addLine = (lineNo: number, code: string, cents: number) => (previous: ReadonlyArray<{ entry_id: string | number }>) =>
    [
      `INSERT INTO journal_lines (company_id, entry_id, line_no, account_id, entry_date, amount_cents) VALUES ($1, $2, $3, $4, $5, $6) RETURNING entry_id`,
      [company.companyId, Number(previous[0]!.entry_id), lineNo, Number(accountIds[code]), today(), cents]
    ] as const

  it("check at commit, not at each statement: an entry completed by a later statement of its transaction commits (ADR 0714)", async () => {
    const before = await entryCount()
    // Its first statement leaves the entry unbalanced; the statement's own check must not refuse
    // it, only leave it to the check at commit.
    await inOneTransaction([
      () => [entryWithLines, entryParameters(today(), 100, [{ line_no: 1, account_id: Number(accountIds["6070"]), amount_cents: 100 }])],
      addLine(2, "1010", -100)
    ])
    expect(await entryCount()).toBe(before + 1)
  })

  it("accept lines written before their entry in the same transaction, and refuse them when the entry then disagrees (ADR 0714)", async () => {
    const before = await entryCount()
    const [drawn] = await app.query<{ id: string }>(`SELECT nextval('ledger_ids') AS id`)
    const id = drawn!.id
    const linesFirst = (total: number) => inOneTransaction([
      () => [
        `INSERT INTO journal_lines (company_id, entry_id, line_no, account_id, entry_date, amount_cents)
         VALUES ($1, $2, 1, $3, $5, 250), ($1, $2, 2, $4, $5, -250) RETURNING entry_id`,
        [company.companyId, Number(id), Number(accountIds["6070"]), Number(accountIds["1010"]), today()]
      ],
      () => [
        `INSERT INTO journal_entries (company_id, id, entry_date, total_cents, source_kind, posted_by_type, posted_at)
         VALUES ($1, $2, $3, $4, 'journal_entry', 'user', now()) RETURNING id AS entry_id`,
        [company.companyId, Number(id), today(), total]
      ]
    ])
    expect(await refusal(linesFirst(249))).toMatch(/states a total of 249 cents but its debits are 250/)
    expect(await entryCount()).toBe(before)
    await linesFirst(250)
    expect(await entryCount()).toBe(before + 1)
  })

  it("refuse at commit an entry found sound after one statement and unbalanced by the next (ADR 0714)", async () => {
    const before = await entryCount()
    expect(await refusal(inOneTransaction([
      () => [entryWithLines, entryParameters(today(), 100, [
        { line_no: 1, account_id: Number(accountIds["6070"]), amount_cents: 100 },
        { line_no: 2, account_id: Number(accountIds["1010"]), amount_cents: -100 }
      ])],
      addLine(3, "6070", 7)
    ]))).toMatch(/does not balance/)
    expect(await entryCount()).toBe(before)
  })

  it("check every entry of a statement too large for the memo of checked entries, and refuse its one unsound entry (ADR 0714)", async () => {
    const before = await entryCount()
    // 400 entries in one statement: their memo would pass 16 KB, so none is remembered and each is
    // checked at commit.
    const manyEntries = (unbalancedAt: number | null) =>
      app.query(
        `WITH wanted AS (SELECT n FROM generate_series(1, 400) AS n),
        entries AS (
          INSERT INTO journal_entries (company_id, entry_date, total_cents, source_kind, posted_by_type, posted_at, memo)
          SELECT $1, $2, 100, 'journal_entry', 'user', now(), 'bulk ' || n FROM wanted RETURNING id, memo
        )
        INSERT INTO journal_lines (company_id, entry_id, line_no, account_id, entry_date, amount_cents)
        SELECT $1, entries.id, side.line_no, side.account_id, $2,
          CASE WHEN side.line_no = 2 AND entries.memo = 'bulk ' || $5::int THEN -99 ELSE side.amount_cents END
        FROM entries, (VALUES (1, $3::bigint, 100::bigint), (2, $4::bigint, -100::bigint)) AS side(line_no, account_id, amount_cents)`,
        [company.companyId, today(), Number(accountIds["6070"]), Number(accountIds["1010"]), unbalancedAt ?? 0]
      )
    expect(await refusal(manyEntries(397))).toMatch(/does not balance: its lines sum to 1 cents/)
    expect(await entryCount()).toBe(before)
    await manyEntries(null)
    expect(await entryCount()).toBe(before + 400)
  })

  it("refuse UPDATE and DELETE of posted entries and lines", async () => {
    const posted = await propose(app, company.ownerKey, { entry_date: today(), lines: simpleLines("6070", "1010", 700) })
    const id = posted.body.id
    expect(await refusal(app.query(`UPDATE journal_entries SET memo = 'changed' WHERE company_id = $1 AND id = $2`, [company.companyId, id]))).toMatch(/append-only/)
    expect(await refusal(app.query(`DELETE FROM journal_entries WHERE company_id = $1 AND id = $2`, [company.companyId, id]))).toMatch(/append-only/)
    expect(await refusal(app.query(`UPDATE journal_lines SET amount_cents = amount_cents * 2 WHERE company_id = $1 AND entry_id = $2`, [company.companyId, id]))).toMatch(/append-only/)
    expect(await refusal(app.query(`DELETE FROM journal_lines WHERE company_id = $1 AND entry_id = $2`, [company.companyId, id]))).toMatch(/append-only/)
    const entry = await app.call("GET", `/v1/journal-entries/${id}`, { token: company.ownerKey })
    expect(entry.body.total_cents).toBe(700)
  })

  it("refuse an entry dated in a hard-locked period, and in a soft-locked one without a reason", async () => {
    const [period] = (await app.call("GET", "/v1/periods?limit=1", { token: company.ownerKey })).body.data
    const soft = await app.call("POST", `/v1/periods/${period.id}/status`, { token: company.ownerKey, key: newKey(), body: { status: "soft_locked" } })
    expect(soft.status).toBe(200)
    expect(await refusal(rawEntry(period.start_date, [["6070", 10], ["1010", -10]], 10))).toMatch(/soft-locked/)
    await app.call("POST", `/v1/periods/${period.id}/status`, { token: company.ownerKey, key: newKey(), body: { status: "hard_locked" } })
    expect(await refusal(rawEntry(period.start_date, [["6070", 10], ["1010", -10]], 10))).toMatch(/hard-locked/)
  })

  it("keep daily totals that agree with every line, even lines written by raw SQL", async () => {
    const fromTotals = await app.query<{ account_id: string; net: string }>(
      `SELECT account_id, sum(debit_cents - credit_cents) AS net FROM account_daily_totals WHERE company_id = $1 GROUP BY account_id`,
      [company.companyId]
    )
    const fromLines = await app.query<{ account_id: string; net: string }>(
      `SELECT account_id, sum(amount_cents) AS net FROM journal_lines WHERE company_id = $1 GROUP BY account_id`,
      [company.companyId]
    )
    const normalize = (rows: ReadonlyArray<{ account_id: string; net: string }>) =>
      Object.fromEntries(rows.filter((row) => Number(row.net) !== 0).map((row) => [String(row.account_id), Number(row.net)]))
    expect(normalize(fromTotals)).toEqual(normalize(fromLines))
  })
})
