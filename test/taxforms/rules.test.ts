import fc from "fast-check"
import { describe, expect, it } from "vitest"
import { TaxFormAmountRules as AmountRules, TinRules } from "@ledger/engine/rules"

describe("thresholds by year", () => {
  it("$600 for payments through 2025, $2,000 after (Public Law 119-21)", () => {
    expect(AmountRules.thresholdOf(2024)).toBe(60_000)
    expect(AmountRules.thresholdOf(2025)).toBe(60_000)
    expect(AmountRules.thresholdOf(2026)).toBe(200_000)
    expect(AmountRules.royaltiesThreshold).toBe(1_000)
  })
})

describe("splitting a payment over the bill lines it paid", () => {
  it("the parts add up to the cent and never go negative", () => {
    fc.assert(fc.property(
      fc.integer({ min: 0, max: 10_000_000_00 }),
      fc.array(fc.integer({ min: 0, max: 1_000_000_00 }), { minLength: 1, maxLength: 20 }),
      (total, weights) => {
        const parts = AmountRules.split(total, weights)
        expect(parts.reduce((a, b) => a + b, 0)).toBe(total)
        for (const part of parts) expect(part).toBeGreaterThanOrEqual(0)
      }
    ))
  })

  it("a payment's boxes add up to the payment, whatever its applications", () => {
    const box = fc.constantFrom(...AmountRules.boxes)
    fc.assert(fc.property(
      fc.array(fc.record({ applied: fc.integer({ min: 1, max: 1_000_000 }), lines: fc.array(fc.record({ account: fc.constantFrom("6020", "6080", "6050"), amount: fc.integer({ min: 0, max: 1_000_000 }) }), { minLength: 1, maxLength: 5 }) }), { maxLength: 4 }),
      fc.integer({ min: 0, max: 1_000_000 }),
      box,
      box,
      (applications, unapplied, accountBox, vendorBox) => {
        const amount = applications.reduce((sum, application) => sum + application.applied, 0) + unapplied
        const lines = applications.flatMap((application, index) => application.lines.map((line) => ({ application: index + 1, applied: application.applied, account: line.account, lineAmount: line.amount })))
        const result = AmountRules.allocate({ id: 1, contactId: 1, amountCents: amount, byCard: false, lines }, (account) => account === "6080" ? accountBox : undefined, vendorBox)
        expect([...result.values()].reduce((a, b) => a + b, 0)).toBe(amount)
      }
    ))
  })

  it("an account's box wins over the vendor's", () => {
    const result = AmountRules.allocate({
      id: 1, contactId: 1, amountCents: 1_000, byCard: false,
      lines: [{ application: 1, applied: 1_000, account: "6080", lineAmount: 750 }, { application: 1, applied: 1_000, account: "6020", lineAmount: 250 }]
    }, (account) => account === "6080" ? "MISC1" : undefined, "NEC1")
    expect(Object.fromEntries(result)).toEqual({ MISC1: 750, NEC1: 250 })
  })
})

describe("TINs", () => {
  it("are masked to their last four digits", () => {
    expect(TinRules.mask("SSN", "6789")).toBe("***-**-6789")
    expect(TinRules.mask("EIN", "6789")).toBe("**-***6789")
    fc.assert(fc.property(fc.stringMatching(/^\d{9}$/), fc.constantFrom("SSN", "EIN", "ITIN", "ATIN"), (tin, type) => {
      const masked = TinRules.mask(type, TinRules.lastFour(tin))!
      expect(masked.replace(/\D/g, "")).toBe(tin.slice(-4))
    }))
  })

  it("name controls: a person's last name, a business's first word without The", () => {
    expect(TinRules.nameControl("Jane Q Contractor", true)).toBe("CONT")
    expect(TinRules.nameControl("The Green Company", false)).toBe("GREE")
    expect(TinRules.nameControl("Spaceley Sprockets", false)).toBe("SPAC")
    expect(TinRules.nameControl("A & B Co", false)).toBe("A&BC")
  })
})

describe("what a hand-posted entry paid a 1099 vendor", () => {
  const line = (account: string, subtype: string | null, amountCents: number, contactId: number | null = null) => ({ account, accountSubtype: subtype, amountCents, contactId })
  const reportable = (id: number) => id !== 99

  it("an entry that moves no money account is an accrual and pays nothing", () => {
    expect(AmountRules.entryPayments([line("6020", "contractors", 500, 1), line("2000", "accounts_payable", -500, 1)], reportable)).toEqual([])
  })

  it("card and processor accounts make a 1099-K payment; a vendor not for 1099s is left out", () => {
    expect(AmountRules.entryPayments([line("6020", "contractors", 500, 1), line("2100", "credit_card", -500)], reportable)[0]!.byCard).toBe(true)
    expect(AmountRules.entryPayments([line("6020", "contractors", 500, 1), line("CLR-1", "clearing", -500)], reportable)[0]!.byCard).toBe(true)
    expect(AmountRules.entryPayments([line("6020", "contractors", 500, 99), line("1010", "bank", -500)], reportable)).toEqual([])
  })

  it("a named expense line counts at most the money the entry paid out", () => {
    const paid = AmountRules.entryPayments([line("6020", "contractors", 800, 1), line("1010", "bank", -500), line("2000", "accounts_payable", -300)], reportable)
    expect(paid).toEqual([{ contactId: 1, amountCents: 500, byCard: false, weights: [{ account: "6020", weight: 800 }] }])
  })

  it("a reversal is the exact negative, and the boxes add up to the payment", () => {
    const subtype = fc.constantFrom("bank", "cash", "credit_card", "contractors", "rent", "accounts_payable")
    const entryLine = fc.record({
      account: fc.constantFrom("1010", "2100", "6020", "6080", "2000"),
      accountSubtype: subtype,
      amountCents: fc.integer({ min: -1_000_000, max: 1_000_000 }).filter((n) => n !== 0),
      contactId: fc.constantFrom(null, 1, 2, 99)
    })
    fc.assert(fc.property(fc.array(entryLine, { minLength: 2, maxLength: 8 }), (lines) => {
      const forward = AmountRules.entryPayments(lines, reportable)
      const backward = AmountRules.entryPayments(lines.map((l) => ({ ...l, amountCents: -l.amountCents })), reportable)
      expect(backward.map((p) => [p.contactId, -p.amountCents, p.byCard])).toEqual(forward.map((p) => [p.contactId, p.amountCents, p.byCard]))
      for (const payment of forward) {
        const boxes = AmountRules.allocateEntry(payment, (account) => account === "6080" ? "MISC1" : undefined, "NEC1")
        expect([...boxes.values()].reduce((a, b) => a + b, 0)).toBe(payment.amountCents)
        const back = AmountRules.allocateEntry({ ...payment, amountCents: -payment.amountCents }, (account) => account === "6080" ? "MISC1" : undefined, "NEC1")
        for (const [box, cents] of boxes) expect(back.get(box)).toBe(-cents)
      }
    }))
  })
})
