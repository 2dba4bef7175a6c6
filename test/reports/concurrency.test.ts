import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { makeTestApp, type TestApp } from "../support/index.ts"
import { type Line, post, report } from "./support.ts"

/**
 * Many postings at once to the same few accounts, on different days of the same months, in both
 * line orders: the month rows the roll-up trigger writes are locked in account order like the day
 * rows, so nothing deadlocks, and afterwards every month row equals its days and the trial
 * balance equals the postings.
 */

let app: TestApp
beforeAll(async () => {
  app = await makeTestApp({ clock: "2026-06-30T12:00:00Z" })
})
afterAll(() => app.close())

describe("monthly totals under concurrent postings", () => {
  it("stay equal to the daily totals, with no posting refused", async () => {
    const company = await app.createCompany({ name: "Busy Till", starter_chart: "general" })
    const pairs = [["1010", "4000"], ["4000", "1010"], ["1010", "1400"], ["1400", "4000"], ["6080", "1010"]] as const
    const postings = Array.from({ length: 60 }, (_, index) => {
      const [first, second] = pairs[index % pairs.length]!
      const cents = 1_000 + index
      const lines: Array<Line> = index % 2 === 0
        ? [{ account: first, debit_cents: cents }, { account: second, credit_cents: cents }]
        : [{ account: second, credit_cents: cents }, { account: first, debit_cents: cents }]
      return { date: `2026-0${1 + (index % 5)}-${String(1 + (index % 28)).padStart(2, "0")}`, lines, cents, first, second }
    })
    await Promise.all(postings.map((posting, index) => post(app, company.ownerKey, posting.date, `Sale ${index}`, posting.lines)))

    const mismatches = await app.query(
      `SELECT m.account_id, m.month FROM account_monthly_totals m
       LEFT JOIN (SELECT account_id, date_trunc('month', day::timestamp)::date AS month, sum(debit_cents) AS debit, sum(credit_cents) AS credit
                  FROM account_daily_totals WHERE company_id = $1 GROUP BY 1, 2) d
         ON d.account_id = m.account_id AND d.month = m.month
       WHERE m.company_id = $1 AND (d.debit IS DISTINCT FROM m.debit_cents OR d.credit IS DISTINCT FROM m.credit_cents)`,
      [company.companyId]
    )
    expect(mismatches).toEqual([])

    const expected: Record<string, number> = {}
    for (const posting of postings) {
      expected[posting.first] = (expected[posting.first] ?? 0) + posting.cents
      expected[posting.second] = (expected[posting.second] ?? 0) - posting.cents
    }
    const trialBalance = await report(app, company.ownerKey, "trial-balance")
    expect(Object.fromEntries(trialBalance.rows.map((row: any) => [row.code, row.debit_cents - row.credit_cents]))).toEqual(
      Object.fromEntries(Object.entries(expected).filter(([, net]) => net !== 0).sort(([left], [right]) => (left < right ? -1 : 1)))
    )
  })
})
