import { afterAll, beforeAll, describe, expect, it } from "vitest"
import type { FakeCommerce } from "@ledger/testkit"
import type { TestApp } from "../support/index.ts"
import { orderProblems } from "../support/providers/shopify.ts"
import { makeProviderApp, syncNow, writer } from "./support.ts"

/**
 * Issue 39 item 4's scenarios, over the real sync (the testkit's fakes speak Stripe's balance
 * transactions and Shopify's admin orders): every clearing account returns to zero.
 * (a) A storefront's orders with discounts, tax, shipping and a refund; the payout arrives at the
 *     bank, imported from a statement and its line categorized to the clearing account.
 * (b) A processor's charges with fees, a refund, a lost and a won dispute with their fees, a
 *     failed payout and the payouts; then a type the adapter does not book, shown as such.
 */

let app: TestApp
let commerce: FakeCommerce.FakeCommerce
beforeAll(async () => {
  const made = await makeProviderApp()
  app = made.app
  commerce = made.commerce
})
afterAll(() => app.close())

type Owner = ReturnType<typeof writer>

/** Each account's balance (debits positive), by code. */
const balances = async (companyId: string): Promise<Record<string, number>> => {
  const rows = await app.query<{ code: string; total: unknown }>(`SELECT a.code, sum(l.amount_cents) AS total FROM journal_lines l
    JOIN accounts a ON a.company_id = l.company_id AND a.id = l.account_id WHERE l.company_id = $1 GROUP BY a.code`, [companyId])
  return Object.fromEntries(rows.map((row) => [row.code, Number(row.total)]))
}

const addAccount = async (owner: Owner, code: string, name: string, type: string, subtype?: string) => {
  const made = await owner.post("/v1/accounts", { code, name, type, ...(subtype === undefined ? {} : { subtype }) })
  expect(made.status, JSON.stringify(made.body)).toBe(201)
}

const map = async (owner: Owner, id: number, kind: string, key: string, account: string) => {
  const mapped = await owner.post(`/v1/integrations/connections/${id}/mappings`, { kind, source_key: key, account_code: account })
  expect(mapped.status, JSON.stringify(mapped.body)).toBe(200)
}

const shopOrder = (id: number, lines: ReadonlyArray<{ id: number; sku: string; price: string; quantity: number; off?: string }>, extra: Record<string, unknown>) => ({
  id,
  name: `#${id}`,
  created_at: "2026-05-04T10:00:00-04:00",
  currency: "USD",
  discount_applications: [{ type: "discount_code", code: "SPRING10", value: "10.0", value_type: "percentage", allocation_method: "across", target_selection: "all", target_type: "line_item" }],
  line_items: lines.map((line) => ({
    id: line.id, sku: line.sku, price: line.price, quantity: line.quantity,
    discount_allocations: line.off === undefined ? [] : [{ amount: line.off, discount_application_index: 0 }]
  })),
  total_tip_received: "0.00",
  refunds: [],
  ...extra
})

// #1001: 2 mugs and a poster less SPRING10 (2.50 a line), 6.00 shipping, 2.70 tax: 53.70 paid.
const first = shopOrder(1001, [{ id: 11, sku: "MUG", price: "12.50", quantity: 2, off: "2.50" }, { id: 12, sku: "POSTER", price: "25.00", quantity: 1, off: "2.50" }], {
  total_discounts: "5.00", discount_codes: [{ code: "SPRING10", amount: "5.00", type: "percentage" }],
  shipping_lines: [{ code: "standard", price: "6.00", discount_allocations: [] }], tax_lines: [{ title: "State tax", price: "2.70", rate: 0.06 }]
})
// #1002: a mug, 5.00 shipping, 1.05 tax: 18.55 paid.
const second = shopOrder(1002, [{ id: 21, sku: "MUG", price: "12.50", quantity: 1 }], {
  total_discounts: "0.00", discount_codes: [], shipping_lines: [{ code: "standard", price: "5.00", discount_allocations: [] }],
  tax_lines: [{ title: "State tax", price: "1.05", rate: 0.06 }]
})
// #1001's refund, in Shopify's shape: one mug (12.50 less its 2.50 discount, 0.60 tax) and the
// shipping (an order adjustment of -6.00); 16.60 went back to the card.
const refundedOrder = {
  ...first,
  refunds: [{
    id: 509562969, order_id: 1001, created_at: "2026-05-06T09:00:00-04:00", note: "Broken mug", restock: true,
    refund_line_items: [{ id: 104689539, line_item_id: 11, quantity: 1, restock_type: "return", subtotal: 10, total_tax: 0.6 }],
    order_adjustments: [{ id: 1, order_id: 1001, refund_id: 509562969, amount: "-6.00", tax_amount: "0.00", kind: "shipping_refund", reason: "Shipping refund" }],
    transactions: [{ id: 179259969, order_id: 1001, kind: "refund", status: "success", amount: "16.60", currency: "USD", gateway: "shopify_payments" }]
  }]
}

