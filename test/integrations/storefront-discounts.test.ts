import fc from "fast-check"
import { describe, expect, it } from "vitest"
import { IntegrationMappingRules } from "@ledger/engine/rules"
import { CommerceHttp } from "@ledger/server/adapters"

/**
 * Store discounts are booked (issue 39 item 5). The order below has the storefront's own REST
 * shape (an admin Order: `discount_applications` describe each discount by `value_type` and
 * `value`; what it took off is in each line's and shipping line's `discount_allocations`, and in
 * `discount_codes` and `total_discounts`). Before the fix the adapter read an `amount` that the
 * applications do not have, so the clearing account was debited the undiscounted total.
 */

const order = {
  id: 450789469,
  name: "#1001",
  created_at: "2026-03-02T10:00:00-05:00",
  updated_at: "2026-03-02T10:05:00-05:00",
  currency: "USD",
  subtotal_price: "45.00",
  total_discounts: "5.00",
  total_price: "52.70",
  discount_applications: [
    { type: "discount_code", code: "SPRING10", value: "10.0", value_type: "percentage", allocation_method: "across", target_selection: "all", target_type: "line_item" },
    { type: "manual", title: "Free shipping", description: "Loyal customer", value: "100.0", value_type: "percentage", allocation_method: "each", target_selection: "all", target_type: "shipping_line" }
  ],
  discount_codes: [{ code: "SPRING10", amount: "5.00", type: "percentage" }],
  line_items: [
    { sku: "MUG", price: "12.50", quantity: 2, discount_allocations: [{ amount: "2.50", discount_application_index: 0 }] },
    { sku: "POSTER", price: "25.00", quantity: 1, discount_allocations: [{ amount: "2.50", discount_application_index: 0 }] }
  ],
  shipping_lines: [{ code: "standard", price: "6.00", discount_allocations: [{ amount: "6.00", discount_application_index: 1 }] }],
  tax_lines: [{ title: "State tax", price: "2.70", rate: 0.06 }],
  total_tip_received: "0.00"
}

const mappings: ReadonlyArray<IntegrationMappingRules.MappingRow> = [
  { kind: "product", sourceKey: "*", accountCode: "4000", className: null },
  { kind: "shipping", sourceKey: "*", accountCode: "4100", className: null },
  { kind: "tax", sourceKey: "*", accountCode: "2200", className: null },
  { kind: "discount", sourceKey: "*", accountCode: "4900", className: null }
]

