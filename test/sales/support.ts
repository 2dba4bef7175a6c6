import fc from "fast-check"
import { expect } from "vitest"
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

/**
 * The steps the property tests share (properties.test.ts, control-accounts.test.ts): a payment
 * against an open invoice or bill, a credit applied, a payment or a document voided. Each picks
 * its target among what is open now, so any sequence of them is valid.
 */
export type SharedStep =
  | { readonly _tag: "payment"; readonly side: "received" | "made"; readonly pick: number; readonly extra: number; readonly part: number }
  | { readonly _tag: "applyCredit"; readonly side: "sales" | "purchases"; readonly pick: number }
  | { readonly _tag: "voidPayment"; readonly pick: number }
  | { readonly _tag: "voidDocument"; readonly pick: number }

export const sharedSteps: ReadonlyArray<fc.Arbitrary<SharedStep>> = [
  fc.record({
    _tag: fc.constant("payment" as const),
    side: fc.constantFrom("received" as const, "made" as const),
    pick: fc.nat(),
    extra: fc.integer({ min: 0, max: 5_000 }),
    part: fc.integer({ min: 1, max: 100 })
  }),
  fc.record({ _tag: fc.constant("applyCredit" as const), side: fc.constantFrom("sales" as const, "purchases" as const), pick: fc.nat() }),
  fc.record({ _tag: fc.constant("voidPayment" as const), pick: fc.nat() }),
  fc.record({ _tag: fc.constant("voidDocument" as const), pick: fc.nat() })
]

/** A payment of part of an open invoice or bill (the `pick`th), plus `extra` left unapplied. */
const pay = async (company: SalesCompany, step: Extract<SharedStep, { _tag: "payment" }>) => {
  const kind = step.side === "received" ? "invoice" : "bill"
  const open = (await company.get(`/v1/documents?kind=${kind}&status=unpaid`)).body.data
  const target = open.length === 0 ? undefined : open[step.pick % open.length]
  const applied = target === undefined ? 0 : Math.max(1, Math.floor((target.open_balance_cents * step.part) / 100))
  const amount = applied + step.extra
  if (amount === 0) return
  const result = await company.post(`/v1/payments/${step.side}`, {
    contact_id: step.side === "received" ? company.customerId : company.vendorId,
    payment_date: "2026-09-02",
    account: "1010",
    amount_cents: amount,
    applications: target === undefined ? [] : [{ document_id: target.id, amount_cents: applied }]
  })
  expect(result.status, JSON.stringify(result.body)).toBe(201)
}

/** An open credit applied, as far as it goes, to an open invoice or bill of the same side. */
const applyCredit = async (company: SalesCompany, step: Extract<SharedStep, { _tag: "applyCredit" }>) => {
  const [credit, target] = step.side === "sales" ? ["credit_memo", "invoice"] : ["vendor_credit", "bill"]
  const credits = (await company.get(`/v1/documents?kind=${credit}`)).body.data.filter((document: any) => document.open_balance_cents > 0)
  const targets = (await company.get(`/v1/documents?kind=${target}&status=unpaid`)).body.data
  if (credits.length === 0 || targets.length === 0) return
  const source = credits[step.pick % credits.length]
  const into = targets[step.pick % targets.length]
  const amount = Math.min(source.open_balance_cents, into.open_balance_cents)
  const result = await company.post(`/v1/documents/${source.id}/apply`, {
    applications: [{ document_id: into.id, amount_cents: amount }],
    applied_on: "2026-09-03"
  })
  expect(result.status).toBe(200)
}

/** Runs one shared step; an invoice or bill with applications refuses its void (409). */
export const runSharedStep = async (company: SalesCompany, step: SharedStep) => {
  switch (step._tag) {
    case "payment":
      return pay(company, step)
    case "applyCredit":
      return applyCredit(company, step)
    case "voidPayment": {
      const payments = (await company.get("/v1/payments")).body.data.filter((payment: any) => payment.status === "posted")
      if (payments.length === 0) return
      const result = await company.post(`/v1/payments/${payments[step.pick % payments.length].id}/void`, { reason: "Property test", void_date: "2026-09-04" })
      expect(result.status).toBe(200)
      return
    }
    case "voidDocument": {
      const documents = (await company.get("/v1/documents")).body.data.filter((document: any) => document.status !== "void")
      if (documents.length === 0) return
      const document = documents[step.pick % documents.length]
      const result = await company.post(`/v1/documents/${document.id}/void`, { reason: "Property test", void_date: "2026-09-04" })
      const blocked = (document.kind === "invoice" || document.kind === "bill") && document.applications.length > 0
      expect(result.status).toBe(blocked ? 409 : 200)
      return
    }
  }
}
