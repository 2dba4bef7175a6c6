import { afterAll, beforeAll, describe, expect, it } from "vitest"
import fc from "fast-check"
import { makeTestApp, newKey, type TestApp, type TestCompany } from "../support/index.ts"
import { propose, simpleLines } from "./support.ts"

/**
 * `GET /v1/accounts` reads its page, the company's defaults and, with `include_balances`, the
 * page's totals in one statement. Whatever the page size, the cursor and the date, every account
 * must show the balance its journal lines give as of that date, and every page the defaults.
 */

let app: TestApp
beforeAll(async () => {
  app = await makeTestApp()
})
afterAll(() => app.close())

interface Listed {
  readonly code: string
  readonly type: string
  readonly active: boolean
  readonly control: string | null
  readonly default_for: string | null
  readonly balance_cents?: number
}

interface Page {
  readonly data: ReadonlyArray<Listed>
  readonly has_more: boolean
  readonly next_cursor: string | null
  readonly defaults: { readonly income: string | null; readonly expense: string | null }
  readonly as_of?: string
}

/** Every page of the list, following the cursors, at most 200 pages. */
const allPages = async (company: TestCompany, query: string): Promise<Array<Page>> => {
  const pages: Array<Page> = []
  let cursor: string | null = null
  do {
    const result = await app.call("GET", `/v1/accounts?${query}${cursor === null ? "" : `&cursor=${cursor}`}`, { token: company.ownerKey })
    expect(result.status).toBe(200)
    pages.push(result.body)
    cursor = result.body.next_cursor
    expect(result.body.has_more).toBe(cursor !== null)
  } while (cursor !== null && pages.length < 200)
  return pages
}

/** Each account's balance as of a date, signed in its natural direction, from the journal lines themselves. */
const balancesFromLines = async (company: TestCompany, asOf: string): Promise<Record<string, number>> => {
  const rows = await app.query<{ code: string; type: string; net: string }>(
    `SELECT a.code, a.type, coalesce(sum(l.amount_cents) FILTER (WHERE l.entry_date <= $2), 0) AS net
     FROM accounts a LEFT JOIN journal_lines l ON l.company_id = a.company_id AND l.account_id = a.id
     WHERE a.company_id = $1 GROUP BY a.code, a.type`,
    [company.companyId, asOf]
  )
  const sign = (type: string) => (type === "asset" || type === "expense" ? 1 : -1)
  // Zero is 0 for every account, never -0 (the API's JSON has no negative zero).
  return Object.fromEntries(rows.map((row) => [row.code, Number(row.net) === 0 ? 0 : sign(row.type) * Number(row.net)]))
}

