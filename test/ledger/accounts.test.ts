import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { makeTestApp, newKey, type TestApp, type TestCompany } from "../support/index.ts"
import { balances, propose, simpleLines, today } from "./support.ts"

let app: TestApp
beforeAll(async () => {
  app = await makeTestApp()
})
afterAll(() => app.close())

const update = (company: TestCompany, code: string, body: Record<string, unknown>, key: string | null = newKey()) =>
  app.call("POST", `/v1/accounts/${code}/update`, { token: company.ownerKey, ...(key === null ? {} : { key }), body })

describe("starter charts", () => {
  it("lists the four charts with their accounts and defaults", async () => {
    const company = await app.createCompany({ name: "Charts Co" })
    const charts = await app.call("GET", "/v1/starter-charts", { token: company.ownerKey })
    expect(charts.status).toBe(200)
    expect(charts.body.data.map((chart: { name: string }) => chart.name)).toEqual(["general", "services", "retail", "empty"])
    const retail = charts.body.data.find((chart: { name: string }) => chart.name === "retail")
    const subtypes = new Set(retail.accounts.map((account: { subtype: string }) => account.subtype))
    for (const needed of ["bank", "accounts_receivable", "undeposited_funds", "inventory", "accounts_payable", "credit_card",
      "sales_tax_payable", "payroll_liabilities", "owners_equity", "owners_draw", "retained_earnings", "sales", "cost_of_goods_sold"]) {
      expect(subtypes.has(needed), needed).toBe(true)
    }
    expect(retail.accounts.filter((account: { control: string | null }) => account.control !== null).map((account: any) => account.control))
      .toEqual(["ar", "ap"])
    const services = charts.body.data.find((chart: { name: string }) => chart.name === "services")
    expect(services.accounts.some((account: { subtype: string }) => account.subtype === "inventory")).toBe(false)
  })

  it("is applied at company creation with its defaults, and periods for two fiscal years", async () => {
    const company = await app.createCompany({ name: "Retail Co", starter_chart: "retail" })
    expect(company.body.setup.accounts_created).toBeGreaterThan(40)
    expect(company.body.setup.periods_created).toBe(24)
    const accounts = await app.call("GET", "/v1/accounts?limit=1000", { token: company.ownerKey })
    expect(accounts.body.data).toHaveLength(company.body.setup.accounts_created)
    expect(accounts.body.defaults).toEqual({ income: "4000", expense: "6990" })
    expect(accounts.body.data.find((account: { code: string }) => account.code === "4000").default_for).toBe("income")
    expect(accounts.body.data.find((account: { code: string }) => account.code === "1300").subtype).toBe("inventory")
    const codes = accounts.body.data.map((account: { code: string }) => account.code)
    expect(codes).toEqual([...codes].sort())
  })

  it("applies to an empty chart only (chart_not_empty), with a dry run that writes nothing", async () => {
    const company = await app.createCompany({ name: "Empty Co", starter_chart: "empty", periods: false })
    expect(company.body.setup).toMatchObject({ accounts_created: 0, periods_created: 0 })
    const preview = await app.call("POST", "/v1/accounts/starter-chart", {
      token: company.ownerKey,
      body: { template: "services", dry_run: true }
    })
    expect(preview.status).toBe(200)
    expect(preview.body.dry_run).toBe(true)
    expect((await app.call("GET", "/v1/accounts", { token: company.ownerKey })).body.data).toHaveLength(0)
    const applied = await app.call("POST", "/v1/accounts/starter-chart", {
      token: company.ownerKey,
      key: newKey(),
      body: { template: "services" }
    })
    expect(applied.status).toBe(201)
    expect(applied.body.accounts).toHaveLength(preview.body.accounts.length)
    expect(applied.body.defaults).toEqual({ income: "4000", expense: "6990" })
    const again = await app.call("POST", "/v1/accounts/starter-chart", { token: company.ownerKey, key: newKey(), body: { template: "general" } })
    expect(again.status).toBe(422)
    expect(again.body.error.type).toBe("chart_not_empty")
  })
})

