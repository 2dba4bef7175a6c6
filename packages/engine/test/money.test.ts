import fc from "fast-check"
import { describe, expect, it } from "vitest"
import { PayrollCsvRules, Qbxml, ReceiptTextFields, StatementAmount } from "@ledger/engine/rules"
import * as Money from "../src/kernel/values/Money.ts"

/**
 * Text to cents, as each caller reads it. The table was written from the four parsers as they were
 * before they shared one module (banking's statements, QuickBooks Desktop and Online migrations,
 * payroll CSVs, receipts' text): each kept its own grammar, and these rows hold it in place.
 * A thrown refusal is `{ throws: message }`; -0 is QuickBooks' "-" and "-0", kept as it was.
 */

type Outcome = number | null | { readonly throws: string }

/** [text, statement (guessed separator), statement ".", statement ",", QuickBooks with field "Balance", payroll]. */
const table: ReadonlyArray<readonly [string, Outcome, Outcome, Outcome, Outcome, Outcome]> = [
  ["", null, null, null, 0, 0],
  [" ", null, null, null, 0, 0],
  ["0", 0, 0, 0, 0, 0],
  ["-0", 0, 0, 0, -0, null],
  ["+0", 0, 0, 0, 0, null],
  ["0.00", 0, 0, 0, 0, 0],
  ["12", 1200, 1200, 1200, 1200, 1200],
  ["12.3", 1230, 1230, 12300, 1230, 1230],
  ["12.34", 1234, 1234, 123400, 1234, 1234],
  ["12.345", 1235, 1235, 1234500, { throws: "Balance: 12.345 has more than 2 decimals" }, null],
  ["12.340", 1234, 1234, 1234000, 1234, null],
  ["12.3400", 1234, 1234, 12340000, 1234, null],
  ["12.", 1200, 1200, 1200, 1200, null],
  [".5", 50, 50, 500, 50, 50],
  [".05", 5, 5, 500, 5, 5],
  [".", null, null, null, 0, null],
  ["-", null, null, null, -0, 0],
  ["+", null, null, null, 0, null],
  ["-12.34", -1234, -1234, -123400, -1234, null],
  ["+12.34", 1234, 1234, 123400, 1234, null],
  ["1,234.56", 123456, 123456, 123, 123456, 123456],
  ["1,234", 123400, 123400, 123, 123400, 123400],
  ["1,23", 123, 12300, 123, 12300, 12300],
  ["1.234,56", 123456, 123, 123456, { throws: "Balance: 1.23456 has more than 2 decimals" }, null],
  ["$1,234.56", 123456, 123456, 123, { throws: "Balance: not an amount: $1234.56" }, 123456],
  ["$ 12.00", 1200, 1200, 120000, { throws: "Balance: not an amount: $ 12.00" }, 1200],
  ["-$21.59", -2159, -2159, -215900, { throws: "Balance: not an amount: -$21.59" }, null],
  ["(85.00)", -8500, -8500, -850000, { throws: "Balance: not an amount: (85.00)" }, null],
  ["12-", -1200, -1200, -1200, { throws: "Balance: not an amount: 12-" }, null],
  ["1234,37 EUR", 123437, 12343700, 123437, { throws: "Balance: not an amount: 123437 EUR" }, null],
  ["£500.00", 50000, 50000, 5000000, { throws: "Balance: not an amount: £500.00" }, null],
  ["11'373.94", 1137394, 1137394, 113739400, { throws: "Balance: not an amount: 11'373.94" }, null],
  ["abc", null, null, null, { throws: "Balance: not an amount: abc" }, null],
  ["1e3", null, null, null, { throws: "Balance: not an amount: 1e3" }, null],
  ["0x10", null, null, null, { throws: "Balance: not an amount: 0x10" }, null],
  ["12.3.4", null, null, 123400, { throws: "Balance: not an amount: 12.3.4" }, null],
  ["999999999999", 99999999999900, 99999999999900, 99999999999900, 99999999999900, 99999999999900],
  ["999999999999.99", 99999999999999, 99999999999999, null, 99999999999999, 99999999999999],
  ["1000000000000", 100000000000000, 100000000000000, 100000000000000, 100000000000000, null],
  ["90071992547409.91", null, null, null, 9007199254740991, null],
  ["9007199254740993", null, null, null, { throws: "Balance: 9007199254740993 is out of range" }, null],
  ["  7.10  ", 710, 710, 71000, 710, 710],
  ["1 234.56", 123456, 123456, 12345600, { throws: "Balance: not an amount: 1 234.56" }, null],
  ["12,345,678.9", 1234567890, 1234567890, null, 1234567890, 1234567890],
  ["--5", 500, 500, 500, { throws: "Balance: not an amount: --5" }, null],
  ["$-5", -500, -500, -500, { throws: "Balance: not an amount: $-5" }, null],
  ["0.005", 1, 1, 500, { throws: "Balance: 0.005 has more than 2 decimals" }, null],
  ["0.004", 0, 0, 400, { throws: "Balance: 0.004 has more than 2 decimals" }, null],
  ["-0.005", -1, -1, -500, { throws: "Balance: -0.005 has more than 2 decimals" }, null],
  ["-00000000001500.0000", -150000, -150000, -1500000000, -150000, null],
  ["- $21.59", -2159, -2159, -215900, { throws: "Balance: not an amount: - $21.59" }, null],
  ["+120,00", 12000, 1200000, 12000, 1200000, null],
  ["R$ 10,00", 1000, 100000, 1000, { throws: "Balance: not an amount: R$ 1000" }, null],
  ["100 kr", 10000, 10000, 10000, { throws: "Balance: not an amount: 100 kr" }, null],
  ["1.234.567", null, null, 123456700, { throws: "Balance: not an amount: 1.234.567" }, null],
  ["1,234,567", 123456700, 123456700, null, 123456700, 123456700],
  [",5", 50, 500, 50, 500, 500],
  ["(-5)", 500, 500, 500, { throws: "Balance: not an amount: (-5)" }, null],
  ["١٢", null, null, null, { throws: "Balance: not an amount: ١٢" }, null],
]

