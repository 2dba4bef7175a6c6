import fc from "fast-check"
import { describe, expect, it } from "vitest"
import { PayrollCsvRules as Rules } from "@ledger/engine/rules"

const money = (cents: number) => `${Math.floor(cents / 100)}.${String(cents % 100).padStart(2, "0")}`
const employee = fc.record({
  name: fc.string({ minLength: 1, maxLength: 30 }).filter((name) => name.trim() !== "" && !/^(grand\s+)?totals?:?$/i.test(name.trim()) && !/[\r\n]/.test(name)),
  fit: fc.integer({ min: 0, max: 2_000_000 }),
  ss: fc.integer({ min: 0, max: 1_000_000 }),
  med: fc.integer({ min: 0, max: 300_000 }),
  net: fc.integer({ min: 0, max: 20_000_000 }),
  futa: fc.integer({ min: 0, max: 42_00 })
})

const quote = (cell: string) => /[",\r\n]/.test(cell) || cell !== cell.trim() ? `"${cell.replace(/"/g, '""')}"` : cell
const unparse = (table: ReadonlyArray<ReadonlyArray<string>>) => table.map((row) => row.map(quote).join(",")).join("\r\n")

const csvOf = (rows: ReadonlyArray<typeof employee extends fc.Arbitrary<infer T> ? T : never>, withTotal: boolean, nudge = 0) => {
  const body = rows.map((row) => [row.name, money(row.fit + row.ss + row.med + row.net), money(row.fit), money(row.ss), money(row.med), money(row.net), money(row.futa)])
  const sum = (pick: (row: typeof rows[number]) => number) => rows.reduce((total, row) => total + pick(row), 0)
  const total = ["Total", money(sum((row) => row.fit + row.ss + row.med + row.net) + nudge), money(sum((row) => row.fit)), money(sum((row) => row.ss)), money(sum((row) => row.med)), money(sum((row) => row.net)), money(sum((row) => row.futa))]
  return unparse([["Employee Name", "Gross Pay", "FIT", "OASDI EE", "Medicare EE", "Net Pay", "FUTA"], ...body, ...(withTotal ? [total] : [])])
}

describe("payroll CSV rules", () => {
  it("reads amounts exactly, refusing what is not an amount", () => {
    expect(Rules.parseAmount("$1,234.56")).toBe(123_456)
    expect(Rules.parseAmount("1234.5")).toBe(123_450)
    expect(Rules.parseAmount(".07")).toBe(7)
    expect(Rules.parseAmount("")).toBe(0)
    expect(Rules.parseAmount("-5.00")).toBeNull()
    expect(Rules.parseAmount("1.234")).toBeNull()
    fc.assert(fc.property(fc.integer({ min: 0, max: 1_000_000_000_00 }), (cents) => {
      expect(Rules.parseAmount(money(cents))).toBe(cents)
    }))
  })

  it("accepts any file whose rows add up, with totals equal to the column sums and a balanced entry", () => {
    fc.assert(fc.property(fc.array(employee, { minLength: 1, maxLength: 20 }), fc.boolean(), (rows, withTotal) => {
      const parsed = Rules.parse(csvOf(rows, withTotal), 5000)
      expect(parsed._tag).toBe("Parsed")
      if (parsed._tag !== "Parsed") return
      expect(Rules.check(parsed.parsed)).toEqual([])
      const totals = Rules.totalsOf(parsed.parsed.rows, true)
      expect(totals.gross_wages_cents).toBe(rows.reduce((sum, row) => sum + row.fit + row.ss + row.med + row.net, 0))
      expect(totals.gross_wages_cents).toBe(totals.employee_withholding_cents + totals.net_pay_cents)
      const lines = Rules.summaryLines(totals, { wages: "6110", employerTax: "6120", liability: "2300", netPay: "1010" })
      const debit = lines.reduce((sum, line) => sum + (line.debit_cents ?? 0), 0)
      const credit = lines.reduce((sum, line) => sum + (line.credit_cents ?? 0), 0)
      expect(debit).toBe(credit)
    }))
  })

  it("refuses a Total row off by any amount", () => {
    fc.assert(fc.property(fc.array(employee, { minLength: 1, maxLength: 10 }), fc.integer({ min: 1, max: 100_000 }), (rows, nudge) => {
      const parsed = Rules.parse(csvOf(rows, true, nudge), 5000)
      if (parsed._tag !== "Parsed") throw new Error("unreadable")
      expect(Rules.check(parsed.parsed).length).toBeGreaterThan(0)
    }))
  })
})
