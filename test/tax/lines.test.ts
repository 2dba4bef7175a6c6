import fc from "fast-check"
import { describe, expect, it } from "vitest"
import { ReturnLines, StarterCharts, TaxMappingRules as MappingRules } from "@ledger/engine/rules"

describe("return lines as data", () => {
  it("every line id is unique and names its return", () => {
    const all = ReturnLines.returnTypes.flatMap((type) => ReturnLines.byReturnType[type])
    expect(new Set(all.map((line) => line.id)).size).toBe(all.length)
    for (const line of all) expect(line.id.startsWith(`${line.return_type}-`)).toBe(true)
  })

  it("Schedule C's Part II expense lines run from 8 to 27b as printed", () => {
    const partII = ReturnLines.scheduleC.filter((line) => line.form === "Schedule C Part II").map((line) => line.line)
    expect(partII).toEqual(["8", "9", "10", "11", "12", "13", "14", "15", "16a", "16b", "17", "18", "19", "20a", "20b", "21", "22", "23", "24a", "24b", "25", "26", "27a", "27b"])
  })

  it("Form 1120 has its deductions 12 to 26, Schedule L and Schedule M-1", () => {
    const lines = ReturnLines.byReturnType["1120"]
    expect(lines.filter((line) => line.kind === "deduction").map((line) => line.line)).toEqual(["12", "13", "14", "15", "16", "17", "18", "19", "20", "21", "22", "23", "24", "26"])
    expect(lines.find((line) => line.id === "1120-L1")).toMatchObject({ form: "Schedule L", line: "1", description: "Cash" })
    expect(lines.find((line) => line.id === "1120-M1-2")).toMatchObject({ form: "Schedule M-1", description: "Federal income tax per books" })
    // Form 1065 numbers its Schedule L liabilities from 15.
    expect(ReturnLines.find("1065", "1065-L16")).toMatchObject({ line: "15", description: "Accounts payable" })
  })

  it("every default is a line of its return, for every account of every starter chart and any subtype", () => {
    const accounts = [StarterCharts.general, StarterCharts.services].flatMap((chart) => chart.accounts)
    for (const type of ReturnLines.returnTypes) {
      for (const account of accounts) expect(ReturnLines.find(type, MappingRules.defaultLine(type, account)), `${type} ${account.code}`).toBeDefined()
    }
    fc.assert(fc.property(
      fc.constantFrom(...ReturnLines.returnTypes),
      fc.constantFrom("asset", "liability", "equity", "income", "expense"),
      fc.option(fc.string({ maxLength: 20 }), { nil: null }),
      (type, accountType, subtype) => {
        expect(ReturnLines.find(type, MappingRules.defaultLine(type, { type: accountType, subtype }))).toBeDefined()
      }
    ))
  })

  it("defaults follow the subtype: contract labor is Schedule C line 11, wages 1120 line 13, draws 1120-S Schedule K 16d", () => {
    expect(MappingRules.defaultLine("SCHC", { type: "expense", subtype: "contractors" })).toBe("SCHC-11")
    expect(MappingRules.defaultLine("SCHC", { type: "expense", subtype: "meals" })).toBe("SCHC-24b")
    expect(MappingRules.defaultLine("1120", { type: "expense", subtype: "payroll_expenses" })).toBe("1120-13")
    expect(MappingRules.defaultLine("1120S", { type: "equity", subtype: "owners_draw" })).toBe("1120S-K16d")
    expect(MappingRules.defaultLine("1065", { type: "asset", subtype: "bank" })).toBe("1065-L1")
    expect(MappingRules.defaultLine("1120", { type: "expense", subtype: "something_new" })).toBe("1120-26")
  })
})
