import { newKey, type TestApp, type TestCompany } from "../support/app.ts"

/** A company with a customer, a vendor and a three-jurisdiction combined sales tax rate. */
export interface SalesCompany extends TestCompany {
  readonly customerId: number
  readonly vendorId: number
  readonly combinedRateId: number
  readonly stateRateId: number
  /** POST with a fresh key as the owner; returns status and body. */
  readonly post: (path: string, body: unknown, token?: string, headers?: Record<string, string>) => Promise<{ status: number; body: any }>
  readonly get: (path: string, token?: string) => Promise<{ status: number; body: any }>
}

export const salesCompany = async (app: TestApp, name = "Sales Co"): Promise<SalesCompany> => {
  const company = await app.createCompany({ name })
  const post = async (path: string, body: unknown, token = company.ownerKey, headers: Record<string, string> = {}) => {
    const result = await app.call("POST", path, { token, key: newKey(), body, headers })
    return { status: result.status, body: result.body }
  }
  const get = async (path: string, token = company.ownerKey) => {
    const result = await app.call("GET", path, { token })
    return { status: result.status, body: result.body }
  }
  const ok = async (path: string, body: unknown) => {
    const result = await post(path, body)
    if (result.status !== 201) throw new Error(`${path}: ${result.status} ${JSON.stringify(result.body)}`)
    return result.body
  }
  const customer = await ok("/v1/contacts", { kind: "customer", name: "Acme Ltd", email: "ap@acme.test", terms_days: 30 })
  const vendor = await ok("/v1/contacts", { kind: "vendor", name: "Paper Supply", email: "billing@paper.test", terms_days: 15, is_1099: true })
  const state = await ok("/v1/tax-agencies", { name: "State Department of Revenue" })
  const county = await ok("/v1/tax-agencies", { name: "County Treasurer" })
  const city = await ok("/v1/tax-agencies", { name: "City Finance" })
  const stateRate = await ok("/v1/tax-rates", { name: "State", agency_id: state.id, rate_percent: "6.25", payable_account: "2200" })
  const countyRate = await ok("/v1/tax-rates", { name: "County", agency_id: county.id, rate_percent: "1.5", payable_account: "2200" })
  const cityRate = await ok("/v1/tax-rates", { name: "City", agency_id: city.id, rate_percent: "0.5", payable_account: "2200" })
  const combined = await ok("/v1/tax-rates/combined", { name: "Springfield", component_ids: [stateRate.id, countyRate.id, cityRate.id] })
  return {
    ...company,
    customerId: customer.id,
    vendorId: vendor.id,
    combinedRateId: combined.id,
    stateRateId: stateRate.id,
    post,
    get
  }
}

/** Every posted line of the company nets to zero, per account, from the journal itself. */
export const accountTotals = async (app: TestApp, companyId: string): Promise<Map<string, number>> => {
  const rows = await app.query<{ code: string; total: string | number }>(
    `SELECT a.code, sum(l.amount_cents) AS total FROM journal_lines l
     JOIN accounts a ON a.company_id = l.company_id AND a.id = l.account_id
     WHERE l.company_id = $1 GROUP BY a.code`,
    [companyId]
  )
  return new Map(rows.map((row) => [row.code, Number(row.total)]))
}

/** The trial balance from the ledger's daily totals: debits minus credits over every account. */
export const trialBalanceDifference = async (app: TestApp, companyId: string): Promise<number> => {
  const rows = await app.query<{ difference: string | number | null }>(
    `SELECT coalesce(sum(amount_cents), 0) AS difference FROM journal_lines WHERE company_id = $1`,
    [companyId]
  )
  return Number(rows[0]!.difference)
}