describe("accounts with balances, page by page", () => {
  it("shows every account once, in code order, with the balance its lines give as of any date, for any page size", async () => {
    const company = await app.createCompany({ name: "Pages Co", starter_chart: "services" })
    const periods: Array<string> = (await app.call("GET", "/v1/periods?limit=100", { token: company.ownerKey })).body.data
      .map((period: { start_date: string }) => period.start_date)
    expect(periods).toHaveLength(24)
    // One inactive account, so that lists without include_inactive leave something out.
    const retired = await app.call("POST", "/v1/accounts", {
      token: company.ownerKey,
      key: newKey(),
      body: { code: "1998", name: "Retired", type: "asset" }
    })
    expect(retired.status).toBe(201)
    const deactivated = await app.call("POST", "/v1/accounts/1998/update", { token: company.ownerKey, key: newKey(), body: { active: false } })
    expect(deactivated.status).toBe(200)
    const all = await allPages(company, "include_inactive=true&limit=1000")
    expect(all[0]!.data.filter((account) => !account.active).map((account) => account.code)).toEqual(["1998"])
    // Entries may not name AR or AP: they move only through documents and payments (ADR 0106).
    const codes = all[0]!.data.filter((account) => account.active && account.control === null).map((account) => account.code)
    const defaults = all[0]!.defaults
    expect(defaults.income).not.toBeNull()
    const dateOf = (month: number, day: number) => `${periods[month]!.slice(0, 8)}${String(day).padStart(2, "0")}`
    const posting = fc.record({
      debit: fc.constantFrom(...codes),
      credit: fc.constantFrom(...codes),
      cents: fc.integer({ min: 1, max: 1_000_000 }),
      month: fc.integer({ min: 0, max: 23 }),
      day: fc.integer({ min: 1, max: 28 })
    }).filter((entry) => entry.debit !== entry.credit)

    await fc.assert(
      fc.asyncProperty(
        fc.array(posting, { minLength: 0, maxLength: 4 }),
        fc.integer({ min: 0, max: 23 }),
        fc.integer({ min: 1, max: 28 }),
        fc.integer({ min: 1, max: 25 }),
        fc.boolean(),
        async (postings, asOfMonth, asOfDay, limit, includeInactive) => {
          for (const entry of postings) {
            const result = await propose(app, company.ownerKey, {
              entry_date: dateOf(entry.month, entry.day),
              memo: "Page test",
              lines: simpleLines(entry.debit, entry.credit, entry.cents)
            })
            expect(result.status).toBe(201)
          }
          const asOf = dateOf(asOfMonth, asOfDay)
          const pages = await allPages(company, `include_balances=true&as_of=${asOf}&limit=${limit}${includeInactive ? "&include_inactive=true" : ""}`)
          const listed = pages.flatMap((page) => page.data)
          for (const page of pages) {
            expect(page.defaults).toEqual(defaults)
            expect(page.as_of).toBe(asOf)
            expect(page.data.length).toBeLessThanOrEqual(limit)
          }
          const expectedCodes = all[0]!.data.filter((account) => includeInactive || account.active).map((account) => account.code)
          expect(listed.map((account) => account.code)).toEqual(expectedCodes)
          const expected = await balancesFromLines(company, asOf)
          expect(Object.fromEntries(listed.map((account) => [account.code, account.balance_cents])))
            .toEqual(Object.fromEntries(listed.map((account) => [account.code, expected[account.code]])))
          for (const account of listed) {
            expect(account.default_for).toBe(defaults.income === account.code ? "income" : defaults.expense === account.code ? "expense" : null)
          }
        }
      ),
      { numRuns: 12 }
    )
  })

  it("shows the defaults on a page with no account, and no balance field unless asked", async () => {
    const company = await app.createCompany({ name: "Quiet Co", starter_chart: "services" })
    const listed = (await app.call("GET", "/v1/accounts?limit=1000", { token: company.ownerKey })).body
    expect(listed.defaults.income).not.toBeNull()
    expect(listed.as_of).toBeUndefined()
    expect(listed.data.every((account: Listed) => !("balance_cents" in account))).toBe(true)

    // A cursor past the last code: the page is empty, the defaults are still the company's.
    const last = Buffer.from("zzzz").toString("base64url")
    const past = await app.call("GET", `/v1/accounts?include_balances=true&cursor=${last}`, { token: company.ownerKey })
    expect(past.status).toBe(200)
    expect(past.body).toMatchObject({ data: [], has_more: false, next_cursor: null, defaults: listed.defaults })

    // An account with no lines shows zero.
    const created = await app.call("POST", "/v1/accounts", {
      token: company.ownerKey,
      key: newKey(),
      body: { code: "1999", name: "Unused", type: "asset" }
    })
    expect(created.status).toBe(201)
    const withBalances = (await app.call("GET", "/v1/accounts?include_balances=true&limit=1000", { token: company.ownerKey })).body
    expect(withBalances.data.find((account: Listed) => account.code === "1999").balance_cents).toBe(0)
  })

  it("cuts a page by an index in byte order, not by sorting the chart (accounts_by_code_bytes)", async () => {
    const [index] = await app.query<{ indexdef: string }>(
      "SELECT indexdef FROM pg_indexes WHERE schemaname = current_schema() AND indexname = 'accounts_by_code_bytes'"
    )
    expect(index?.indexdef).toMatch(/\(company_id, code COLLATE "C"\)/)
    const plan = await app.query<Record<string, string>>(
      `EXPLAIN SELECT id, code FROM accounts WHERE company_id = '00000000-0000-4000-8000-000000000001' AND active
       AND code COLLATE "C" > '4000' ORDER BY code COLLATE "C" LIMIT 101`
    )
    expect(plan.map((row) => Object.values(row).join(" ")).join("\n")).toMatch(/accounts_by_code_bytes/)
  })
})
