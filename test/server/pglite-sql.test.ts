import { Effect, ManagedRuntime } from "effect"
import { SqlClient } from "effect/sql"
import fc from "fast-check"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { Storage } from "@ledger/server"

/**
 * The embedded store's SQL driver (server PgliteSql.ts) below the engine: a statement with text
 * parameters is prepared once, and later executions reuse the description of its rows read when
 * it was prepared. Whatever the tests' DATABASE_URL, this is the PGlite driver.
 */

let runtime: ManagedRuntime.ManagedRuntime<SqlClient.SqlClient, unknown>
const run = <A>(effect: Effect.Effect<A, unknown, SqlClient.SqlClient>) => runtime.runPromise(effect)
const query = <Row extends object = Record<string, unknown>>(text: string, params: ReadonlyArray<unknown> = []) =>
  run(Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    return yield* sql.unsafe<Row>(text, params)
  }))
const values = (text: string, params: ReadonlyArray<unknown> = []) =>
  run(Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    return yield* sql.unsafe(text, params).values
  }))

beforeAll(async () => {
  runtime = ManagedRuntime.make(Storage.client({ dataDir: "memory" }))
  await query("CREATE TABLE things (id int PRIMARY KEY, name text, flag boolean, amount_cents bigint)")
})
afterAll(() => runtime.dispose())

