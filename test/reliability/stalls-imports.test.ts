import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { Limits } from "@ledger/api"
import { loads, type LoadServer, postText, startLoadServer } from "./loads.ts"

/**
 * Issue 41's statement loads (item 6) on the embedded store (or PostgreSQL with DATABASE_URL): a
 * 100,000-line CSV import, and a file one line over the cap. Before: the big import held another
 * company's requests (299 ms p99) for its 36.7 s, and the file over the cap was refused only after
 * 43.7 s of reading. Now another company is answered while each runs, every line of the import is
 * stored, and the file over the cap is refused whole (nothing of it stored). Short here (2,000
 * lines); the issue's size with `pnpm test:reliability --long`. The over-cap file is always the
 * cap's size: the cap is not a setting.
 */

let server: LoadServer
let importer: { readonly companyId: string; readonly ownerKey: string }
let other: { readonly companyId: string; readonly ownerKey: string }
let bankAccountId: number
beforeAll(async () => {
  server = await startLoadServer()
  importer = await server.createCompany("Importer Co")
  other = await server.createCompany("Other Company")
  const accounts = await server.call("GET", "/v1/accounts?limit=1000", { token: importer.ownerKey })
  const cash = (accounts.body.data as Array<{ code: string; type: string; subtype: string | null; name: string }>)
    .find((account) => account.type === "asset" && /bank|checking|cash/i.test(`${account.subtype ?? ""} ${account.name}`))
  const bank = await server.call("POST", "/v1/bank-accounts", {
    token: importer.ownerKey,
    body: { name: "Operating", kind: "checking", ledger_account: cash!.code }
  })
  expect(bank.status).toBe(201)
  bankAccountId = bank.body.id
}, 180_000)
afterAll(() => server?.stop())

/** `count` transactions over 2025, as a bank's CSV export writes them. */
const csv = (count: number, seed: string) => {
  const rows = ["Date,Description,Amount,Transaction ID"]
  for (let index = 0; index < count; index++) {
    const day = new Date(Date.UTC(2025, 0, 1) + Math.floor((index * 365) / count) * 86_400_000).toISOString().slice(0, 10)
    const cents = ((index * 7919) % 500_000) - 250_000 || 100
    rows.push(`${day},"Payee ${index % 997} store ${index % 13}",${(cents / 100).toFixed(2)},${seed}${index}`)
  }
  return `${rows.join("\n")}\n`
}

const importFile = (content: string, filename: string) =>
  postText(server.port, `/v1/bank-accounts/${bankAccountId}/imports`, importer.ownerKey, JSON.stringify({ format: "csv", content, filename }))

const otherIsAnswered = async () => {
  const answer = await server.call("GET", "/v1/accounts?limit=5", { token: other.ownerKey })
  expect(answer.status).toBe(200)
}

describe("a big statement import", () => {
  it("stores every line, and another company is answered while it runs", async () => {
    const importing = importFile(csv(loads.importLines, "T"), "big.csv")
    await otherIsAnswered()
    const imported = await importing
    expect(imported.status, JSON.stringify(imported.body)).toBe(201)
    expect(imported.body).toMatchObject({ lines_read: loads.importLines, lines_imported: loads.importLines, duplicates: 0 })
    await otherIsAnswered()
  }, 600_000)
})

describe("a statement one line over the cap", () => {
  it("is refused whole, stores nothing, and another company is answered while it is read", async () => {
    const before = await server.call("GET", `/v1/bank-accounts/${bankAccountId}`, { token: importer.ownerKey })
    const refusing = importFile(csv(Limits.statementLinesMax + 1, "O"), "over.csv")
    await otherIsAnswered()
    const refused = await refusing
    expect(refused.status).toBe(422)
    expect(refused.body.error.type).toBe("statement_unreadable")
    const after = await server.call("GET", `/v1/bank-accounts/${bankAccountId}`, { token: importer.ownerKey })
    expect(after.body).toEqual(before.body)
  }, 600_000)
})
