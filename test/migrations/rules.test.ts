import fc from "fast-check"
import { describe, expect, it } from "vitest"
import { Qbxml, Staging, TieoutRules } from "../../packages/engine/src/migrations/index.ts"
import { codesFor } from "../../packages/engine/src/migrations/Import.ts"

describe("qbXML and tie-out rules", () => {
  it("reads amounts into exact integer cents", () => {
    expect(Qbxml.centsOf("-197.02")).toBe(-19_702)
    expect(Qbxml.centsOf("951.65")).toBe(95_165)
    expect(Qbxml.centsOf("1,234.5")).toBe(123_450)
    expect(Qbxml.centsOf("0.10")).toBe(10)
    fc.assert(fc.property(fc.integer({ min: -1e12, max: 1e12 }), (cents) => {
      const text = `${cents < 0 ? "-" : ""}${Math.floor(Math.abs(cents) / 100)}.${String(Math.abs(cents) % 100).padStart(2, "0")}`
      expect(Qbxml.centsOf(text)).toBe(cents)
    }))
  })

  it("asks for iterator pages and the as-of date", () => {
    const step = Qbxml.steps.find((candidate) => candidate.step === "invoices")!
    const first = Qbxml.request(step, { requestId: "7", iteratorId: null, asOf: "2026-03-31" })
    expect(first).toContain(`<InvoiceQueryRq requestID="7" iterator="Start"><MaxReturned>100</MaxReturned>`)
    expect(first).toContain("<ToTxnDate>2026-03-31</ToTxnDate>")
    expect(first).toContain("<IncludeLineItems>true</IncludeLineItems>")
    expect(Qbxml.request(step, { requestId: "8", iteratorId: "{abc}", asOf: "2026-03-31" })).toContain(`iterator="Continue" iteratorID="{abc}"`)
  })

  it("month ends run from the first transaction's month to the as-of date", () => {
    expect(TieoutRules.monthEnds("2025-11-15", "2026-02-10")).toEqual(["2025-11-30", "2025-12-31", "2026-01-31", "2026-02-10"])
    expect(TieoutRules.monthEnds(null, "2026-02-10")).toEqual(["2026-02-10"])
  })

  it("ties out balanced random journals, and fails as soon as a source balance differs", () => {
    const accounts: Array<Staging.SourceAccount> = [
      { id: "a", name: "Bank", number: "1", type: "asset", special: null, balanceCents: 0 },
      { id: "b", name: "Sales", number: "2", type: "income", special: null, balanceCents: 0 },
      { id: "c", name: "Rent", number: "3", type: "expense", special: null, balanceCents: 0 }
    ]
    const txn = fc.record({ debit: fc.constantFrom("a", "c"), credit: fc.constantFrom("a", "b"), cents: fc.integer({ min: 1, max: 1_000_000 }), day: fc.integer({ min: 1, max: 28 }) })
    fc.assert(fc.property(fc.array(txn, { minLength: 1, maxLength: 30 }), fc.integer({ min: 1, max: 500 }), (items, skew) => {
      const txns = items.map((item, index): Staging.SourceTxn => ({
        id: String(index), type: "JournalEntry", date: `2026-01-${String(item.day).padStart(2, "0")}`, ref: null,
        lines: [{ account: item.debit, item: null, tax: false, cents: item.cents }, { account: item.credit, item: null, tax: false, cents: -item.cents }]
      }))
      const natural = new Map<string, number>()
      for (const t of txns) for (const l of t.lines) {
        const account = accounts.find((candidate) => candidate.id === l.account)!
        natural.set(l.account!, (natural.get(l.account!) ?? 0) + TieoutRules.naturalSign(account.type!) * l.cents)
      }
      const truthful = accounts.map((account) => ({ ...account, balanceCents: natural.get(account.id) ?? 0 }))
      const bundle = { accounts: truthful, customers: [], vendors: [], items: [], txns }
      expect(TieoutRules.tieout(bundle, "2026-01-31").passed).toBe(true)
      const altered = truthful.map((account, index) => index === 0 ? { ...account, balanceCents: account.balanceCents + skew } : account)
      const failed = TieoutRules.tieout({ ...bundle, accounts: altered }, "2026-01-31")
      expect(failed.passed).toBe(false)
      expect(failed.months.at(-1)!.differences[0]).toMatchObject({ account: "a", source_cents: (natural.get("a") ?? 0) + skew })
    }))
  })

  it("gives each source account one ledger code, its own number when free", () => {
    const accounts: Array<Staging.SourceAccount> = [
      { id: "1", name: "A", number: "1010", type: "asset", special: null, balanceCents: 0 },
      { id: "2", name: "B", number: "1010", type: "asset", special: null, balanceCents: 0 },
      { id: "3", name: "C", number: "bad code!", type: "income", special: null, balanceCents: 0 },
      { id: "4", name: "D", number: null, type: null, special: null, balanceCents: 0 }
    ]
    const codes = codesFor(accounts, new Set(["M0001"]))
    expect([...codes]).toEqual([["1", "1010"], ["2", "M0002"], ["3", "M0003"]])
  })
})