describe("accounts", () => {
  let company: TestCompany
  beforeAll(async () => {
    company = await app.createCompany({ name: "Accounts Co" })
  })

  it("creates accounts and sub-accounts; a code is taken once", async () => {
    const created = await app.call("POST", "/v1/accounts", {
      token: company.ownerKey,
      key: newKey(),
      body: { code: "6300", name: "Software", type: "expense", subtype: "office_expenses" }
    })
    expect(created.status).toBe(201)
    expect(created.body).toMatchObject({ code: "6300", type: "expense", active: true, control: null, parent_code: null })
    const child = await app.call("POST", "/v1/accounts", {
      token: company.ownerKey,
      key: newKey(),
      body: { code: "6301", name: "Design tools", type: "expense", parent_code: "6300" }
    })
    expect(child.status).toBe(201)
    const duplicate = await app.call("POST", "/v1/accounts", {
      token: company.ownerKey,
      key: newKey(),
      body: { code: "6300", name: "Again", type: "expense" }
    })
    expect(duplicate.status).toBe(409)
    const wrongType = await app.call("POST", "/v1/accounts", {
      token: company.ownerKey,
      key: newKey(),
      body: { code: "1301", name: "Odd", type: "asset", parent_code: "6300" }
    })
    expect(wrongType.status).toBe(422)
    expect(wrongType.body.error.details.issues[0].path).toEqual(["body", "parent_code"])
    const badControl = await app.call("POST", "/v1/accounts", {
      token: company.ownerKey,
      key: newKey(),
      body: { code: "2001", name: "AP two", type: "asset", control: "ap" }
    })
    expect(badControl.status).toBe(422)
  })

  it("refuses to deactivate control accounts, defaults and parents with active sub-accounts", async () => {
    for (const code of ["1100", "2000", "4000", "6990", "6300"]) {
      const result = await update(company, code, { active: false, reason: "Tidy up" })
      expect(result.status, code).toBe(422)
      expect(result.body.error.type).toBe("account_protected")
    }
    expect((await update(company, "1100", { active: false })).body.error.details.protections[0].check).toBe("control_account")
    expect((await update(company, "6300", { active: false })).body.error.details.protections[0].check).toBe("active_sub_accounts")
    expect((await update(company, "6990", { active: false })).body.error.details.protections[0].check).toBe("default_account")
    expect((await update(company, "6301", { active: false, reason: "Merged" })).status).toBe(200)
    expect((await update(company, "6300", { active: false, reason: "Merged" })).status).toBe(200)
  })

  it("renames and reactivates, with dry runs and audited reasons; code, type and control never change", async () => {
    const preview = await update(company, "6300", { name: "Software and SaaS", dry_run: true }, null)
    expect(preview.status).toBe(200)
    expect(preview.body).toMatchObject({ dry_run: true, account: { name: "Software and SaaS" } })
    const child = await update(company, "6301", { active: true })
    expect(child.status).toBe(422)
    const parent = await update(company, "6300", { active: true, name: "Software and SaaS", reason: "Back in use" })
    expect(parent.status).toBe(200)
    expect(parent.body).toMatchObject({ code: "6300", name: "Software and SaaS", active: true })
    const audit = await app.query<{ reason: string }>(
      `SELECT reason FROM audit_events WHERE company_id = $1 AND action = 'updateAccount' AND target_id = '6300' ORDER BY id DESC LIMIT 1`,
      [company.companyId]
    )
    expect(audit[0]!.reason).toBe("Back in use")
    const typeChange = await update(company, "6300", { type: "asset" })
    expect(typeChange.status).toBe(400)
    await expect(app.query(`UPDATE accounts SET type = 'asset' WHERE company_id = $1 AND code = '6300'`, [company.companyId])).rejects.toThrow()
    await expect(app.query(`DELETE FROM accounts WHERE company_id = $1 AND code = '6301'`, [company.companyId])).rejects.toThrow()
  })

  it("lists inactive accounts on request and pages by code", async () => {
    const active = await app.call("GET", "/v1/accounts?limit=1000", { token: company.ownerKey })
    const all = await app.call("GET", "/v1/accounts?include_inactive=true&limit=1000", { token: company.ownerKey })
    // 6301 stays inactive; 6300 was reactivated.
    expect(all.body.data.length).toBe(active.body.data.length + 1)
    expect(all.body.data.find((account: { code: string }) => account.code === "6301").active).toBe(false)
    const codes: Array<string> = []
    let cursor: string | null = null
    do {
      const page: any = await app.call("GET", `/v1/accounts?include_inactive=true&limit=7${cursor === null ? "" : `&cursor=${cursor}`}`, {
        token: company.ownerKey
      })
      codes.push(...page.body.data.map((account: { code: string }) => account.code))
      cursor = page.body.next_cursor
    } while (cursor !== null)
    expect(codes).toEqual(all.body.data.map((account: { code: string }) => account.code))
  })

  it("sets defaults to active accounts of the right type", async () => {
    const wrong = await app.call("POST", "/v1/accounts/defaults", { token: company.ownerKey, body: { income: "6070" } })
    expect(wrong.status).toBe(422)
    const set = await app.call("POST", "/v1/accounts/defaults", { token: company.ownerKey, body: { income: "4100" } })
    expect(set.status).toBe(200)
    expect(set.body).toEqual({ income: "4100", expense: "6990" })
    expect((await update(company, "4000", { active: false, reason: "No longer default" })).status).toBe(200)
    const cleared = await app.call("POST", "/v1/accounts/defaults", { token: company.ownerKey, body: { expense: null } })
    expect(cleared.body).toEqual({ income: "4100", expense: null })
  })

  it("reports balances in each account's natural direction, as of a date", async () => {
    const yesterday = new Date(Date.now() - 86_400_000).toISOString().slice(0, 10)
    expect((await propose(app, company.ownerKey, { entry_date: yesterday, lines: simpleLines("1010", "3010", 1_000_000) })).status).toBe(201)
    expect((await propose(app, company.ownerKey, { entry_date: today(), lines: simpleLines("1400", "4100", 250_000) })).status).toBe(201)
    expect((await propose(app, company.ownerKey, { entry_date: today(), lines: simpleLines("6070", "2100", 12_345) })).status).toBe(201)
    const now = await balances(app, company.ownerKey)
    expect(now).toMatchObject({ "1010": 1_000_000, "3010": 1_000_000, "1400": 250_000, "4100": 250_000, "6070": 12_345, "2100": 12_345 })
    const before = await balances(app, company.ownerKey, yesterday)
    expect(before).toMatchObject({ "1010": 1_000_000, "1400": 0, "4100": 0 })
  })
})

