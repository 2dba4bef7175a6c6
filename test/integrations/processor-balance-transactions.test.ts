import fc from "fast-check"
import { describe, expect, it } from "vitest"
import { IntegrationMappingRules } from "@ledger/engine/rules"
import { CommerceHttp } from "@ledger/server/adapters"

/**
 * What each of Stripe's balance transactions books (issue 39 item 4). Before, every type but
 * `charge` and `refund` was booked as a payout of its absolute amount: a dispute's withdrawal
 * went to the bank, its fee nowhere, and the clearing account never returned to zero.
 */

const mappings: ReadonlyArray<IntegrationMappingRules.MappingRow> = [
  { kind: "category", sourceKey: "*", accountCode: "4000", className: null },
  { kind: "refund", sourceKey: "*", accountCode: "4010", className: null },
  { kind: "refund", sourceKey: "dispute", accountCode: "6070", className: null },
  { kind: "fee", sourceKey: "*", accountCode: "6050", className: null },
  { kind: "fee", sourceKey: "dispute", accountCode: "6060", className: null },
  { kind: "payout", sourceKey: "*", accountCode: "1010", className: null }
]

const item = (type: string, amount: number, fee: number, reporting_category = type) =>
  ({ id: `txn_${type}`, object: "balance_transaction", type, reporting_category, amount, fee, net: amount - fee, currency: "usd", created: 1_780_000_000 })

/** The entry's signed amount (debit positive) per account. */
const entryOf = (object: ReturnType<typeof CommerceHttp.processorObject>) => {
  const drafted = IntegrationMappingRules.draft(object, mappings, "CLR", null)
  if (drafted._tag !== "Entry") return {}
  return Object.fromEntries(drafted.lines.map((line) => [line.account, (line.debit_cents ?? 0) - (line.credit_cents ?? 0)]))
}

describe("the processor's balance transactions", () => {
  it("books a dispute's withdrawal and fee, and its reversal, on the dispute mappings", () => {
    const lost = CommerceHttp.processorObject(item("adjustment", -10_000, 1_500, "dispute"))
    expect(lost.type).toBe("dispute")
    expect(entryOf(lost)).toEqual({ "6070": 10_000, "6060": 1_500, CLR: -11_500 })
    expect(entryOf(CommerceHttp.processorObject(item("adjustment", 10_000, 0, "dispute_reversal")))).toEqual({ "6070": -10_000, CLR: 10_000 })
  })

  it("books a refund's returned fee, a failed payout back from the bank, and the processor's own fees", () => {
    expect(entryOf(CommerceHttp.processorObject(item("refund", -5_000, -145)))).toEqual({ "4010": 5_000, "6050": -145, CLR: -4_855 })
    expect(entryOf(CommerceHttp.processorObject(item("payment_refund", -500, 0)))).toEqual({ "4010": 500, CLR: -500 })
    expect(entryOf(CommerceHttp.processorObject(item("payout_failure", 9_400, 0, "payout_reversal")))).toEqual({ "1010": -9_400, CLR: 9_400 })
    expect(entryOf(CommerceHttp.processorObject(item("payout", -9_400, 0)))).toEqual({ "1010": 9_400, CLR: -9_400 })
    const stripeFee = CommerceHttp.processorObject(item("stripe_fee", -200, 0, "fee"))
    expect(stripeFee.lines).toEqual([{ kind: "fee", key: "stripe_fee", amountCents: 200 }])
    expect(entryOf(CommerceHttp.processorObject(item("payment", 2_000, 60, "charge")))).toEqual({ "4000": -2_000, "6050": 60, CLR: 1_940 })
  })

  it("marks any other type unsupported, booking nothing", () => {
    for (const [type, category] of [["transfer", "transfer"], ["adjustment", "other_adjustment"], ["topup", "topup"], ["issuing_transaction", "issuing_transaction"]] as const) {
      const object = CommerceHttp.processorObject(item(type, -300, 0, category))
      expect(object).toMatchObject({ type: "unsupported", lines: [] })
      expect(object.unsupported).toContain(type)
      expect(IntegrationMappingRules.draft(object, mappings, "CLR", null)._tag).toBe("Empty")
    }
  })

  it("moves the clearing account by the transaction's net, for every booked type and any amounts", () => {
    const booked = ["charge", "payment", "refund", "payment_refund", "refund_failure", "payout", "payout_cancel", "payout_failure", "stripe_fee", "tax_fee", "dispute", "dispute_reversal"]
    fc.assert(fc.property(fc.constantFrom(...booked), fc.integer({ min: -1_000_000, max: 1_000_000 }), fc.integer({ min: -5_000, max: 5_000 }), (kind, amount, fee) => {
      const dispute = kind.startsWith("dispute")
      const object = CommerceHttp.processorObject(item(dispute ? "adjustment" : kind, amount, fee, kind))
      expect(object.type).not.toBe("unsupported")
      const clearing = entryOf(object).CLR ?? 0
      expect(clearing).toBe(amount - fee)
    }))
  })
})
