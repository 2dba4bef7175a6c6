import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { Statistics } from "@ledger/engine"
import { makeTestApp, type TestApp } from "../support/index.ts"

/**
 * Planner statistics kept up with the tables' growth (docs/decisions/0707-planner-statistics.md):
 * without autovacuum (PGlite has none) a table is analyzed once it outgrows its last analysis.
 */

let app: TestApp
beforeAll(async () => {
  // The server's own upkeep off, so that this test alone decides when tables are analyzed.
  app = await makeTestApp({ analyzeGrownTables: false })
  await app.query("CREATE TABLE statistics_probe (id int PRIMARY KEY, filler text NOT NULL)")
})
afterAll(async () => {
  await app?.close()
})

const analyzeGrown = () => app.runtime.runPromise(Statistics.analyzeGrown())

const grow = (from: number, count: number) =>
  app.query(
    "INSERT INTO statistics_probe SELECT n, repeat('x', 200) FROM generate_series($1::int, $2::int) AS n",
    [from, from + count - 1]
  )

/** The pages on disk, and the pages its last analysis saw. */
const probe = async () => {
  const [row] = await app.query<{ pages: unknown; relpages: unknown }>(
    "SELECT pg_relation_size(oid) / 8192 AS pages, relpages FROM pg_class WHERE relname = 'statistics_probe'"
  )
  return { pages: Number(row!.pages), relpages: Number(row!.relpages) }
}

describe("planner statistics", () => {
  it("analyze a table once it outgrows its last analysis, and not before", async () => {
    // A new table, smaller than the minimum growth: left alone.
    await grow(1, 10)
    expect(await analyzeGrown()).not.toContain("statistics_probe")

    await grow(11, 3_000)
    const grown = await probe()
    expect(grown.pages).toBeGreaterThan(Statistics.growthPagesMin)
    expect(grown.relpages).toBe(0)
    expect(await analyzeGrown()).toContain("statistics_probe")
    expect((await probe()).relpages).toBe(grown.pages)

    // Nothing grew since: nothing to do.
    expect(await analyzeGrown()).not.toContain("statistics_probe")

    // Growth within the margin (doubling) is left alone; past it, analyzed again.
    await grow(3_011, 1_000)
    expect((await probe()).pages).toBeLessThan(grown.pages * Statistics.growthFactor + Statistics.growthPagesMin)
    expect(await analyzeGrown()).not.toContain("statistics_probe")
    await grow(4_011, 6_000)
    expect((await probe()).pages).toBeGreaterThan(grown.pages * Statistics.growthFactor + Statistics.growthPagesMin)
    expect(await analyzeGrown()).toContain("statistics_probe")
    const after = await probe()
    expect(after.relpages).toBe(after.pages)
  })

  it("are kept by a running server without being asked", async () => {
    const server = await makeTestApp()
    try {
      await server.query("CREATE TABLE statistics_server_probe AS SELECT n, repeat('z', 200) AS filler FROM generate_series(1, 3000) AS n")
      const relpages = async () =>
        Number((await server.query<{ relpages: unknown }>(
          "SELECT relpages FROM pg_class WHERE relname = 'statistics_server_probe'"
        ))[0]!.relpages)
      // The server looks every 5 s; give it three looks.
      const deadline = Date.now() + 15_000
      while ((await relpages()) === 0 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 250))
      expect(await relpages()).toBeGreaterThan(Statistics.growthPagesMin)
    } finally {
      await server.close()
    }
  }, 30_000)

  it("analyze at most a bounded number of tables in one pass", async () => {
    for (let index = 0; index < Statistics.tablesPerPassMax + 2; index++) {
      await app.query(`CREATE TABLE statistics_many_${index} AS SELECT n, repeat('y', 200) AS filler FROM generate_series(1, 600) AS n`)
    }
    const first = await analyzeGrown()
    expect(first).toHaveLength(Statistics.tablesPerPassMax)
    const second = await analyzeGrown()
    expect(second.length).toBeGreaterThanOrEqual(2)
    expect(second.filter((name) => first.includes(name))).toEqual([])
  })
})
