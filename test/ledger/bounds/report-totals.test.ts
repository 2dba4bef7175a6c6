import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { makeTestApp, type TestApp, type TestCompany } from "../../support/index.ts"
import { propose, simpleLines } from "../support.ts"

/**
 * A report's totals add many accounts (ADR 0717's addendum): two asset accounts at 5e15 cents each
 * are each within the safe range, their total (1e16) is not, and a JSON number would state it
 * rounded. The reports that show such a total answer 422 `amount_out_of_range`; what shows each
 * account alone still answers.
 */

let app: TestApp
let owner: TestCompany

beforeAll(async () => {
  app = await makeTestApp({ clock: "2026-11-26T09:00:00Z" })
  owner = await app.createCompany({ name: "Wide Ltd", starter_chart: "general" })
  for (const [debit, credit] of [["1010", "4000"], ["1020", "4900"]] as const) {
    for (let index = 0; index < 5; index++) {
      const posted = await propose(app, owner.ownerKey, { entry_date: "2026-11-02", lines: simpleLines(debit, credit, 1e15) })
      expect(posted.status).toBe(201)
    }
  }
})
afterAll(async () => {
  await app.close()
})

const get = (path: string) => app.call("GET", path, { token: owner.ownerKey })

const expectOutOfRange = (result: { status: number; body: any }) => {
  expect(result.status, JSON.stringify(result.body).slice(0, 300)).toBe(422)
  expect(result.body.error.type).toBe("amount_out_of_range")
  expect(result.body.error.message).toContain("10000000000000000")
  expect(result.body.error.details.limit_cents).toBe(Number.MAX_SAFE_INTEGER)
}

describe("totals across accounts past the safe range", () => {
  it("the trial balance, balance sheet and profit and loss answer amount_out_of_range", async () => {
    expectOutOfRange(await get("/v1/reports/trial-balance"))
    expectOutOfRange(await get("/v1/reports/balance-sheet"))
    expectOutOfRange(await get("/v1/reports/profit-and-loss?from=2026-11-01&to=2026-11-30"))
  })

  it("each account's own figures still answer", async () => {
    const accounts = await get("/v1/accounts?include_balances=true")
    expect(accounts.status).toBe(200)
    const balanceOf = (code: string) => accounts.body.data.find((account: { code: string }) => account.code === code).balance_cents
    expect(balanceOf("1010")).toBe(5e15)
    expect(balanceOf("1020")).toBe(5e15)
    expect((await get("/v1/reports/general-ledger?account=1010")).status).toBe(200)
  })
})
