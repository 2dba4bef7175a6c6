import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { connectMcp, makeTestApp, newKey, type TestApp, type TestCompany } from "../../support/index.ts"
import { propose, simpleLines } from "../support.ts"

/**
 * Each line is at most 1e15 cents, but nothing bounded a sum of lines: ten such entries put an
 * account's debits past Number.MAX_SAFE_INTEGER (ADR 0717). The posting that would pass it is
 * refused with 422 `amount_out_of_range`; a sum already past it (written before the bound: here
 * set in the totals by SQL) makes every read of it answer the same typed 422, never a 500, and
 * another company's reads are untouched.
 */

let app: TestApp
let big: TestCompany
let other: TestCompany
let bankId: number

const get = (token: string, path: string) => app.call("GET", path, { token })

const expectOutOfRange = (result: { status: number; body: any }) => {
  expect(result.status).toBe(422)
  expect(result.body.error.type).toBe("amount_out_of_range")
  expect(result.body.error.message).toContain("9,007,199,254,740,991")
}

beforeAll(async () => {
  app = await makeTestApp({ clock: "2026-11-26T09:00:00Z" })
  big = await app.createCompany({ name: "Big Ltd", starter_chart: "general" })
  other = await app.createCompany({ name: "Other Ltd", starter_chart: "general" })
  const bank = await app.call("POST", "/v1/bank-accounts", {
    token: big.ownerKey,
    key: newKey(),
    body: { name: "Operating", kind: "checking", ledger_account: "1010" }
  })
  expect(bank.status).toBe(201)
  bankId = bank.body.id
  for (let index = 0; index < 9; index++) {
    const posted = await propose(app, big.ownerKey, { entry_date: "2026-11-02", lines: simpleLines("1010", "4000", 1e15) })
    expect(posted.status).toBe(201)
  }
  const small = await propose(app, other.ownerKey, { entry_date: "2026-11-02", lines: simpleLines("1010", "3010", 12_345) })
  expect(small.status).toBe(201)
})
afterAll(async () => {
  await app.close()
})

describe("the posting bound", () => {
  it("refuses the posting that would take an account's turnover past the safe range, and reports still answer", async () => {
    const refused = await propose(app, big.ownerKey, { entry_date: "2026-11-02", lines: simpleLines("1010", "4000", 1e15) })
    expectOutOfRange(refused)
    expect(refused.body.error.details.issues.map((issue: { path: Array<unknown> }) => issue.path)).toEqual([
      ["body", "lines", 0, "account"],
      ["body", "lines", 1, "account"]
    ])
    const trialBalance = await get(big.ownerKey, "/v1/reports/trial-balance")
    expect(trialBalance.status).toBe(200)
    expect(trialBalance.body.total_debit_cents).toBe(9e15)
    expect((await get(big.ownerKey, "/v1/accounts?include_balances=true")).status).toBe(200)
    // Up to the bound still posts: 7,199,254,740,991 more cents is exactly Number.MAX_SAFE_INTEGER.
    const toTheBound = await propose(app, big.ownerKey, { entry_date: "2026-11-02", lines: simpleLines("1010", "4000", 7_199_254_740_991) })
    expect(toTheBound.status).toBe(201)
    expect((await get(big.ownerKey, "/v1/reports/balance-sheet")).status).toBe(200)
  })
})

describe("sums past the safe integer range", () => {
  beforeAll(async () => {
    // What a company could hold from before the bound: one more 1e15 entry. The database refuses
    // it now (migration 0045), so it is written as a database of before 0045 held it: with the
    // triggers off (session_replication_role, a superuser's), its totals added by hand.
    const accounts = await app.query<{ id: unknown; code: string }>(
      "SELECT id, code FROM accounts WHERE company_id = $1 AND code IN ('1010', '4000')",
      [big.companyId]
    )
    const idOf = (code: string) => Number(accounts.find((account) => account.code === code)!.id)
    const company = big.companyId.replace(/[^0-9a-f-]/g, "")
    const [debit, credit] = [idOf("1010"), idOf("4000")]
    await app.query(`DO $$
      DECLARE
        entry bigint;
      BEGIN
        SET LOCAL session_replication_role = replica;
        INSERT INTO journal_entries (company_id, entry_date, total_cents, source_kind, posted_by_type, posted_at)
          VALUES ('${company}', '2026-11-02', 1000000000000000, 'journal_entry', 'user', now()) RETURNING id INTO entry;
        INSERT INTO journal_lines (company_id, entry_id, line_no, account_id, entry_date, amount_cents) VALUES
          ('${company}', entry, 1, ${debit}, '2026-11-02', 1000000000000000),
          ('${company}', entry, 2, ${credit}, '2026-11-02', -1000000000000000);
        UPDATE account_daily_totals SET debit_cents = debit_cents + 1000000000000000
          WHERE company_id = '${company}' AND account_id = ${debit} AND day = '2026-11-02';
        UPDATE account_daily_totals SET credit_cents = credit_cents + 1000000000000000
          WHERE company_id = '${company}' AND account_id = ${credit} AND day = '2026-11-02';
        UPDATE account_monthly_totals SET debit_cents = debit_cents + 1000000000000000
          WHERE company_id = '${company}' AND account_id = ${debit} AND month = '2026-11-01';
        UPDATE account_monthly_totals SET credit_cents = credit_cents + 1000000000000000
          WHERE company_id = '${company}' AND account_id = ${credit} AND month = '2026-11-01';
        SET LOCAL session_replication_role = origin;
      END $$`)
  })

  it("the reports answer amount_out_of_range, not 500", async () => {
    for (const name of ["trial-balance", "balance-sheet", "profit-and-loss"]) {
      expectOutOfRange(await get(big.ownerKey, `/v1/reports/${name}`))
    }
    expectOutOfRange(await get(big.ownerKey, "/v1/reports/general-ledger?account=1010"))
  })

  it("accounts with balances and the bank accounts answer amount_out_of_range", async () => {
    expectOutOfRange(await get(big.ownerKey, "/v1/accounts?include_balances=true"))
    expectOutOfRange(await get(big.ownerKey, "/v1/bank-accounts"))
    expectOutOfRange(await get(big.ownerKey, `/v1/bank-accounts/${bankId}`))
    // Without balances nothing is summed: the chart still reads.
    expect((await get(big.ownerKey, "/v1/accounts")).status).toBe(200)
  })

  it("the MCP trial balance is a tool error with the same body", async () => {
    const mcp = await connectMcp(app, big.ownerKey)
    try {
      const result = await mcp.callTool({ name: "get_trial_balance", arguments: {} })
      expect(result.isError).toBe(true)
      expect((result.structuredContent as any).error.type).toBe("amount_out_of_range")
    } finally {
      await mcp.close()
    }
  })

  it("another company's reads still answer", async () => {
    const trialBalance = await get(other.ownerKey, "/v1/reports/trial-balance?as_of=2026-11-26")
    expect(trialBalance.status).toBe(200)
    expect(trialBalance.body.total_debit_cents).toBe(12_345)
    expect((await get(other.ownerKey, "/v1/reports/balance-sheet")).status).toBe(200)
    expect((await get(other.ownerKey, "/v1/reports/profit-and-loss")).status).toBe(200)
    expect((await get(other.ownerKey, "/v1/accounts?include_balances=true")).status).toBe(200)
  })
})