describe("PGlite statements with parameters", () => {
  it("answer the same rows, names and types on their first and every later execution", async () => {
    await query("INSERT INTO things VALUES (1, 'one', true, 100), (2, NULL, false, -5)")
    const text = "SELECT id, name, flag, amount_cents, $1::text AS echoed FROM things WHERE id >= $2 ORDER BY id"
    const first = await query(text, ["a", 1])
    expect(first).toEqual([
      { id: 1, name: "one", flag: true, amount_cents: 100, echoed: "a" },
      { id: 2, name: null, flag: false, amount_cents: -5, echoed: "a" }
    ])
    expect(await query(text, ["b", 2])).toEqual([{ id: 2, name: null, flag: false, amount_cents: -5, echoed: "b" }])
    expect(await query(text, ["c", 3])).toEqual([])
    expect(await values(text, ["d", 1])).toEqual([[1, "one", true, 100, "d"], [2, null, false, -5, "d"]])
    expect(await query(text, ["e", 1])).toEqual(first.map((row) => ({ ...row, echoed: "e" })))
  })

  it("run again after an execution failed, and statements without rows run any number of times", async () => {
    const insert = "INSERT INTO things (id, name) VALUES ($1, $2)"
    expect(await query(insert, [10, "ten"])).toEqual([])
    await expect(query(insert, [10, "again"])).rejects.toThrow()
    expect(await query(insert, [11, "eleven"])).toEqual([])
    const returning = "INSERT INTO things (id, name) VALUES ($1, $2) RETURNING id, name"
    expect(await query(returning, [12, "twelve"])).toEqual([{ id: 12, name: "twelve" }])
    await expect(query(returning, [12, "twice"])).rejects.toThrow()
    expect(await query(returning, [13, "thirteen"])).toEqual([{ id: 13, name: "thirteen" }])
  })

  it("describe their rows afresh when the table changed under them", async () => {
    await query("CREATE TABLE shapes (id int PRIMARY KEY, side int)")
    await query("INSERT INTO shapes VALUES (1, 3)")
    const text = "SELECT * FROM shapes WHERE id = $1"
    expect(await query(text, [1])).toEqual([{ id: 1, side: 3 }])
    expect(await query(text, [1])).toEqual([{ id: 1, side: 3 }])
    await query("ALTER TABLE shapes ADD COLUMN colour text DEFAULT 'red'")
    expect(await query(text, [1])).toEqual([{ id: 1, side: 3, colour: "red" }])
    expect(await query(text, [1])).toEqual([{ id: 1, side: 3, colour: "red" }])
  })

  it("read what an unprepared statement reads, for any rows", async () => {
    await query("CREATE TABLE samples (id int PRIMARY KEY, label text, amount_cents bigint)")
    let next = 0
    await fc.assert(fc.asyncProperty(
      fc.array(fc.record({ label: fc.option(fc.string({ maxLength: 12 })), amount_cents: fc.bigInt({ min: -(2n ** 62n), max: 2n ** 62n }) }), { maxLength: 8 }),
      async (rows) => {
        const first = next
        for (const row of rows) {
          await query("INSERT INTO samples VALUES ($1, $2, $3)", [next++, row.label === null ? null : row.label.replace(/\u0000/g, ""), row.amount_cents])
        }
        const prepared = await query("SELECT id, label, amount_cents FROM samples WHERE id >= $1 ORDER BY id", [first])
        // No parameters: PGlite's own simple query path, with its own description of the rows.
        const unprepared = await query(`SELECT id, label, amount_cents FROM samples WHERE id >= ${first} ORDER BY id`)
        expect(prepared).toEqual(unprepared)
        expect(prepared).toHaveLength(rows.length)
      }
    ), { numRuns: 40 })
  })

  it("read every type as PGlite's own reader does, multi-byte text and NULLs too (ADR 0715)", async () => {
    await query(`CREATE TABLE kinds (id int PRIMARY KEY, label text, details jsonb, day date, at timestamptz, ratio numeric,
      blob bytea, tags text[], flag boolean, big bigint, small smallint, real_value double precision, key uuid)`)
    let next = 0
    await fc.assert(fc.asyncProperty(
      fc.record({
        label: fc.option(fc.string({ unit: "grapheme", maxLength: 16 })),
        details: fc.option(fc.jsonValue({ maxDepth: 2 })),
        day: fc.option(fc.date({ min: new Date("1900-01-01"), max: new Date("2999-12-31"), noInvalidDate: true })),
        ratio: fc.option(fc.integer({ min: -1_000_000, max: 1_000_000 })),
        blob: fc.option(fc.uint8Array({ maxLength: 8 })),
        tags: fc.option(fc.array(fc.string({ unit: "grapheme", maxLength: 6 }), { maxLength: 3 })),
        flag: fc.option(fc.boolean()),
        big: fc.option(fc.bigInt({ min: -(2n ** 62n), max: 2n ** 62n })),
        real: fc.option(fc.double({ noNaN: true, noDefaultInfinity: true }))
      }),
      async (row) => {
        const id = next++
        const clean = (text: string) => text.replace(/\u0000/g, "")
        // Values that are not text parameters go through PGlite's own path, whose serializers know them.
        await query(
          `INSERT INTO kinds VALUES ($1, $2, $3, $4::timestamptz::date, $4::timestamptz, $5::numeric / 100, $6, $7, $8, $9, $1 % 100, $10, gen_random_uuid())`,
          [
            id,
            row.label === null ? null : clean(row.label),
            row.details === null ? null : JSON.stringify(row.details, (_, value) => typeof value === "string" ? clean(value) : value),
            row.day === null ? null : row.day.toISOString(),
            row.ratio,
            row.blob,
            row.tags === null ? null : row.tags.map(clean),
            row.flag,
            row.big,
            row.real
          ]
        )
        const prepared = await query("SELECT * FROM kinds WHERE id = $1", [id])
        const unprepared = await query(`SELECT * FROM kinds WHERE id = ${id}`)
        expect(prepared).toEqual(unprepared)
        expect(await values("SELECT * FROM kinds WHERE id = $1", [id])).toEqual(unprepared.map((found) => Object.values(found)))
      }
    ), { numRuns: 60 })
  })

  it("refuse with the error PGlite's own reader gives: its code, message, detail and constraint (ADR 0715)", async () => {
    await query("CREATE TABLE unique_names (id int PRIMARY KEY, name text UNIQUE)")
    await query("INSERT INTO unique_names VALUES (1, 'taken')")
    const failure = async (statement: Promise<unknown>) => {
      try {
        await statement
      } catch (error) {
        let cause: unknown = error
        while (typeof cause === "object" && cause !== null && !("code" in cause) && "cause" in cause) cause = cause.cause
        return cause as Record<string, unknown>
      }
      throw new Error("the statement was not refused")
    }
    const fields = ["name", "message", "severity", "code", "detail", "schema", "table", "constraint"] as const
    const pick = (error: Record<string, unknown>) => Object.fromEntries(fields.map((field) => [field, error[field]]))
    const prepared = await failure(query("INSERT INTO unique_names VALUES ($1, $2)", [2, "taken"]))
    const unprepared = await failure(query("INSERT INTO unique_names VALUES (2, 'taken')"))
    expect(pick(prepared)).toEqual(pick(unprepared))
    expect(prepared).toMatchObject({ code: "23505", constraint: "unique_names_name_key" })
    expect(prepared).toBeInstanceOf(Error)
    const raised = await failure(query("DO $$ BEGIN RAISE EXCEPTION 'journal entry % does not balance', 7 USING ERRCODE = 'LD010'; END $$"))
    expect(raised).toMatchObject({ code: "LD010", message: "journal entry 7 does not balance" })
    const raisedWithParameters = await failure(query("SELECT 1 / $1::int", [0]))
    expect(raisedWithParameters).toMatchObject({ code: "22012", message: "division by zero" })
  })
})
