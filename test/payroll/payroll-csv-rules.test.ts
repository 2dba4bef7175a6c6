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

/** Issue 38 item 6: headers as the main providers and the W-2 write them (ADR 2015). */
describe("payroll header recognition", () => {
  const columnOf = (header: string) => {
    const recognised = Rules.recognise(header)
    return recognised._tag === "Column" ? recognised.target : recognised._tag
  }
  const everyAlias = [
    ...Object.entries(Rules.aliases).flatMap(([column, names]) => names.map((name) => [name, column] as const)),
    ...Object.entries(Rules.nameAliases).flatMap(([part, names]) => names.map((name) => [name, part] as const))
  ]

  it("reads the W-2's wording", () => {
    expect(columnOf("Federal Income Tax Withheld")).toBe("federal_income_tax")
    expect(columnOf("Social Security Tax Withheld")).toBe("social_security_employee")
    expect(columnOf("Medicare Tax Withheld")).toBe("medicare_employee")
    expect(columnOf("Employer Social Security Tax")).toBe("social_security_employer")
    expect(columnOf("Employer Medicare Tax")).toBe("medicare_employer")
    // Wage bases are amounts, never withholding.
    for (const base of ["Wages, Tips, Other Compensation", "Social Security Wages", "Medicare Wages and Tips", "State Wages, Tips, Etc."]) {
      expect(columnOf(base), base).toBe("NotWithholding")
    }
  })

  it("maps every alias to its own column, whatever the case, separators or a YTD affix", () => {
    // One table entry per header key: no alias is claimed by two columns, nor by the never-withholding list.
    const keys = new Map<string, string>()
    for (const [name, column] of everyAlias) {
      const key = Rules.headerKey(name)
      expect(keys.get(key) ?? column, name).toBe(column)
      keys.set(key, column)
    }
    for (const name of Rules.notWithholding) expect(keys.has(Rules.headerKey(name)), name).toBe(false)
    const separator = fc.constantFrom(" ", "_", "-", " - ", ".", "  ", "/")
    fc.assert(fc.property(fc.constantFrom(...everyAlias), fc.array(fc.boolean(), { minLength: 60, maxLength: 60 }), separator,
      fc.constantFrom("", "YTD ", "Year-to-Date ", "ytd_"), fc.constantFrom("", " YTD", " (YTD)", " Year to Date"), ([name, column], upper, sep, before, after) => {
        const cased = [...name].map((char, index) => upper[index % upper.length] ? char.toUpperCase() : char.toLowerCase()).join("")
        expect(columnOf(`${before}${cased.split(" ").join(sep)}${after}`)).toBe(column)
      }))
  })

  it("reads a state's columns named with its postal code, before or after, and adds several states'", () => {
    expect(Rules.recognise("CA SUI")).toEqual({ _tag: "Column", target: "suta", state: "CA" })
    expect(Rules.recognise("NY - Withholding")).toEqual({ _tag: "Column", target: "state_income_tax", state: "NY" })
    expect(Rules.recognise("SDI (CA)")).toEqual({ _tag: "Column", target: "state_disability_employee", state: "CA" })
    expect(Rules.recognise("CA Employment Training Tax")).toEqual({ _tag: "Column", target: "other_employer_taxes", state: "CA" })
    // Two letters that are no state's, or a rest that is no state tax, stay unknown.
    expect(columnOf("ZZ SUI")).toBe("Unknown")
    expect(columnOf("CA Union Dues")).toBe("Unknown")
    const states = ["CA", "NY", "TX", "WA", "OR", "NJ"]
    fc.assert(fc.property(fc.uniqueArray(fc.constantFrom(...states), { minLength: 1, maxLength: 6 }), fc.array(fc.integer({ min: 0, max: 500_000 }), { minLength: 6, maxLength: 6 }),
      (chosen, parts) => {
        const sui = chosen.map((_, index) => parts[index]!)
        const csv = [["Employee", "Gross Pay", ...chosen.map((state) => `${state} SUI`)], ["Ada", "1000.00", ...sui.map(money)]].map((row) => row.join(",")).join("\n")
        const parsed = Rules.parse(csv, 10)
        if (parsed._tag !== "Parsed") throw new Error(JSON.stringify(parsed))
        expect(Rules.totalsOf(parsed.parsed.rows, false).suta_cents).toBe(sui.reduce((sum, cents) => sum + cents, 0))
      }))
    const twice = Rules.parse("Employee,Gross Pay,SUI,CA SUI\nAda,100,1,1", 10)
    expect(twice).toMatchObject({ _tag: "Invalid", issues: [{ path: ["body", "csv", "header", "CA SUI"], message: "Duplicate column" }] })
  })

  /** One year's two employees as each provider writes them: the same checked totals every time. */
  const providers: Record<string, string> = {
    gusto: [
      "Employee Last Name,Employee First Name,Gross Earnings,Federal Income Tax,Social Security,Medicare,CA Income Tax,CA SDI,Net Pay,Social Security (Employer),Medicare (Employer),FUTA (Employer),CA SUI (Employer),CA ETT",
      "Lovelace,Ada,\"52,000.00\",6240.00,3224.00,754.00,2080.00,0.00,\"39,702.00\",3224.00,754.00,42.00,270.00,7.00",
      "Hopper,Grace,\"48,000.00\",5280.00,2976.00,696.00,1920.00,0.00,\"37,128.00\",2976.00,696.00,42.00,270.00,0.00"
    ].join("\n"),
    adp: [
      "Name,Gross Pay,Federal Income - EE,Social Security - EE,Medicare - EE,State Income Tax,Take Home,Social Security - ER,Medicare - ER,Federal Unemployment - ER,SUI - ER,Employee ID",
      "Ada Lovelace,52000.00,6240.00,3224.00,754.00,2080.00,39702.00,3224.00,754.00,42.00,270.00,A100",
      "Grace Hopper,48000.00,5280.00,2976.00,696.00,1920.00,37128.00,2976.00,696.00,42.00,277.00,A101"
    ].join("\r\n"),
    paychex: [
      "Employee Name,Gross,Fed Inc Tax,Soc Sec,Medicare,State Inc Tax,Net Check,ER Soc Sec,ER Medicare,ER FUTA,ER SUI,Hours",
      "Ada Lovelace,$52000.00,$6240.00,$3224.00,$754.00,$2080.00,$39702.00,$3224.00,$754.00,$42.00,$277.00,1040",
      "Grace Hopper,$48000.00,$5280.00,$2976.00,$696.00,$1920.00,$37128.00,$2976.00,$696.00,$42.00,$270.00,1040"
    ].join("\n"),
    quickbooks: [
      "Juniper Studio",
      "Payroll Summary by Employee",
      "January 1 - June 30 2026",
      "Employee,Total Pay,Federal Withholding,Social Security Employee,Medicare Employee,CA Withholding,NY Withholding,Net Pay,Social Security Company,Medicare Company,Federal Unemployment (940),CA Unemployment Tax,CA Employment Training Tax",
      "Ada Lovelace,52000.00,6240.00,3224.00,754.00,2080.00,0.00,39702.00,3224.00,754.00,42.00,270.00,7.00",
      "Grace Hopper,48000.00,5280.00,2976.00,696.00,1000.00,920.00,37128.00,2976.00,696.00,42.00,270.00,0.00",
      "Total,100000.00,11520.00,6200.00,1450.00,3080.00,920.00,76830.00,6200.00,1450.00,84.00,540.00,7.00"
    ].join("\n"),
    w2: [
      "Employee Name,Wages Tips Other Compensation,Gross Pay,Federal Income Tax Withheld,Social Security Wages,Social Security Tax Withheld,Medicare Wages and Tips,Medicare Tax Withheld,State Income Tax,Net Pay,Employer Social Security Tax,Employer Medicare Tax,FUTA Tax,SUTA Tax,Other Employer Taxes",
      "Ada Lovelace,50000.00,52000.00,6240.00,52000.00,3224.00,52000.00,754.00,2080.00,39702.00,3224.00,754.00,42.00,270.00,7.00",
      "Grace Hopper,46000.00,48000.00,5280.00,48000.00,2976.00,48000.00,696.00,1920.00,37128.00,2976.00,696.00,42.00,270.00,0.00"
    ].join("\n")
  }

  it.each(Object.keys(providers))("reads %s's year-to-date report to the same totals", (provider) => {
    const parsed = Rules.parse(providers[provider]!, 5000)
    if (parsed._tag !== "Parsed") throw new Error(JSON.stringify(parsed))
    expect(Rules.check(parsed.parsed)).toEqual([])
    expect(parsed.parsed.rows.map((row) => row.employee)).toEqual(["Ada Lovelace", "Grace Hopper"])
    expect(Rules.totalsOf(parsed.parsed.rows, true)).toMatchObject({
      gross_wages_cents: 10_000_000,
      employee_withholding_cents: 2_317_000,
      net_pay_cents: 7_683_000,
      social_security_employer_cents: 620_000,
      medicare_employer_cents: 145_000,
      futa_cents: 8_400,
      employer_tax_cents: 827_400 + 700
    })
  })

  it("checks a file without Net Pay against every withholding it read, and refuses one with amounts in columns it did not read", () => {
    fc.assert(fc.property(fc.array(employee, { minLength: 1, maxLength: 10 }), fc.nat({ max: 9 }), fc.integer({ min: 1, max: 100_000 }), fc.constantFrom("Union Dues", "Employee Taxes", "401k EE", "Garnishment"),
      (rows, pick, dues, header) => {
        const at = pick % rows.length
        // Net pay dropped; the unknown column holds an amount in one row.
        const table = [["Employee Name", "Gross Pay", "FIT", "Social Security Tax Withheld", "Medicare Tax Withheld", header],
          ...rows.map((row, index) => [row.name, money(row.fit + row.ss + row.med + row.net), money(row.fit), money(row.ss), money(row.med), index === at ? money(dues) : ""])]
        const parsed = Rules.parse(unparse(table), 5000)
        if (parsed._tag !== "Parsed") throw new Error(JSON.stringify(parsed))
        expect(parsed.parsed.ignoredHeaders).toEqual([header])
        expect(parsed.parsed.unreadAmounts).toEqual([header])
        expect(Rules.check(parsed.parsed)).toContainEqual(expect.objectContaining({ path: ["body", "csv", "header", header] }))
        // Without that column, net pay is gross less every withholding read: Social Security and Medicare included.
        const without = Rules.parse(unparse(table.map((cells) => cells.slice(0, 5))), 5000)
        if (without._tag !== "Parsed") throw new Error(JSON.stringify(without))
        expect(Rules.check(without.parsed)).toEqual([])
        expect(Rules.totalsOf(without.parsed.rows, false).net_pay_cents).toBe(rows.reduce((sum, row) => sum + row.net, 0))
      }))
  })

  it("names the columns it ignored in a refusal's message", () => {
    expect(Rules.notRead([])).toBe("")
    expect(Rules.notRead(["Union Dues", "Dept"])).toBe(' Columns not read: "Union Dues", "Dept".')
    expect(Rules.notRead(Array.from({ length: 15 }, (_, index) => `C${index}`))).toMatch(/"C11" and 3 more\.$/u)
  })
})

describe("payroll header limits", () => {
  it("takes a header longer than any table's as unknown, and refuses more than 200 columns", () => {
    expect(Rules.recognise(`CA ${"x".repeat(200)} SUI`)).toEqual({ _tag: "Unknown" })
    const wide = ["Employee", "Gross Pay", ...Array.from({ length: 199 }, (_, index) => `Extra ${index}`)]
    expect(Rules.parse(`${wide.join(",")}\nAda,1`, 10)).toMatchObject({ _tag: "Invalid", message: "At most 200 columns." })
  })
})
