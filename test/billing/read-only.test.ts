import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { expectErrorBody, newKey, type TestCompany } from "../support/index.ts"
import { type BillingApp, deliverAll, get, makeBillingAppAt, moveTo, ownerPost, post } from "./support.ts"

/**
 * A cancelled company's books are read-only (issue 29, ADR 1805), enforced by the pipeline for
 * every write: after the period, writes are refused with 409 `books_read_only` (dry runs too),
 * while reads, exports and billing's own operations work; subscribing again lifts it. Over HTTP,
 * on a clock moved by hand (the app's and the processor's together).
 */
let world: BillingApp
const start = Date.parse("2026-03-01T00:00:00Z")
const day = 86_400_000

beforeAll(async () => {
  world = await makeBillingAppAt(start)
})
afterAll(async () => {
  await world.app.close()
  await world.processor.close()
})

const subscribe = async (company: TestCompany) => {
  const { app, processor } = world
  const checkout = await ownerPost(app, company, "/v1/billing/checkout", { plan: "solo", interval: "month" })
  expect(checkout.status, JSON.stringify(checkout.body)).toBe(200)
  processor.completeCheckout(checkout.body.session_id)
  await deliverAll(processor)
}

const contact = (company: TestCompany, name: string, extra: Record<string, unknown> = {}) =>
  post(world.app, company.ownerKey, "/v1/contacts", { kind: "customer", name, ...extra })

describe("read-only books", () => {
  it("refuses every write after a cancelled period, keeps reads, exports and billing working, and lifts on subscribing again", async () => {
    const { app, processor } = world
    const company = await app.createCompany({ name: "Leaving Co" })
    const bystander = await app.createCompany({ name: "Staying Co" })
    await subscribe(company)
    expect((await contact(company, "Before cancel")).status).toBe(201)
    expect((await ownerPost(app, company, "/v1/billing/cancel", { cancel: true })).status).toBe(200)
    await deliverAll(processor)
    const billing = (await get(app, company.ownerKey, "/v1/billing")).body
    expect(billing).toMatchObject({ cancel_at_period_end: true, read_only: false })
    // Until the period ends the books stay writable.
    expect((await contact(company, "Still in the period")).status).toBe(201)

    moveTo(world, Date.parse(`${billing.current_period_ends_on}T00:00:01Z`))
    await deliverAll(processor)
    expect((await get(app, company.ownerKey, "/v1/billing")).body).toMatchObject({ status: "canceled", read_only: true })

    // Writes: refused with the stable type, whatever the operation, dry runs included.
    const refused = await contact(company, "After the end")
    expect(refused.status).toBe(409)
    expectErrorBody(refused.body, "books_read_only")
    expect(refused.body.error.details.read_only_since).toBe(`${billing.current_period_ends_on}T00:00:00.000Z`)
    const lines = [{ account: "1000", debit_cents: 100 }, { account: "4000", credit_cents: 100 }]
    const entry = await app.call("POST", "/v1/journal-entries/propose", { token: company.ownerKey, key: newKey(), body: { entry_date: "2026-04-20", memo: "x", lines } })
    expect(entry.status).toBe(409)
    expectErrorBody(entry.body, "books_read_only")
    const dryRun = await app.call("POST", "/v1/journal-entries/propose", { token: company.ownerKey, body: { dry_run: true, entry_date: "2026-04-20", memo: "x", lines } })
    expectErrorBody(dryRun.body, "books_read_only")
    expect(Number((await app.query<{ n: unknown }>("SELECT count(*) AS n FROM contacts WHERE company_id = $1 AND name = 'After the end'", [company.companyId]))[0]!.n))
      .toBe(0)
    // The refusal is in the company's audit log.
    const audit = (await get(app, company.ownerKey, "/v1/audit/events?limit=20")).body.data as Array<any>
    expect(audit.some((event) => event.outcome === "refused" && event.error_type === "books_read_only" && event.action === "createContact")).toBe(true)

    // Reads and exports work.
    const contacts = await get(app, company.ownerKey, "/v1/contacts")
    expect(contacts.status).toBe(200)
    expect(contacts.body.data.map((c: any) => c.name)).toEqual(expect.arrayContaining(["Before cancel", "Still in the period"]))
    const csv = await app.call("GET", "/v1/reports/trial-balance?format=csv", { token: company.ownerKey, headers: { accept: "application/json" } })
    expect(csv.status).toBe(200)
    // Another company is not touched.
    expect((await contact(bystander, "Unaffected")).status).toBe(201)

    // Billing's own operations still work: subscribing again makes the books writable at once.
    const again = await ownerPost(app, company, "/v1/billing/checkout", { plan: "solo", interval: "month" })
    expect(again.status, JSON.stringify(again.body)).toBe(200)
    processor.completeCheckout(again.body.session_id)
    await deliverAll(processor)
    expect((await get(app, company.ownerKey, "/v1/billing")).body.read_only).toBe(false)
    expect((await contact(company, "Back again")).status).toBe(201)
  })

  it("turns read-only after a past-due period's grace, not before", async () => {
    const { app } = world
    const company = await app.createCompany({ name: "Late Co" })
    await subscribe(company)
    const periodEnd = Date.parse("2026-06-01T00:00:00Z")
    await app.query("UPDATE billing_subscriptions SET status = 'past_due', current_period_end = $2 WHERE company_id = $1", [company.companyId, new Date(periodEnd).toISOString()])
    // The guard remembers a company's state for 30 seconds of the clock: move past that each time.
    moveTo(world, periodEnd + 13 * day)
    expect((await contact(company, "In the grace")).status).toBe(201)
    moveTo(world, periodEnd + 14 * day + 60_000)
    expectErrorBody((await contact(company, "After the grace")).body, "books_read_only")
    expect((await get(app, company.ownerKey, "/v1/billing")).body.read_only).toBe(true)
  })
})