const outcome = (read: () => number | null): Outcome => {
  try {
    return read()
  } catch (error) {
    return { throws: (error as Error).message }
  }
}

describe("text to cents, each caller's grammar", () => {
  it.each(table)("%j", (text, statement, statementDot, statementComma, quickBooks, payroll) => {
    expect(outcome(() => StatementAmount.parseCents(text))).toStrictEqual(statement)
    expect(outcome(() => StatementAmount.parseCents(text, "."))).toStrictEqual(statementDot)
    expect(outcome(() => StatementAmount.parseCents(text, ","))).toStrictEqual(statementComma)
    expect(outcome(() => Qbxml.centsOf(text, "Balance"))).toStrictEqual(quickBooks)
    expect(outcome(() => PayrollCsvRules.parseAmount(text))).toStrictEqual(payroll)
  })

  it("QuickBooks reads a missing value as zero, names the field Amount by default, and refuses a float's noise", () => {
    expect(Qbxml.centsOf(undefined)).toBe(0)
    expect(Qbxml.centsOf(null)).toBe(0)
    expect(Qbxml.centsOf(12.5)).toBe(1250)
    expect(() => Qbxml.centsOf(0.1 + 0.2)).toThrow("Amount: 0.30000000000000004 has more than 2 decimals")
    expect(() => Qbxml.centsOf("x")).toThrow("Amount: not an amount: x")
  })

  it("receipts join a whole part with its separators and two fraction digits", () => {
    expect(ReceiptTextFields.centsOf("1,234", "56")).toBe(123456)
    expect(ReceiptTextFields.centsOf("1 234", "56")).toBe(123456)
    expect(ReceiptTextFields.centsOf("0", "05")).toBe(5)
    expect(ReceiptTextFields.centsOf("00012", "30")).toBe(1230)
    expect(ReceiptTextFields.amountsIn("Total $1,234.56 and Rs 1939")).toStrictEqual([123456, 193900])
  })

  it("every parser gives back the cents it is shown, written plainly", () => {
    fc.assert(fc.property(fc.integer({ min: 0, max: 99_999_999_999_999 }), (cents) => {
      const text = `${Math.floor(cents / 100)}.${String(cents % 100).padStart(2, "0")}`
      expect(StatementAmount.parseCents(text)).toBe(cents)
      expect(Qbxml.centsOf(text)).toBe(cents)
      expect(Qbxml.centsOf(`-${text}`)).toBe(-cents)
      expect(PayrollCsvRules.parseAmount(text)).toBe(cents)
      expect(ReceiptTextFields.centsOf(String(Math.floor(cents / 100)), text.slice(-2))).toBe(cents)
    }))
  })
})

describe("the shared steps (kernel/values/Money.ts)", () => {
  const digits = (length: { min: number; max: number }) => fc.string({ unit: fc.constantFrom(..."0123456789"), minLength: length.min, maxLength: length.max })

  it("digitsToCents is whole * 100 + fraction, exactly, for any number of digits", () => {
    fc.assert(fc.property(digits({ min: 0, max: 30 }), digits({ min: 0, max: 2 }), (whole, fraction) => {
      const exact = BigInt(whole === "" ? "0" : whole) * 100n + BigInt(fraction.padEnd(2, "0"))
      const cents = Money.digitsToCents(whole, fraction)
      if (exact <= BigInt(Number.MAX_SAFE_INTEGER)) expect(BigInt(cents)).toBe(exact)
      else expect(Number.isSafeInteger(cents)).toBe(false)
    }))
  })

  it("parsePlainCents says why it refuses", () => {
    expect(Money.parsePlainCents("12.5")).toStrictEqual({ cents: 1250 })
    expect(Money.parsePlainCents("-12.500")).toStrictEqual({ cents: -1250 })
    expect(Money.parsePlainCents("1,234")).toStrictEqual({ refused: "not_an_amount" })
    expect(Money.parsePlainCents("0.125")).toStrictEqual({ refused: "more_than_two_decimals" })
    expect(Money.parsePlainCents("90071992547409.92")).toStrictEqual({ refused: "out_of_range" })
  })

  it("parseCents reads its own sign and separators the same whichever way a bank writes an amount", () => {
    fc.assert(fc.property(fc.integer({ min: -99_999_999_99, max: 99_999_999_99 }), (cents) => {
      const whole = Math.floor(Math.abs(cents) / 100).toLocaleString("en-US")
      const fraction = String(Math.abs(cents) % 100).padStart(2, "0")
      const european = `${whole.replaceAll(",", ".")},${fraction}`
      const sign = cents < 0 ? "-" : ""
      expect(Money.parseCents(`${sign}${whole}.${fraction}`)).toBe(cents)
      expect(Money.parseCents(`${sign}${european}`, ",")).toBe(cents)
      expect(Money.parseCents(cents < 0 ? `($${whole}.${fraction})` : `$${whole}.${fraction}`)).toBe(cents)
    }))
  })
})
