import fc from "fast-check"
import { describe, expect, it } from "vitest"
import { AgingRules, DocumentPosting, LineAmounts, Rounding, SalesTaxRules } from "@ledger/engine/rules"
const { documentEntry, entryAmount, paymentEntry, reversal } = DocumentPosting
const { extend, lineAmount } = LineAmounts
const { divideRoundHalfAwayFromZero } = Rounding
const { combinedRate, taxLines, taxOn } = SalesTaxRules
const { bucketOf } = AgingRules
type PostingKind = DocumentPosting.PostingKind

const sums = (lines: ReadonlyArray<{ debit_cents?: number; credit_cents?: number }>) => ({
  debit: lines.reduce((sum, line) => sum + (line.debit_cents ?? 0), 0),
  credit: lines.reduce((sum, line) => sum + (line.credit_cents ?? 0), 0)
})

describe("rounding", () => {
  it("rounds half away from zero", () => {
    expect(divideRoundHalfAwayFromZero(5n, 2n)).toBe(3n)
    expect(divideRoundHalfAwayFromZero(-5n, 2n)).toBe(-3n)
    expect(divideRoundHalfAwayFromZero(4n, 3n)).toBe(1n)
    expect(divideRoundHalfAwayFromZero(-4n, 3n)).toBe(-1n)
    expect(extend("1.5", 333)).toBe(500) // 499.5 rounds up
    expect(extend("0.0001", 5000)).toBe(1) // 0.5 rounds up
    expect(extend("3", 1999)).toBe(5997)
  })

  it("stays within half a cent of the exact value and is symmetric around zero", () => {
    fc.assert(fc.property(fc.bigInt({ min: -(10n ** 15n), max: 10n ** 15n }), fc.bigInt({ min: 1n, max: 10n ** 9n }), (n, d) => {
      const rounded = divideRoundHalfAwayFromZero(n, d)
      const error = rounded * d - n
      expect(2n * (error < 0n ? -error : error) <= d).toBe(true)
      expect(divideRoundHalfAwayFromZero(-n, d)).toBe(-rounded)
    }))
  })
})

describe("line amounts", () => {
  it("derives, checks and refuses", () => {
    expect(lineAmount(0, { quantity: "2", unit_price_cents: 1250 })).toEqual({ _tag: "Amount", amountCents: 2500 })
    expect(lineAmount(0, { quantity: "2", unit_price_cents: 1250, amount_cents: 2500 })).toEqual({ _tag: "Amount", amountCents: 2500 })
    expect(lineAmount(3, { quantity: "2", unit_price_cents: 1250, amount_cents: 2600 })._tag).toBe("Refused")
    expect(lineAmount(0, { amount_cents: 700 })).toEqual({ _tag: "Amount", amountCents: 700 })
    expect(lineAmount(0, { quantity: "3" }, 1000)).toEqual({ _tag: "Amount", amountCents: 3000 })
    expect(lineAmount(0, {}, 1000)).toEqual({ _tag: "Amount", amountCents: 1000 })
    expect(lineAmount(0, { quantity: "3" })._tag).toBe("Refused")
  })
})

describe("sales tax", () => {
  it("sums component rates exactly", () => {
    expect(combinedRate(["6.25", "1.5", "0.5"])).toBe("8.25")
    expect(combinedRate(["0.0001", "0.0002"])).toBe("0.0003")
    expect(combinedRate(["10", "5"])).toBe("15")
  })

  it("rounds each jurisdiction on its own", () => {
    const lines = taxLines(12345, [
      { taxRateId: 1, name: "State", agencyId: 10, ratePercent: "6.25", payableAccount: "2200" },
      { taxRateId: 2, name: "County", agencyId: 11, ratePercent: "1.5", payableAccount: "2201" },
      { taxRateId: 3, name: "City", agencyId: 12, ratePercent: "0.5", payableAccount: "2202" }
    ])
    // 771.5625 -> 772, 185.175 -> 185, 61.725 -> 62: each rounded on its own.
    expect(lines.map((line) => line.taxCents)).toEqual([772, 185, 62])
    expect(taxOn(12345, "8.25")).toBe(1018) // the single combined figure would differ by one cent
  })

  it("each component's tax is within half a cent of exact", () => {
    fc.assert(fc.property(
      fc.integer({ min: -10_000_000_000, max: 10_000_000_000 }),
      fc.integer({ min: 0, max: 1_000_000 }),
      (subtotal, rateScaled) => {
        const rate = `${Math.floor(rateScaled / 10_000)}.${String(rateScaled % 10_000).padStart(4, "0")}`
        const tax = taxOn(subtotal, rate)
        const exactTimes1e6 = BigInt(subtotal) * BigInt(rateScaled)
        const error = BigInt(tax) * 1_000_000n - exactTimes1e6
        expect(2n * (error < 0n ? -error : error) <= 1_000_000n).toBe(true)
      }
    ))
  })
})

