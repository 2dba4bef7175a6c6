import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { agentWithThreshold, makeTestApp, newKey, type TestApp, type TestCompany } from "../support/index.ts"

let app: TestApp
beforeAll(async () => {
  app = await makeTestApp()
})
afterAll(() => app.close())

const post = (company: TestCompany, path: string, body: unknown, token = company.ownerKey, headers: Record<string, string> = {}) =>
  app.call("POST", path, { token, key: newKey(), body, headers })
const get = (company: TestCompany, path: string) => app.call("GET", path, { token: company.ownerKey })

/** Three header styles of common providers' year-to-date exports, the same two employees. */
const styleA = [
  "Employee,Gross Wages,Federal Income Tax,Social Security,Medicare,State Income Tax,Net Pay,Employer Social Security,Employer Medicare,FUTA,SUTA",
  "Ada Lovelace,\"$52,000.00\",6240.00,3224.00,754.00,2080.00,\"39,702.00\",3224.00,754.00,42.00,270.00",
  "Grace Hopper,48000.00,5280.00,2976.00,696.00,1920.00,37128.00,2976.00,696.00,42.00,270.00"
].join("\n")
const styleB = [
  "Employee Name,Gross Pay,FIT,OASDI EE,Medicare EE,SIT,Net Pay,OASDI ER,Medicare ER,Federal Unemployment,State Unemployment",
  "Ada Lovelace,52000,6240,3224,754,2080,39702,3224,754,42,270",
  "Grace Hopper,48000,5280,2976,696,1920,37128,2976,696,42,270",
  "Total,100000,11520,6200,1450,4000,76830,6200,1450,84,540"
].join("\r\n")
const styleC = [
  "Name,Total Gross,Federal Withholding,Social Security Employee,Medicare Employee,State Withholding,Social Security Employer,Medicare Employer,FUTA ER,SUI ER,Department",
  "Ada Lovelace,52000.00,6240.00,3224.00,754.00,2080.00,3224.00,754.00,42.00,270.00,Research",
  "Grace Hopper,48000.00,5280.00,2976.00,696.00,1920.00,2976.00,696.00,42.00,270.00,Navy"
].join("\n")

const expectedTotals = {
  gross_wages_cents: 10_000_000,
  federal_income_tax_cents: 1_152_000,
  social_security_employee_cents: 620_000,
  medicare_employee_cents: 145_000,
  state_income_tax_cents: 400_000,
  net_pay_cents: 7_683_000,
  social_security_employer_cents: 620_000,
  medicare_employer_cents: 145_000,
  futa_cents: 8_400,
  suta_cents: 54_000,
  employee_withholding_cents: 2_317_000,
  employer_tax_cents: 827_400
}

const accounts = { wages_account: "6110", employer_tax_account: "6120", liability_account: "2300", net_pay_account: "1010" }

