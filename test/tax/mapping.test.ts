import { createHash } from "node:crypto"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { auditEvents, getFile, makeTestApp, newKey, type TestApp } from "../support/index.ts"
import * as Csv from "./csv.ts"

let app: TestApp
beforeAll(async () => {
  app = await makeTestApp()
})
afterAll(() => app.close())

const setup = async () => {
  const made = await app.createCompany({ name: "Return Co" })
  const key = made.ownerKey
  const post = (path: string, body: unknown) => app.call("POST", path, { token: key, body, key: newKey() })
  const get = (path: string) => app.call("GET", path, { token: key })
  const entry = await post("/v1/journal-entries/propose", {
    entry_date: "2026-03-01",
    memo: "A quarter of business",
    lines: [
      { account: "1010", debit_cents: 500_000 },
      { account: "6020", debit_cents: 120_000 },
      { account: "6060", debit_cents: 30_000 },
      { account: "4100", credit_cents: 650_000 }
    ]
  })
  expect(entry.status, JSON.stringify(entry.body)).toBe(201)
  return { key, post, get }
}

describe("the return type and the mapping", () => {
  it("needs a return type, set on the profile or named", async () => {
    const { post, get } = await setup()
    expect((await get("/v1/tax/profile")).body.return_type).toBeNull()
    const refused = await get("/v1/tax/mapping")
    expect(refused.status).toBe(422)
    expect(refused.body.error.type).toBe("tax_return_type_required")
    expect((await post("/v1/tax/profile", { return_type: "SCHC" })).body.return_type).toBe("SCHC")
    const mapping = await get("/v1/tax/mapping")
    expect(mapping.body.return_type).toBe("SCHC")
    expect(mapping.body.unmapped_count).toBe(mapping.body.accounts.length)
    expect((await get("/v1/tax/lines")).body.data.every((line: any) => line.return_type === "SCHC")).toBe(true)
    expect((await get("/v1/tax/lines?return_type=1120")).body.data.some((line: any) => line.id === "1120-L25")).toBe(true)
    // The lines page like every list: 7 at a time, each once, in order.
    const paged: Array<string> = []
    let cursor: string | null = null
    do {
      const page: any = await get(`/v1/tax/lines?return_type=1065&limit=7${cursor === null ? "" : `&cursor=${cursor}`}`)
      paged.push(...page.body.data.map((line: any) => line.id))
      cursor = page.body.next_cursor
    } while (cursor !== null)
    const all = (await get("/v1/tax/lines?return_type=1065&limit=1000")).body.data.map((line: any) => line.id)
    expect(paged).toEqual(all)
  })

  it("maps, clears with null, refuses unknown lines and accounts; defaults fill only the unmapped", async () => {
    const { post, get } = await setup()
    await post("/v1/tax/profile", { return_type: "SCHC" })
    expect((await post("/v1/tax/mapping", { mappings: [{ account: "6020", line: "1120-13" }] })).body.error.type).toBe("unknown_tax_line")
    expect((await post("/v1/tax/mapping", { mappings: [{ account: "9999", line: "SCHC-11" }] })).body.error.type).toBe("unknown_account")
    const set = await post("/v1/tax/mapping", { mappings: [{ account: "6020", line: "SCHC-17" }, { account: "6060", line: "SCHC-27b" }] })
    expect(set.status).toBe(200)
    expect(set.body.changes).toEqual([{ account: "6020", from: null, to: "SCHC-17" }, { account: "6060", from: null, to: "SCHC-27b" }])
    const cleared = await post("/v1/tax/mapping", { mappings: [{ account: "6060", line: null }] })
    expect(cleared.body.mapping.accounts.find((row: any) => row.account === "6060").line).toBeNull()
    const dry = await post("/v1/tax/mapping/defaults", { dry_run: true })
    expect(dry.body.dry_run).toBe(true)
    expect((await get("/v1/tax/mapping")).body.accounts.find((row: any) => row.account === "6060").line).toBeNull()
    const filled = await post("/v1/tax/mapping/defaults", {})
    const rows = new Map(filled.body.mapping.accounts.map((row: any) => [row.account, row]))
    expect(rows.get("6020")).toMatchObject({ line: "SCHC-17", source: "manual" })
    expect(rows.get("6060")).toMatchObject({ line: "SCHC-24b", source: "default" })
    expect(rows.get("1010")).toMatchObject({ line: "SCHC-NR-asset" })
    expect(filled.body.mapping.unmapped_count).toBe(0)
    expect((await post("/v1/tax/mapping/defaults", {})).body.changes).toEqual([])
  })
})