const kinds: ReadonlyArray<PostingKind> = ["invoice", "credit_memo", "bill", "vendor_credit", "sales_receipt", "refund", "vendor_refund"]

describe("document entries", () => {
  it("every kind balances, moves the control account by the total and reverses exactly", () => {
    fc.assert(fc.property(
      fc.constantFrom(...kinds),
      fc.array(fc.integer({ min: -50_000, max: 500_000 }), { minLength: 1, maxLength: 20 }),
      fc.array(fc.integer({ min: 0, max: 50_000 }), { maxLength: 10 }),
      (kind, amounts, taxes) => {
        const total = amounts.reduce((a, b) => a + b, 0) + taxes.reduce((a, b) => a + b, 0)
        fc.pre(total > 0)
        const entry = documentEntry({
          kind,
          contactId: 7,
          date: "2024-05-01",
          memo: null,
          controlAccount: "1100",
          lines: amounts.map((amountCents, index) => ({ account: `4${index}`, amountCents, description: null, class: null })),
          taxLines: taxes.map((taxCents, index) => ({
            taxRateId: index + 1,
            name: `T${index}`,
            agencyId: 1,
            ratePercent: "1",
            payableAccount: `22${index}`,
            taxableSubtotalCents: 0,
            taxCents
          }))
        })
        const { debit, credit } = sums(entry.lines)
        expect(debit).toBe(credit)
        for (const line of entry.lines) expect((line.debit_cents ?? 0) > 0 !== (line.credit_cents ?? 0) > 0).toBe(true)
        const control = entry.lines[0]!
        expect(control.account).toBe("1100")
        expect((control.debit_cents ?? 0) + (control.credit_cents ?? 0)).toBe(total)
        const back = reversal(entry, "2024-06-01", null)
        const perAccount = new Map<string, number>()
        for (const line of [...entry.lines, ...back.lines]) {
          perAccount.set(line.account, (perAccount.get(line.account) ?? 0) + (line.debit_cents ?? 0) - (line.credit_cents ?? 0))
        }
        for (const value of perAccount.values()) expect(value).toBe(0)
        expect(entryAmount(back)).toBe(entryAmount(entry))
      }
    ))
  })

  it("posts an invoice Dr AR, Cr income per line and tax per jurisdiction", () => {
    const entry = documentEntry({
      kind: "invoice",
      contactId: 1,
      date: "2024-01-10",
      memo: "Jan",
      controlAccount: "1200",
      lines: [{ account: "4000", amountCents: 10000, description: "Work", class: null }],
      taxLines: [{ taxRateId: 1, name: "State", agencyId: 1, ratePercent: "6.25", payableAccount: "2200", taxableSubtotalCents: 10000, taxCents: 625 }]
    })
    expect(entry.lines).toEqual([
      { account: "1200", debit_cents: 10625, contact_id: 1, memo: "Jan" },
      { account: "4000", credit_cents: 10000, memo: "Work" },
      { account: "2200", credit_cents: 625, memo: "State 6.25%" }
    ])
    expect(paymentEntry({ direction: "made", contactId: 2, date: "2024-01-11", memo: null, account: "1000", controlAccount: "2000", amountCents: 500 }).lines)
      .toEqual([{ account: "1000", credit_cents: 500 }, { account: "2000", debit_cents: 500, contact_id: 2 }])
  })
})

describe("aging buckets", () => {
  it("buckets by days past due", () => {
    expect(bucketOf("2024-03-31", "2024-03-31")).toBe("current")
    expect(bucketOf("2024-03-30", "2024-03-31")).toBe("days_1_30")
    expect(bucketOf("2024-03-01", "2024-03-31")).toBe("days_1_30")
    expect(bucketOf("2024-02-29", "2024-03-31")).toBe("days_31_60")
    expect(bucketOf("2024-01-01", "2024-03-31")).toBe("days_61_90")
    expect(bucketOf("2023-12-31", "2024-03-31")).toBe("over_90")
  })
})
