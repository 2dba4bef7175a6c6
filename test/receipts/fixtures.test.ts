import { readdirSync, readFileSync } from "node:fs"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { type Company, makeReceiptsApp, type ReceiptsApp } from "./support.ts"

/**
 * The PDF corpus (test/fixtures/pdf, invoice2data's test invoices): each file uploads, its text
 * is read at once, and the fields Ledger reads itself (no provider) are compared with the
 * corpus's expected values. The table is printed and kept in docs/receipts.md; the test holds
 * the accuracy at or above what the table records, so a change that reads worse fails.
 */

const folder = new URL("../fixtures/pdf/", import.meta.url)
const names = readdirSync(folder).filter((name) => name.endsWith(".pdf")).sort()

interface Expected {
  readonly issuer?: string
  readonly amount?: number
  readonly date?: string
  readonly amount_tax?: number
  readonly amount_untaxed?: number
  readonly payment_method?: string
}

const words = (text: string) => new Set(text.toLowerCase().match(/[a-z0-9]{2,}/g) ?? [])
/** The vendor matches when one's words contain the other's ("Sammy Maystone" in "Sammy Maystone - For Lines testing"). */
const sameVendor = (read: string | null, expected: string) => {
  if (read === null) return false
  const [a, b] = [words(read), words(expected)]
  return [...a].every((word) => b.has(word)) || [...b].every((word) => a.has(word))
}
const cents = (amount: number) => Math.round(amount * 100)

let app: ReceiptsApp
let company: Company

beforeAll(async () => {
  app = await makeReceiptsApp({ reader: false })
  company = await app.createCompany()
})
afterAll(() => app.close())

describe("the PDF corpus", () => {
  it("uploads each file, reads its text, and reads its fields at least as well as recorded", async () => {
    const rows: Array<Record<string, string>> = []
    let right = 0
    let asked = 0
    for (const name of names) {
      const expected = (JSON.parse(readFileSync(new URL(name.replace(/\.pdf$/, ".expected.json"), folder), "utf8")) as Array<Expected>)[0]!
      const uploaded = await app.upload(company, new Uint8Array(readFileSync(new URL(name, folder))), name)
      expect(uploaded.status, name).toBe(201)
      expect(uploaded.body.has_text, name).toBe(true)
      const got = uploaded.body
      const checks: Array<[string, boolean | null]> = [
        ["vendor", expected.issuer === undefined ? null : sameVendor(got.vendor, expected.issuer)],
        ["date", expected.date === undefined ? null : got.date === expected.date],
        ["total", expected.amount === undefined ? null : got.total_cents === cents(expected.amount)],
        ["tax", expected.amount_tax === undefined ? null : got.tax_cents === cents(expected.amount_tax)],
        ["subtotal", expected.amount_untaxed === undefined ? null : got.subtotal_cents === cents(expected.amount_untaxed)],
        ["payment", expected.payment_method === undefined ? null : got.payment_method === (/cash/i.test(expected.payment_method) ? "cash" : "card")]
      ]
      const row: Record<string, string> = { file: name.replace(/^invoice2data_|\.pdf$/g, "") }
      for (const [field, ok] of checks) {
        row[field] = ok === null ? "-" : ok ? "yes" : "no"
        if (ok !== null) {
          asked++
          if (ok) right++
        }
      }
      rows.push(row)
    }
    const header = ["file", "vendor", "date", "total", "tax", "subtotal", "payment"]
    const table = [
      `| ${header.join(" | ")} |`,
      `| ${header.map(() => "---").join(" | ")} |`,
      ...rows.map((row) => `| ${header.map((column) => row[column]).join(" | ")} |`),
      `\nFields read right: ${right} of ${asked} (${Math.round((100 * right) / asked)} %)`
    ].join("\n")
    console.log(`\nReceipt field accuracy, Ledger's own reader (no provider):\n${table}`)
    expect(right).toBeGreaterThanOrEqual(16)
  })
})