describe("clearing accounts return to zero", () => {
  it("(a) storefront orders with discounts, tax, shipping and a refund, then the payout's bank deposit", async () => {
    const company = await app.createCompany({ name: "Clearing Shop" })
    const owner = writer(app, company.ownerKey)
    await addAccount(owner, "4010", "Product sales", "income")
    await addAccount(owner, "4020", "Shipping income", "income")
    await addAccount(owner, "4030", "Discounts given", "income")
    await addAccount(owner, "2210", "Sales tax payable", "liability")
    await addAccount(owner, "2220", "Tips owed", "liability")
    await addAccount(owner, "1090", "Payout bank", "asset", "bank")
    const started = await owner.post("/v1/integrations/connections", { provider: "provider_b" })
    const consent = commerce.consent(started.body.consent_url, { id: "clearing-shop", name: "Clearing Shop" })
    const connection = (await owner.post("/v1/integrations/connections/complete", { state: consent.state, code: consent.code, posting_threshold_cents: 1_000_000 })).body
    for (const [kind, account] of [["product", "4010"], ["shipping", "4020"], ["discount", "4030"], ["tax", "2210"], ["tip", "2220"]] as const) {
      await map(owner, connection.id, kind, "*", account)
    }
    expect((await owner.post(`/v1/integrations/connections/${connection.id}/mappings/approve`, {})).status).toBe(200)

    commerce.putOrder("clearing-shop", first)
    commerce.putOrder("clearing-shop", second)
    expect((await syncNow(app, owner, connection.id)).body.counts).toMatchObject({ fetched: 2, posted: 2, pending: 0 })
    expect((await owner.get(`/v1/integrations/connections/${connection.id}`)).body.clearing_balance_cents).toBe(5_370 + 1_855)

    // The orders are the admin Order as Shopify describes it (its resource and documented examples).
    expect([first, second, refundedOrder].flatMap((order, index) => orderProblems(order, `orders[${index}]`))).toEqual([])
    commerce.putOrder("clearing-shop", refundedOrder)
    const refunded = await syncNow(app, owner, connection.id)
    // The order itself is unchanged by its refund (nothing waits for review); the refund posts.
    expect(refunded.body.counts).toMatchObject({ fetched: 2, posted: 1, unchanged: 1, needs_review: 0 })
    const clearing = String(connection.clearing_account)
    expect((await owner.get(`/v1/integrations/connections/${connection.id}`)).body.clearing_balance_cents).toBe(5_370 + 1_855 - 1_660)

    // The payout reaches the bank: a statement line, categorized to the clearing account.
    const bank = await owner.post("/v1/bank-accounts", { name: "Payouts", kind: "checking", ledger_account: "1090",
      csv_profile: { date_column: "Date", amount_column: "Amount", memo_columns: ["Description"], date_format: "YYYY-MM-DD" } })
    expect(bank.status, JSON.stringify(bank.body)).toBe(201)
    const imported = await owner.post(`/v1/bank-accounts/${bank.body.id}/imports`, { format: "csv", content: "Date,Amount,Description\n2026-05-08,55.65,SHOPIFY PAYOUT\n" })
    expect(imported.status, JSON.stringify(imported.body)).toBe(201)
    const line = (await owner.get(`/v1/bank-lines?bank_account_id=${bank.body.id}`)).body.data[0]
    expect(line.amount_cents).toBe(5_565)
    const categorized = await owner.post(`/v1/bank-lines/${line.id}/categorize`, { account: clearing })
    expect(categorized.status, JSON.stringify(categorized.body)).toBe(201)

    expect((await owner.get(`/v1/integrations/connections/${connection.id}`)).body.clearing_balance_cents).toBe(0)
    expect(await balances(company.companyId)).toMatchObject({
      [clearing]: 0,
      "1090": 5_565,
      // 62.50 of goods sold less the refunded mug; 5.00 of discounts less the mug's 2.50.
      "4010": -5_000,
      "4030": 250,
      // 11.00 of shipping less the 6.00 refunded; 3.75 of tax less 0.60.
      "4020": -500,
      "2210": -315
    })
  })

  it("(b) processor charges with fees, a refund, disputes with fees, a failed payout and payouts", async () => {
    const company = await app.createCompany({ name: "Clearing Processor" })
    const owner = writer(app, company.ownerKey)
    await addAccount(owner, "1091", "Processor payouts", "asset", "bank")
    await addAccount(owner, "4050", "Card sales", "income")
    await addAccount(owner, "4060", "Refunds given", "income")
    await addAccount(owner, "6150", "Processing fees", "expense")
    await addAccount(owner, "6160", "Dispute fees", "expense")
    await addAccount(owner, "6170", "Dispute losses", "expense")
    const started = await owner.post("/v1/integrations/connections", { provider: "provider_a", payout_bank_account_id: "1091" })
    const consent = commerce.consent(started.body.consent_url, { id: "acct_1Clearing", name: "Card account" })
    const connection = (await owner.post("/v1/integrations/connections/complete", { state: consent.state, code: consent.code, posting_threshold_cents: 1_000_000 })).body
    await map(owner, connection.id, "category", "*", "4050")
    await map(owner, connection.id, "refund", "*", "4060")
    await map(owner, connection.id, "fee", "*", "6150")
    await map(owner, connection.id, "fee", "dispute", "6160")
    await map(owner, connection.id, "refund", "dispute", "6170")
    expect((await owner.post(`/v1/integrations/connections/${connection.id}/mappings/approve`, {})).status).toBe(200)

    const account = "acct_1Clearing"
    commerce.addCharge(account, { id: "txn_ch1", amountCents: 10_000, feeCents: 320, date: "2026-06-01" })
    commerce.addCharge(account, { id: "txn_ch2", amountCents: 5_000, feeCents: 175, date: "2026-06-01" })
    commerce.addCharge(account, { id: "txn_ch3", amountCents: 2_000, feeCents: 88, date: "2026-06-02" })
    commerce.addCharge(account, { id: "txn_ch4", amountCents: 50_000, feeCents: 1_480, date: "2026-06-02" })
    // ch2 refunded in full; the processor keeps its fee.
    commerce.addRefund(account, { id: "txn_re2", amountCents: 5_000, date: "2026-06-03" })
    // ch1 disputed and lost (15.00 fee); ch3 disputed (15.00 fee) and won, the fee not given back.
    commerce.addDispute(account, { id: "txn_du1", amountCents: 10_000, feeCents: 1_500, date: "2026-06-04" })
    commerce.addDispute(account, { id: "txn_du3", amountCents: 2_000, feeCents: 1_500, date: "2026-06-04" })
    commerce.addDisputeWon(account, { id: "txn_du3w", amountCents: 2_000, date: "2026-06-20" })
    // Net: 67,000 charged - 2,063 fees - 5,000 refunded - 12,000 disputed - 3,000 dispute fees + 2,000 won = 46,937.
    commerce.addPayout(account, { id: "txn_po1", amountCents: 46_937, date: "2026-06-21" })
    commerce.addPayoutFailure(account, { id: "txn_po1f", amountCents: 46_937, date: "2026-06-23" })
    commerce.addPayout(account, { id: "txn_po2", amountCents: 46_937, date: "2026-06-24" })
    const run = await syncNow(app, owner, connection.id)
    expect(run.body.counts).toMatchObject({ fetched: 11, posted: 11, pending: 0 })
    expect((await owner.get(`/v1/integrations/connections/${connection.id}`)).body).toMatchObject({ clearing_balance_cents: 0, provider_balance_cents: 0 })
    const clearing = String(connection.clearing_account)
    expect(await balances(company.companyId)).toMatchObject({
      [clearing]: 0,
      "1091": 46_937,
      "4050": -67_000,
      "4060": 5_000,
      "6150": 2_063,
      "6160": 3_000,
      "6170": 10_000
    })
    const disputes = (await owner.get(`/v1/integrations/connections/${connection.id}/objects?status=posted&limit=50`)).body.data
      .filter((object: any) => object.type === "dispute").map((object: any) => object.external_id).sort()
    expect(disputes).toEqual(["txn_du1", "txn_du3", "txn_du3w"])

    // A type the adapter does not book is kept and said to be skipped, never booked as a payout:
    // the provider's balance then differs from the clearing account, visibly.
    commerce.addTransaction(account, { id: "txn_tr1", type: "transfer", amountCents: -500, date: "2026-06-25" })
    const unknown = await syncNow(app, owner, connection.id)
    expect(unknown.body.counts).toMatchObject({ fetched: 1, posted: 0 })
    const skipped = (await owner.get(`/v1/integrations/connections/${connection.id}/objects?status=skipped`)).body.data
    expect(skipped.map((object: any) => [object.external_id, object.type])).toEqual([["txn_tr1", "unsupported"]])
    expect(skipped[0].note).toContain("transfer")
    expect((await owner.get(`/v1/integrations/connections/${connection.id}`)).body).toMatchObject({ clearing_balance_cents: 0, provider_balance_cents: -500 })
  })
})
