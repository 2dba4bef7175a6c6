import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { type BankingApp, type Company, makeBankingApp } from "./support.ts"

/**
 * Issue 19 item 14 (ADR 0401): a CSV profile that names its columns by their header text reads
 * that header row whatever its words, below a preamble too. Before, only the built-in header words
 * found the header row, so a bank's own words ("Wertstellung", "Umsatz") were refused unless the
 * profile also said `header: true`, and a preamble row was then taken for the header.
 */

let app: BankingApp
let company: Company
let nextCode = 1710
beforeAll(async () => {
  app = await makeBankingApp()
  company = await app.createCompany({ name: "Header Words Co" })
}, 120_000)
afterAll(() => app?.close())

const bankAccount = async (profile: Record<string, unknown>) => {
  const code = String(nextCode++)
  expect((await app.write("/v1/accounts", company.ownerKey, { code, name: `Bank ${code}`, type: "asset", subtype: "bank" })).status).toBe(201)
  const bank = await app.write("/v1/bank-accounts", company.ownerKey, { name: `Words ${code}`, kind: "checking", ledger_account: code, csv_profile: profile })
  expect(bank.status, JSON.stringify(bank.body)).toBe(201)
  return bank.body.id as number
}

const statement = [
  "Kontoauszug Girokonto;;",
  "Zeitraum;01.03.2026 - 31.03.2026;",
  ";;",
  "Wertstellung;Umsatz;Verwendungszweck",
  "02.03.2026;-12,50;Bäckerei Müller",
  "05.03.2026;1.250,00;Gutschrift Kunde 4711",
  "09.03.2026;-99,99;Stadtwerke"
].join("\n")

describe("CSV profiles naming columns by header text", () => {
  it("finds the header row by the profile's own words below a preamble", async () => {
    const bankAccountId = await bankAccount({ date_column: "Wertstellung", amount_column: "Umsatz", memo_columns: ["Verwendungszweck"] })
    const preview = await app.write(`/v1/bank-accounts/${bankAccountId}/imports`, company.ownerKey, {
      format: "csv",
      content: statement,
      dry_run: true
    })
    expect(preview.status, JSON.stringify(preview.body)).toBe(200)
    const lines = preview.body.lines as Array<{ date: string; amount_cents: number }>
    expect(lines.map((line) => [line.date, line.amount_cents])).toEqual([
      ["2026-03-02", -1250],
      ["2026-03-05", 125000],
      ["2026-03-09", -9999]
    ])
  })

  it("names the missing column when no row holds the profile's header words", async () => {
    const bankAccountId = await bankAccount({ date_column: "Valuta", amount_column: "Umsatz" })
    const refused = await app.write(`/v1/bank-accounts/${bankAccountId}/imports`, company.ownerKey, {
      format: "csv",
      content: statement,
      dry_run: true
    })
    expect(refused.status).toBe(422)
    expect(JSON.stringify(refused.body.error)).toContain("Valuta")
  })
})
