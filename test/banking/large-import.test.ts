import fc from "fast-check"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { Limits } from "@ledger/api"
import { statementLinesBound as linesBound, StatementReader as Reader } from "@ledger/engine/rules"
import { makeTestApp, newKey, type TestApp } from "../support/index.ts"

/**
 * A statement is a file: its import takes a body far past the ordinary 1 MB limit
 * (Limits.statementBodyBytesMax), while every other operation keeps the ordinary one.
 */
let app: TestApp
beforeAll(async () => {
  app = await makeTestApp()
})
afterAll(() => app.close())

const statement = (lines: number): string => {
  const rows = ["Date,Description,Amount"]
  for (let index = 0; index < lines; index++) {
    const day = String(1 + (index % 28)).padStart(2, "0")
    rows.push(`2026-03-${day},Card purchase number ${index} at a shop with a long name,-${1 + (index % 900)}.${String(index % 100).padStart(2, "0")}`)
  }
  return `${rows.join("\n")}\n`
}

describe("statement import body size", () => {
  it("imports a statement larger than the ordinary body limit over HTTP, and no other body that large", async () => {
    const company = await app.createCompany()
    const bank = await app.call("POST", "/v1/bank-accounts", {
      token: company.ownerKey,
      key: newKey(),
      body: { name: "Operating", kind: "checking", ledger_account: "1010" }
    })
    expect(bank.status).toBe(201)
    const content = statement(25_000)
    expect(content.length).toBeGreaterThan(Limits.requestBodyBytesMax)

    const imported = await app.call("POST", `/v1/bank-accounts/${bank.body.id}/imports`, {
      token: company.ownerKey,
      key: newKey(),
      body: { format: "csv", content }
    })
    expect(imported.status).toBe(201)
    expect(imported.body.lines_imported).toBe(25_000)

    const tooLarge = await app.call("POST", "/v1/users", {
      token: company.ownerKey,
      key: newKey(),
      body: { name: "x".repeat(Limits.requestBodyBytesMax + 10), role: "staff" }
    })
    expect(tooLarge.status).toBe(413)
    expect(tooLarge.body.error.type).toBe("payload_too_large")
  })
})

describe("statement import line limit", () => {
  it("refuses a file past the line limit as the reader passes it, before any line is written", async () => {
    const company = await app.createCompany()
    const bank = await app.call("POST", "/v1/bank-accounts", {
      token: company.ownerKey,
      key: newKey(),
      body: { name: "Operating", kind: "checking", ledger_account: "1010" }
    })
    expect(bank.status).toBe(201)
    // limit + 2 readable transactions, then a row the reader cannot read: a reader that went on
    // past the limit + 1st transaction (and the row after it, which the CSV reader looks at for a
    // continued description) would answer that row's error instead of the limit's.
    const rows = ["Date,Description,Amount"]
    for (let index = 0; index < Limits.statementLinesMax + 2; index++) rows.push(`2026-03-${String(1 + (index % 28)).padStart(2, "0")},Shop ${index},-1.${String(index % 100).padStart(2, "0")}`)
    rows.push("not a date,Broken row,oops")
    const refused = await app.call("POST", `/v1/bank-accounts/${bank.body.id}/imports`, {
      token: company.ownerKey,
      key: newKey(),
      body: { format: "csv", content: `${rows.join("\n")}\n` }
    })
    expect(refused.status).toBe(422)
    expect(refused.body.error.type).toBe("statement_unreadable")
    expect(refused.body.error.details.reason).toBe("too many transactions")
    expect(refused.body.error.details.lines_read).toBe(Limits.statementLinesMax + 1)
    // The header is line 1: the limit + 1st transaction is on line limit + 2.
    expect(refused.body.error.details.line).toBe(Limits.statementLinesMax + 2)

    const lines = await app.call("GET", `/v1/bank-lines?bank_account_id=${bank.body.id}`, { token: company.ownerKey })
    expect(lines.status).toBe(200)
    expect(lines.body.data).toHaveLength(0)

    // The broken row is refused wherever the reader reaches it.
    const broken = await app.call("POST", `/v1/bank-accounts/${bank.body.id}/imports`, {
      token: company.ownerKey,
      key: newKey(),
      body: { format: "csv", content: `${[rows[0], rows[1], rows[2], rows[rows.length - 1]].join("\n")}\n`, dry_run: true }
    })
    expect(broken.status).toBe(422)
    expect(broken.body.error.details.reason).not.toBe("too many transactions")
  }, 300_000)
})

describe("the line bound that decides whether a file is counted before it is written", () => {
  const transactions = (format: "csv" | "ofx", content: string): number => {
    const reader = Reader.open({ format, content, contentEncoding: "text", profile: null, mask: null })
    let count = 0
    while (reader.next() !== null) count++
    return count
  }
  it("never counts fewer transactions than the reader reads, whatever the line endings", () => {
    fc.assert(fc.property(
      fc.array(fc.record({ day: fc.integer({ min: 1, max: 28 }), cents: fc.integer({ min: -99_999, max: 99_999 }), quotedBreak: fc.boolean() }), { minLength: 1, maxLength: 30 }),
      fc.constantFrom("\n", "\r\n", "\r"),
      fc.constantFrom("csv" as const, "ofx" as const),
      (rows, newline, format) => {
        const amount = (cents: number) => `${cents < 0 ? "-" : ""}${Math.floor(Math.abs(cents) / 100)}.${String(Math.abs(cents) % 100).padStart(2, "0")}`
        const content = format === "csv"
          ? ["Date,Description,Amount", ...rows.map((row, index) =>
            `2026-03-${String(row.day).padStart(2, "0")},"Shop${row.quotedBreak ? newline : " "}${index}",${amount(row.cents || 1)}`)].join(newline)
          : ["OFXHEADER:100", "DATA:OFXSGML", "VERSION:102", "", "<OFX><BANKMSGSRSV1><STMTTRNRS><STMTRS><CURDEF>USD<BANKTRANLIST>",
            ...rows.map((row, index) =>
              `<${index % 2 === 0 ? "STMTTRN" : "stmttrn"}><TRNTYPE>DEBIT<DTPOSTED>202603${String(row.day).padStart(2, "0")}<TRNAMT>${amount(row.cents || 1)}<FITID>F${index}</STMTTRN>`),
            "</BANKTRANLIST></STMTRS></STMTTRNRS></BANKMSGSRSV1></OFX>"].join(newline)
        const read = transactions(format, content)
        expect(read).toBe(rows.length)
        expect(linesBound(format, content)).toBeGreaterThanOrEqual(read)
      }
    ), { numRuns: 200 })
  })
})