describe("storefront discounts", () => {
  it("books each discount as allocated, keyed by its code or title, and the clearing account takes what the customer paid", () => {
    const object = CommerceHttp.storefrontOrder(order)
    expect(object.lines.filter((line) => line.kind === "discount")).toEqual([
      { kind: "discount", key: "SPRING10", amountCents: 250 },
      { kind: "discount", key: "SPRING10", amountCents: 250 },
      { kind: "discount", key: "Free shipping", amountCents: 600 }
    ])
    const drafted = IntegrationMappingRules.draft(object, mappings, "1150", null)
    expect(drafted._tag).toBe("Entry")
    if (drafted._tag !== "Entry") return
    const clearing = drafted.lines.find((line) => line.account === "1150")!
    // 50.00 of goods + 6.00 shipping + 2.70 tax - 5.00 code - 6.00 free shipping = 47.70 paid.
    expect(clearing.debit_cents).toBe(4_770)
    expect(drafted.lines.find((line) => line.account === "4900")!.debit_cents).toBe(1_100)
  })

  it("falls back to discount_codes, then total_discounts, on orders without allocations", () => {
    const { line_items, shipping_lines, ...rest } = order
    const bare = { ...rest, line_items: line_items.map(({ discount_allocations: _, ...item }) => item), shipping_lines: [] }
    expect(CommerceHttp.storefrontDiscounts(bare)).toEqual([{ kind: "discount", key: "SPRING10", amountCents: 500 }])
    expect(CommerceHttp.storefrontDiscounts({ ...bare, discount_codes: [] })).toEqual([{ kind: "discount", key: "*", amountCents: 500 }])
    expect(CommerceHttp.storefrontDiscounts({ ...bare, discount_codes: [], total_discounts: "0.00" })).toEqual([])
    expect(shipping_lines).toHaveLength(1)
  })

  it("keeps every entry balanced and the clearing account equal to what was paid, for any discounts", () => {
    fc.assert(fc.property(
      fc.array(fc.record({ price: fc.integer({ min: 1, max: 100_000 }), quantity: fc.integer({ min: 1, max: 5 }), off: fc.integer({ min: 0, max: 100 }) }), { minLength: 1, maxLength: 5 }),
      (items) => {
        const decimal = (cents: number) => `${Math.floor(cents / 100)}.${String(cents % 100).padStart(2, "0")}`
        const lineItems = items.map((item, index) => {
          const gross = item.price * item.quantity
          const discount = Math.floor((gross * item.off) / 100)
          return { sku: `SKU${index}`, price: decimal(item.price), quantity: item.quantity, discount_allocations: discount === 0 ? [] : [{ amount: decimal(discount), discount_application_index: 0 }], gross, discount }
        })
        const paid = lineItems.reduce((sum, item) => sum + item.gross - item.discount, 0)
        const drafted = IntegrationMappingRules.draft(
          CommerceHttp.storefrontOrder({ ...order, line_items: lineItems, shipping_lines: [], tax_lines: [], discount_codes: [], total_discounts: "0.00" }),
          mappings, "1150", null)
        if (drafted._tag !== "Entry") return paid === 0
        const debits = drafted.lines.reduce((sum, line) => sum + (line.debit_cents ?? 0), 0)
        const credits = drafted.lines.reduce((sum, line) => sum + (line.credit_cents ?? 0), 0)
        expect(debits).toBe(credits)
        expect(drafted.lines.find((line) => line.account === "1150")?.debit_cents ?? 0).toBe(paid)
        return true
      }
    ))
  })

  it("books each refund as its own object, reversing what it names, and credits the clearing account what went back", () => {
    const withIds = { ...order, line_items: order.line_items.map((item, index) => ({ ...item, id: 100 + index })) }
    const refund = {
      id: 7, created_at: "2026-03-09T10:00:00-05:00",
      refund_line_items: [{ id: 1, line_item_id: 100, quantity: 1, subtotal: 11.25, total_tax: 0.68 }],
      order_adjustments: [{ id: 2, amount: "-1.00", tax_amount: "0.00", kind: "refund_discrepancy" }],
      transactions: [{ id: 3, kind: "refund", status: "success", amount: "10.93" }, { id: 4, kind: "refund", status: "failure", amount: "10.93" }]
    }
    const [object] = CommerceHttp.storefrontRefunds({ ...withIds, refunds: [refund] })
    expect(object).toMatchObject({ id: "450789469/refunds/7", type: "refund", version: refund.created_at, date: "2026-03-09" })
    const drafted = IntegrationMappingRules.draft(object!, mappings, "1150", null)
    if (drafted._tag !== "Entry") throw new Error(drafted._tag)
    const signed = Object.fromEntries(drafted.lines.map((line) => [line.account, (line.debit_cents ?? 0) - (line.credit_cents ?? 0)]))
    // A mug (12.50) less its 1.25 discount, 0.68 tax, less a 1.00 discrepancy: 10.93 went back.
    expect(signed).toEqual({ "4000": 1_150, "4900": -125, "2200": 68, "1150": -1_093 })
    // The refund does not change what the order itself books, so the order is not "changed".
    expect(CommerceHttp.storefrontOrder({ ...withIds, refunds: [refund], updated_at: "2026-03-09T10:00:00-05:00" }).version).toBe(CommerceHttp.storefrontOrder(withIds).version)
  })
})
