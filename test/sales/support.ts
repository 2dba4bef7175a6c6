import { newKey, type TestApp, type TestCompany } from "../support/index.ts"

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

/** An agent of the company with a key: its token and the headers its writes need. */
export const agentOf = async (
  company: SalesCompany,
  options: { readonly threshold: number; readonly scopes?: ReadonlyArray<string>; readonly name?: string }
) => {
  const scopes = options.scopes ?? ["read", "propose"]
  const agent = await company.post("/v1/agents", { name: options.name ?? "Billing agent", scopes, posting_threshold_cents: options.threshold })
  if (agent.status !== 201) throw new Error(`agent: ${agent.status} ${JSON.stringify(agent.body)}`)
  const key = await company.post("/v1/keys", { principal_type: "agent", agent_id: agent.body.id, scopes })
  if (key.status !== 201) throw new Error(`agent key: ${key.status} ${JSON.stringify(key.body)}`)
  return { id: agent.body.id as number, token: key.body.secret as string, headers: { "x-agent-model": "test-model-1" } }
}

/** A person with the approve scope (an accountant) and a key. */
export const accountantOf = async (company: SalesCompany) => {
  const user = await company.post("/v1/users", { name: "Avery Accountant", role: "accountant" })
  const key = await company.post("/v1/keys", { principal_type: "user", user_id: user.body.id, scopes: ["read", "propose", "approve"] })
  if (key.status !== 201) throw new Error(`accountant key: ${key.status} ${JSON.stringify(key.body)}`)
  return { id: user.body.id as number, token: key.body.secret as string }
}

/** The parts of a raw MIME message we check: headers of the whole and each part's decoded body. */
export const mimeParts = (raw: string) => {
  const boundary = /boundary="?([^";\r\n]+)"?/i.exec(raw)?.[1]
  const headerEnd = raw.indexOf("\r\n\r\n")
  const headers = raw.slice(0, headerEnd)
  if (boundary === undefined) return { headers, parts: [] as Array<{ headers: string; body: Uint8Array; text: string }> }
  const parts = raw.split(`--${boundary}`).slice(1, -1).map((chunk) => {
    const trimmed = chunk.replace(/^\r\n/, "")
    const end = trimmed.indexOf("\r\n\r\n")
    const partHeaders = trimmed.slice(0, end)
    const content = trimmed.slice(end + 4).replace(/\r\n$/, "")
    const base64 = /content-transfer-encoding:\s*base64/i.test(partHeaders)
    const body = base64 ? Uint8Array.from(Buffer.from(content.replace(/\s+/g, ""), "base64")) : new TextEncoder().encode(content)
    return { headers: partHeaders, body, text: base64 ? "" : content }
  })
  return { headers, parts }
}