describe("payroll year to date", () => {
  it.each([["A", styleA], ["B", styleB], ["C", styleC]])("imports provider header style %s with the same checked totals", async (_style, csv) => {
    const company = await app.createCompany({ name: `Payroll ${_style}` })
    const dry = await post(company, "/v1/payroll/ytd", { csv, provider: `provider_${_style.toLowerCase()}`, tax_year: 2026, period_through: "2026-06-30", dry_run: true })
    expect(dry.status).toBe(200)
    expect(dry.body).toMatchObject({ dry_run: true, employee_count: 2, totals: expectedTotals })
    expect((await get(company, "/v1/payroll/ytd?year=2026")).body.imports).toHaveLength(0)
    const imported = await post(company, "/v1/payroll/ytd", { csv, provider: "provider_a", tax_year: 2026, period_through: "2026-06-30" })
    expect(imported.status).toBe(201)
    expect(imported.body).toMatchObject({ status: "imported", employee_count: 2, totals: expectedTotals })
    if (_style === "C") expect(dry.body.ignored_headers).toEqual(["Department"])
    if (_style === "B") expect(dry.body.total_row_checked).toBe(true)
  })

  it("refuses rows that do not add up, a wrong Total row, and missing columns, naming the line", async () => {
    const company = await app.createCompany({ name: "Payroll refusals" })
    const bad = styleA.replace("37128.00", "37128.01")
    const refused = await post(company, "/v1/payroll/ytd", { csv: bad, provider: "provider_a", tax_year: 2026, period_through: "2026-06-30", dry_run: true })
    expect(refused.status).toBe(422)
    expect(refused.body.error.type).toBe("payroll_totals_mismatch")
    expect(refused.body.error.details.issues[0].path).toEqual(["body", "csv", 3])
    const badTotal = styleB.replace("Total,100000", "Total,100001")
    const total = await post(company, "/v1/payroll/ytd", { csv: badTotal, provider: "provider_b", tax_year: 2026, period_through: "2026-06-30", dry_run: true })
    expect(total.body.error.type).toBe("payroll_totals_mismatch")
    const missing = await post(company, "/v1/payroll/ytd", { csv: "Employee,Hours,Total Compensation\nAda,40,100", provider: "provider_a", tax_year: 2026, period_through: "2026-06-30" })
    expect(missing.status).toBe(422)
    expect(missing.body.error.type).toBe("payroll_csv_invalid")
    expect(missing.body.error.message).toBe('Missing required columns: Gross Wages. Columns not read: "Hours", "Total Compensation".')
    expect(missing.body.error.details.ignored_headers).toEqual(["Hours", "Total Compensation"])
    const text = await post(company, "/v1/payroll/ytd", { csv: "Employee,Gross Wages\nAda,lots", provider: "provider_a", tax_year: 2026, period_through: "2026-06-30" })
    expect(text.body.error.type).toBe("payroll_csv_invalid")
    const wrongYear = await post(company, "/v1/payroll/ytd", { csv: styleA, provider: "provider_a", tax_year: 2026, period_through: "2025-12-31" })
    expect(wrongYear.status).toBe(422)
  })

  /** Issue 38 item 6: the W-2's wording, with and without Net Pay, and what Ledger did not read. */
  const w2 = [
    "Employee Name,Gross Pay,Federal Income Tax Withheld,Social Security Wages,Social Security Tax Withheld,Medicare Tax Withheld,State Income Tax,Net Pay,Employer Social Security Tax,Employer Medicare Tax,FUTA,SUTA",
    "Ada Lovelace,52000.00,6240.00,52000.00,3224.00,754.00,2080.00,39702.00,3224.00,754.00,42.00,270.00",
    "Grace Hopper,48000.00,5280.00,48000.00,2976.00,696.00,1920.00,37128.00,2976.00,696.00,42.00,270.00"
  ]
  const withoutColumn = (lines: ReadonlyArray<string>, header: string) => {
    const at = lines[0]!.split(",").indexOf(header)
    return lines.map((line) => line.split(",").filter((_, index) => index !== at).join(",")).join("\n")
  }
  const withColumn = (lines: ReadonlyArray<string>, header: string, cells: ReadonlyArray<string>) =>
    lines.map((line, index) => `${line},${index === 0 ? header : cells[index - 1]}`).join("\n")
  const dryRun = (company: TestCompany, csv: string) =>
    post(company, "/v1/payroll/ytd", { csv, provider: "w2_style", tax_year: 2026, period_through: "2026-06-30", dry_run: true })

  it("reads the W-2's wording: Social Security and Medicare, the employee's and the employer's, are withholding and taxes", async () => {
    const company = await app.createCompany({ name: "Payroll W-2 wording" })
    const checked = await dryRun(company, w2.join("\n"))
    expect(checked.status, JSON.stringify(checked.body)).toBe(200)
    expect(checked.body.totals).toEqual(expect.objectContaining(expectedTotals))
    expect(checked.body.ignored_headers).toEqual(["Social Security Wages"])
    // Without Net Pay, net pay is gross less every withholding read: never Social Security and Medicare left in.
    const noNet = await dryRun(company, withoutColumn(w2, "Net Pay"))
    expect(noNet.status, JSON.stringify(noNet.body)).toBe(200)
    expect(noNet.body.totals).toEqual(expect.objectContaining(expectedTotals))
    const imported = await post(company, "/v1/payroll/ytd", { csv: withoutColumn(w2, "Net Pay"), provider: "w2_style", tax_year: 2026, period_through: "2026-06-30" })
    expect(imported.status).toBe(201)
    const summary = await post(company, `/v1/payroll/ytd/${imported.body.id}/summary-entry`, { entry_date: "2026-06-30", ...accounts })
    expect(summary.status).toBe(201)
    expect(summary.body.entry.lines.find((line: any) => line.account === "1010").credit_cents).toBe(7_683_000)
    expect(summary.body.entry.lines.find((line: any) => line.account === "2300").credit_cents).toBe(2_317_000 + 827_400)
  })

  it("refuses a file without Net Pay whose unread columns hold amounts, and names ignored columns in any refusal", async () => {
    const company = await app.createCompany({ name: "Payroll unread columns" })
    const dues = withColumn(w2.map((line) => line.split(",").filter((_, index) => index !== 7).join(",")), "Union Dues Withheld", ["120.00", "0.00"])
    const refused = await dryRun(company, dues)
    expect(refused.status).toBe(422)
    expect(refused.body.error.type).toBe("payroll_totals_mismatch")
    expect(refused.body.error.message).toContain('"Union Dues Withheld"')
    expect(refused.body.error.details.ignored_headers).toEqual(["Social Security Wages", "Union Dues Withheld"])
    expect(refused.body.error.details.issues).toEqual([expect.objectContaining({ path: ["body", "csv", "header", "Union Dues Withheld"] })])
    // With Net Pay, the same unread column makes the rows not add up: the refusal says which columns were not read.
    const withNet = withColumn(w2.map((line, index) => index === 1 ? line.replace("39702.00", "39582.00") : line), "Union Dues Withheld", ["120.00", "0.00"])
    const mismatch = await dryRun(company, withNet)
    expect(mismatch.status).toBe(422)
    expect(mismatch.body.error.message).toBe('The file\'s amounts do not add up. Columns not read: "Social Security Wages", "Union Dues Withheld".')
    expect(mismatch.body.error.details.issues[0].path).toEqual(["body", "csv", 2])
    expect(mismatch.body.error.details.ignored_headers).toEqual(["Social Security Wages", "Union Dues Withheld"])
  })

  it("posts a balanced summary entry once, refuses a second and a double count, and a void reverses it", async () => {
    const company = await app.createCompany({ name: "Payroll summary" })
    const imported = await post(company, "/v1/payroll/ytd", { csv: styleA, provider: "provider_a", tax_year: 2026, period_through: "2026-06-30" })
    const again = await post(company, "/v1/payroll/ytd", { csv: styleA, provider: "provider_a", tax_year: 2026, period_through: "2026-06-30" })
    expect(again.status).toBe(409)
    expect(again.body.error.type).toBe("payroll_import_exists")
    const summary = await post(company, `/v1/payroll/ytd/${imported.body.id}/summary-entry`, { entry_date: "2026-06-30", ...accounts })
    expect(summary.status).toBe(201)
    const lines = summary.body.entry.lines
    const debits = lines.reduce((sum: number, line: any) => sum + (line.debit_cents ?? 0), 0)
    const credits = lines.reduce((sum: number, line: any) => sum + (line.credit_cents ?? 0), 0)
    expect(debits).toBe(10_827_400)
    expect(credits).toBe(debits)
    expect(lines.find((line: any) => line.account === "1010").credit_cents).toBe(7_683_000)
    expect(lines.find((line: any) => line.account === "2300").credit_cents).toBe(2_317_000 + 827_400)
    const second = await post(company, `/v1/payroll/ytd/${imported.body.id}/summary-entry`, { entry_date: "2026-06-30", ...accounts })
    expect(second.status).toBe(409)
    expect(second.body.error.type).toBe("payroll_summary_exists")

    const voided = await post(company, `/v1/payroll/ytd/${imported.body.id}/void`, { reason: "Wrong provider file" })
    expect(voided.status).toBe(200)
    expect(voided.body).toMatchObject({ status: "void", void_reason: "Wrong provider file" })
    expect(voided.body.void_entry_id).toBeGreaterThan(0)
    const wages = await app.query<{ total: string }>(
      `SELECT coalesce(sum(l.amount_cents),0)::text AS total FROM journal_lines l JOIN accounts a ON a.company_id = l.company_id AND a.id = l.account_id WHERE l.company_id = $1 AND a.code = '6110'`,
      [company.companyId]
    )
    expect(wages[0]!.total).toBe("0")
    expect((await post(company, `/v1/payroll/ytd/${imported.body.id}/void`, { reason: "again" })).body.error.type).toBe("already_void")

    // Wages booked paycheck by paycheck already: the summary would count them twice.
    const manual = await app.call("POST", "/v1/journal-entries/propose", {
      token: company.ownerKey, key: newKey(),
      body: { entry_date: "2026-03-31", memo: "Q1 payroll", lines: [{ account: "6110", debit_cents: 10_000_000 }, { account: "1010", credit_cents: 10_000_000 }] }
    })
    expect(manual.status).toBe(201)
    const reimport = await post(company, "/v1/payroll/ytd", { csv: styleA, provider: "provider_a", tax_year: 2026, period_through: "2026-06-30" })
    expect(reimport.status).toBe(201)
    const doubled = await post(company, `/v1/payroll/ytd/${reimport.body.id}/summary-entry`, { entry_date: "2026-06-30", ...accounts })
    expect(doubled.status).toBe(422)
    expect(doubled.body.error.type).toBe("wages_already_recorded")
    const ytd = await get(company, "/v1/payroll/ytd?year=2026")
    expect(ytd.body.imports).toHaveLength(2)
    expect(ytd.body.totals.gross_wages_cents).toBe(10_000_000)
  })

  it("follows a provider switch named by switch_id and refuses agents' writes but lets them read", async () => {
    const company = await app.createCompany({ name: "Payroll switch" })
    const first = await post(company, "/v1/payroll/ytd", { csv: styleA, provider: "provider_a", tax_year: 2026, period_through: "2026-03-31" })
    const early = await post(company, "/v1/payroll/ytd", { csv: styleB, provider: "provider_b", tax_year: 2026, period_through: "2026-03-31", switch_id: first.body.id })
    expect(early.status).toBe(422)
    const second = await post(company, "/v1/payroll/ytd", { csv: styleB, provider: "provider_b", tax_year: 2026, period_through: "2026-09-30", switch_id: first.body.id })
    expect(second.status).toBe(201)
    expect((await get(company, "/v1/payroll/ytd?year=2026")).body.totals.gross_wages_cents).toBe(20_000_000)
    const agent = await agentWithThreshold(app, company, { thresholdCents: 1_000_000, scopes: ["read", "propose", "admin"] }).catch(() => null)
    const reader = agent ?? await agentWithThreshold(app, company, { thresholdCents: 0 })
    const refused = await post(company, "/v1/payroll/ytd", { csv: styleA, provider: "provider_a", tax_year: 2025, period_through: "2025-12-31" }, reader.key, reader.headers)
    expect(refused.status).toBe(403)
    const read = await app.call("GET", "/v1/payroll/ytd?year=2026", { token: reader.key, headers: reader.headers })
    expect(read.status).toBe(200)
    expect(read.body.imports).toHaveLength(2)
  })

  it("replays a repeated import under the same Idempotency-Key instead of importing twice", async () => {
    const company = await app.createCompany({ name: "Payroll replay" })
    const key = newKey()
    const body = { csv: styleA, provider: "provider_a", tax_year: 2026, period_through: "2026-06-30" }
    const first = await app.call("POST", "/v1/payroll/ytd", { token: company.ownerKey, key, body })
    const second = await app.call("POST", "/v1/payroll/ytd", { token: company.ownerKey, key, body })
    expect(first.status).toBe(201)
    expect(second.status).toBe(201)
    expect(second.headers.get("idempotent-replayed")).toBe("true")
    expect(second.body.id).toBe(first.body.id)
    const rows = await app.query<{ count: string }>(`SELECT count(*)::text AS count FROM payroll_import_rows WHERE company_id = $1`, [company.companyId])
    expect(rows[0]!.count).toBe("2")
    const dryWithoutKey = await app.call("POST", "/v1/payroll/ytd", { token: company.ownerKey, body: { ...body, dry_run: true } })
    expect(dryWithoutKey.status).toBe(409)
    expect(dryWithoutKey.body.error.type).toBe("payroll_import_exists")
  })
})