describe("balances as of a date", () => {
  it("equal the lines up to that date, on the first, last and middle days of months", async () => {
    const company = await app.createCompany({ name: "As Of Co", periods: false })
    const postings: ReadonlyArray<readonly [string, number]> = [
      ["2025-12-31", 700], ["2026-01-01", 1_000], ["2026-01-10", 2_500], ["2026-01-31", 300],
      ["2026-02-01", 4_000], ["2026-02-15", 50], ["2026-03-03", 9_100]
    ]
    for (const [date, cents] of postings) {
      expect((await propose(app, company.ownerKey, { entry_date: date, lines: simpleLines("6070", "1010", cents) })).status).toBe(201)
    }
    for (const asOf of ["2025-12-30", "2025-12-31", "2026-01-09", "2026-01-10", "2026-01-31", "2026-02-01", "2026-02-14", "2026-02-28", "2026-03-02", "2026-03-31"]) {
      const expected = postings.filter(([date]) => date <= asOf).reduce((sum, [, cents]) => sum + cents, 0)
      const shown = await balances(app, company.ownerKey, asOf)
      expect(shown["6070"], asOf).toBe(expected)
      expect(shown["1010"]! + expected, asOf).toBe(0)
    }
  })
})

describe("classes", () => {
  it("creates, refuses duplicates, lists by name", async () => {
    const company = await app.createCompany({ name: "Classes Co" })
    for (const name of ["West", "East", "North"]) {
      expect((await app.call("POST", "/v1/classes", { token: company.ownerKey, key: newKey(), body: { name } })).status).toBe(201)
    }
    const duplicate = await app.call("POST", "/v1/classes", { token: company.ownerKey, key: newKey(), body: { name: "East" } })
    expect(duplicate.status).toBe(409)
    const list = await app.call("GET", "/v1/classes", { token: company.ownerKey })
    expect(list.body.data.map((item: { name: string }) => item.name)).toEqual(["East", "North", "West"])
  })
})
