import { Layer } from "effect"
import { expect } from "vitest"
import { FakePaymentProcessor } from "@ledger/testkit"
import { Ports as ServerPorts } from "@ledger/server/adapters"
import { makeTestApp, newKey, signInAs, type TestApp, type TestAppOptions, type TestCompany } from "../support/index.ts"
import { listen } from "../support/loopback.ts"

/** The web app's address the tests' deployments name (LEDGER_APP_URL), under a path. */
export const appUrl = "https://app.ledger.test/books"

export { listen }

/**
 * The online-payments tests' app: the server's ports with the testkit's fake card processor on
 * loopback HTTP, reached through the real adapter (PaymentProcessorHttp).
 */
export interface PaymentsApp {
  readonly app: TestApp
  readonly processor: FakePaymentProcessor.FakePaymentProcessor
}

export const makePaymentsApp = async (options: TestAppOptions = {}): Promise<PaymentsApp> => {
  const processor = FakePaymentProcessor.make()
  // The web app's address (LEDGER_APP_URL), with a path: the processor is handed absolute URLs under it.
  const ports = ServerPorts.wire({ dataDir: "memory", appUrl })
  const app = await makeTestApp({ ...options, providers: Layer.merge(ports.layer, processor.layer) })
  processor.endpoint(`${await listen(app)}/v1/online-payments/events`)
  return { app, processor }
}


/** POSTs one event as the processor would, over HTTP: `payload` as the body, `signature` as its header. */
export const deliver = (processor: FakePaymentProcessor.FakePaymentProcessor, event: { readonly payload: string; readonly signature: string }) =>
  processor.post({ payload: event.payload, signature: event.signature })

/** The processor sends every event it has not yet sent, signed over the raw body; each must be accepted. */
export const deliverAll = async (processor: FakePaymentProcessor.FakePaymentProcessor) => {
  const results = await processor.send()
  for (const result of results) expect(result.status, JSON.stringify(result.body)).toBe(200)
  return results
}

export const post = async (app: TestApp, token: string, path: string, body: unknown) => {
  const result = await app.call("POST", path, { token, key: newKey(), body })
  return { status: result.status, body: result.body as any }
}

export const get = async (app: TestApp, token: string, path: string) => {
  const result = await app.call("GET", path, { token })
  return { status: result.status, body: result.body as any }
}

export interface Shop extends TestCompany {
  /**
   * The owner's signed-in browser session: settings, onboarding, sync and refunds take no API key
   * (spec 4.12 "signed in", `session_required`).
   */
  readonly session: string
  readonly customerId: number
  readonly bankAccountId: number
  readonly accountId: string
}

/** A company taking online payments: onboarded at the processor, a customer, a payout bank account. */
export const onboardedShop = async ({ app, processor }: PaymentsApp, settings: Record<string, unknown> = {}): Promise<Shop> => {
  const company = await app.createCompany({ name: "Pay Shop" })
  const customer = await post(app, company.ownerKey, "/v1/contacts", { kind: "customer", name: "Acme Ltd", email: "ap@acme.test", terms_days: 30 })
  const bank = await post(app, company.ownerKey, "/v1/bank-accounts", { name: "Checking", kind: "checking", ledger_account: "1010" })
  expect(bank.status, JSON.stringify(bank.body)).toBe(201)
  const { secret: session } = await signInAs(app, company)
  const onboarding = await post(app, session, "/v1/online-payments/onboarding", {})
  expect(onboarding.status, JSON.stringify(onboarding.body)).toBe(200)
  const accountId = [...processor.state.accounts.keys()].at(-1)!
  processor.completeOnboarding(accountId)
  await deliverAll(processor)
  const saved = await post(app, session, "/v1/online-payments/settings", { enabled: true, payout_bank_account_id: bank.body.id, ...settings })
  expect(saved.status, JSON.stringify(saved.body)).toBe(200)
  expect(saved.body.account_status).toBe("active")
  return { ...company, session, customerId: customer.body.id, bankAccountId: bank.body.id, accountId }
}

/** An invoice of `cents` to the shop's customer and a pay link for it. */
export const invoiceWithLink = async (app: TestApp, shop: Shop, cents: number) => {
  const invoice = await post(app, shop.ownerKey, "/v1/invoices", { contact_id: shop.customerId, doc_date: new Date().toISOString().slice(0, 10), terms_days: 30, lines: [{ amount_cents: cents }] })
  expect(invoice.status, JSON.stringify(invoice.body)).toBe(201)
  const link = await post(app, shop.ownerKey, "/v1/online-payments/pay-links", { document_id: invoice.body.id })
  expect(link.status, JSON.stringify(link.body)).toBe(201)
  return { invoiceId: invoice.body.id as number, token: link.body.token as string }
}

/** The payer pays on the pay page and the processor confirms: answers the processor's payment intent id. */
export const payOnPage = async ({ app, processor }: PaymentsApp, token: string, feeCents: number, amountCents?: number) => {
  const started = await app.call("POST", `/v1/pay/${token}`, { body: { method: "card", ...(amountCents === undefined ? {} : { amount_cents: amountCents }) } })
  expect(started.status, JSON.stringify(started.body)).toBe(201)
  const intent = [...processor.state.intents.values()].at(-1)!
  processor.pay(intent.id, feeCents)
  return intent.id as string
}

/** Balance of one account code in the company's books (debits less credits), from the journal. */
export const balance = async (app: TestApp, companyId: string, code: string): Promise<number> => {
  const rows = await app.query<{ total: string | null }>(
    `SELECT sum(l.amount_cents) AS total FROM journal_lines l JOIN accounts a ON a.company_id = l.company_id AND a.id = l.account_id
     WHERE l.company_id = $1 AND a.code = $2`, [companyId, code])
  return Number(rows[0]?.total ?? 0)
}