describe("the trial balance by line and the exports", () => {
  it("ties to the books' trial balance, as JSON and CSV", async () => {
    const { post, get, key } = await setup()
    await post("/v1/tax/mapping/defaults", { return_type: "1120" })
    const balance = await get("/v1/tax/trial-balance?as_of=2026-12-31&return_type=1120")
    expect(balance.status).toBe(200)
    const books = await get("/v1/reports/trial-balance?as_of=2026-12-31")
    expect(balance.body.total_debit_cents).toBe(books.body.total_debit_cents)
    expect(balance.body.total_credit_cents).toBe(books.body.total_credit_cents)
    expect(balance.body.ties_to_books).toBe(true)
    expect(balance.body.lines.find((line: any) => line.line === "1120-1a")).toMatchObject({ credit_cents: 650_000, form: "Form 1120", line_number: "1a" })
    expect(balance.body.lines.find((line: any) => line.line === "1120-26")).toMatchObject({ debit_cents: 150_000 })
    const csv = await getFile(app.fetch, "/v1/tax/trial-balance?as_of=2026-12-31&return_type=1120&format=csv", key)
    expect(csv.contentType).toBe("text/csv; charset=utf-8")
    const parsed = Csv.records(csv.text)
    expect(parsed.at(-1)).toMatchObject({ Description: "Total", Debit: "6500.00", Credit: "6500.00" })
  })

  it("refuses an export while an account is unmapped; then each package is a new version that parses back", async () => {
    const { post, get, key } = await setup()
    await post("/v1/tax/profile", { return_type: "SCHC" })
    const refused = await get("/v1/tax/export?package=generic&as_of=2026-12-31")
    expect(refused.status).toBe(422)
    expect(refused.body.error.type).toBe("tax_accounts_unmapped")
    expect(refused.body.error.details.accounts).toEqual(expect.arrayContaining(["1010", "4100", "6020", "6060"]))
    await post("/v1/tax/mapping/defaults", {})
    // A JSON client (Accept: application/json) gets the envelope with the export's record.
    const generic = await app.call("GET", "/v1/tax/export?package=generic&as_of=2026-12-31", { token: key, headers: { accept: "application/json" } })
    expect(generic.status).toBe(200)
    expect(generic.body.export).toMatchObject({ package: "generic", version: 1, total_debit_cents: 650_000, total_credit_cents: 650_000 })
    expect(generic.body.export.sha256).toBe(createHash("sha256").update(generic.body.content).digest("hex"))
    const rows = Csv.records(generic.body.content)
    expect(rows.find((row) => row.Account === "6020")).toMatchObject({ Line: "SCHC-11", "Line Number": "11", Debit: "1200.00" })
    const again = await get("/v1/tax/export?package=generic&as_of=2026-12-31&format=base64")
    expect(again.body.export.version).toBe(2)
    expect(Buffer.from(again.body.content_base64, "base64").toString()).toBe(generic.body.content)
    // Without format (format=file) the export is the file itself.
    const a = await getFile(app.fetch, "/v1/tax/export?package=package_a&as_of=2026-12-31", key)
    expect(a.contentType).toBe("text/csv; charset=utf-8")
    expect(a.headers.get("content-disposition")).toMatch(/^attachment; filename=".+\.csv"/)
    const aRows = Csv.records(a.text)
    expect(aRows.reduce((sum, row) => sum + Math.round(Number(row.Balance) * 100), 0)).toBe(0)
    const b = await getFile(app.fetch, "/v1/tax/export?package=package_b&as_of=2026-12-31&format=file", key)
    expect(b.contentType).toBe("text/tab-separated-values; charset=utf-8")
    const bRows = b.text.trim().split("\r\n").slice(1).map((line: string) => line.split("\t"))
    expect(bRows.find((cells: Array<string>) => cells[0] === "4100")).toEqual(["4100", "Service Revenue", "0.00", "6500.00", "SCHC-1"])
    const c = await getFile(app.fetch, "/v1/tax/export?package=package_c&as_of=2026-12-31", key)
    const cRows = Csv.rows(c.text)
    expect(cRows[1]).toEqual(["Client", "Return Co"])
    expect(cRows.at(-1)).toEqual(["", "Total", "6500.00", "6500.00"])
    const list = await get("/v1/tax/exports")
    expect(list.body.data.map((entry: any) => entry.package)).toEqual(["package_c", "package_b", "package_a", "generic", "generic"])
    const events = await auditEvents(app, key)
    expect(events.filter((event: any) => event.action === "exportTaxReturn" && event.outcome === "ok").length).toBe(5)
  })
})
