import { Layer } from "effect"
import { FakeInformationReturns } from "@ledger/testkit"
import { Ports as ServerPorts } from "@ledger/server/adapters"
import { makeTestApp, newKey, type TestApp } from "../support/index.ts"

/**
 * The 1099 tests' app: test/support's app with the server's token sealer over a master key for an
 * in-memory data folder (TINs are sealed) and the testkit's fake filing provider.
 */

export interface TaxFormsApp {
  readonly app: TestApp
  readonly filer: FakeInformationReturns.FakeInformationReturns
}

/** The web app's address the 1099 tests' server is configured with (LEDGER_APP_URL). */
export const appUrl = "https://books.example.test/"

export const makeTaxFormsApp = async (
  options: { readonly filer?: boolean; readonly appUrl?: string | undefined; readonly clock?: string } = {}
): Promise<TaxFormsApp> => {
  const filer = FakeInformationReturns.make()
  // The web app's address: W-9 links are mailed absolute on it.
  const ports = ServerPorts.wire({ dataDir: "memory", appUrl: "appUrl" in options ? options.appUrl : appUrl })
  const layer = options.filer === false ? ports.layer : Layer.merge(ports.layer, filer.layer)
  return { app: await makeTestApp({ providers: layer, ...(options.clock === undefined ? {} : { clock: options.clock }) }), filer }
}

export interface Company {
  readonly companyId: string
  readonly key: string
  readonly post: (path: string, body: unknown, token?: string) => Promise<{ status: number; body: any }>
  readonly get: (path: string, token?: string) => Promise<{ status: number; body: any }>
}

export const company = async (app: TestApp, name = "Tax Test Co"): Promise<Company> => {
  const made = await app.createCompany({ name })
  const key = made.ownerKey
  return {
    companyId: made.companyId,
    key,
    post: (path, body, token = key) => app.call("POST", path, { token, body, key: newKey() }),
    get: (path, token = key) => app.call("GET", path, { token })
  }
}

export const payer = {
  name: "Acme Widgets LLC",
  address1: "1 Main Street",
  city: "Springfield",
  state: "IL",
  zip: "62701",
  phone: "217-555-0100",
  tin_type: "EIN",
  tin: "12-3456789"
}

export const profile = (overrides: Record<string, unknown> = {}) => ({
  legal_name: "Jane Q Contractor",
  tax_class: "individual",
  address1: "22 Oak Lane",
  city: "Madison",
  state: "WI",
  zip: "53703",
  tin_type: "SSN",
  tin: "123-45-6789",
  ...overrides
})

/** A 1099 vendor with a tax profile. */
export const vendor = async (c: Company, name: string, withProfile: Record<string, unknown> | null = {}) => {
  const made = await c.post("/v1/contacts", { kind: "vendor", name, email: `${name.toLowerCase().replace(/\W+/g, ".")}@example.com`, is_1099: true })
  if (made.status !== 201) throw new Error(`vendor: ${JSON.stringify(made.body)}`)
  if (withProfile !== null) {
    const saved = await c.post(`/v1/vendors/${made.body.id}/tax-profile`, profile({ legal_name: name, ...withProfile }))
    if (saved.status !== 201) throw new Error(`profile: ${JSON.stringify(saved.body)}`)
  }
  return made.body.id as number
}

/** A bill of one line on `account` paid in full on `date` from `from` (1010 checking, 2100 the credit card). */
export const paidBill = async (c: Company, vendorId: number, cents: number, account: string, date: string, from = "1010") => {
  const bill = await c.post("/v1/bills", { contact_id: vendorId, doc_date: date, lines: [{ amount_cents: cents, account }] })
  if (bill.status !== 201) throw new Error(`bill: ${JSON.stringify(bill.body)}`)
  const paid = await c.post("/v1/payments/made", { contact_id: vendorId, payment_date: date, account: from, applications: [{ document_id: bill.body.id, amount_cents: cents }] })
  if (paid.status !== 201) throw new Error(`payment: ${JSON.stringify(paid.body)}`)
  return paid.body
}
