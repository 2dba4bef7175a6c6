import { Effect } from "effect"
import { SqlClient } from "effect/sql"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { agentModel, agentWithKey, connectMcp, newKey } from "../support/index.ts"
import { everyStoredValue } from "../support/server-process.ts"
import { company, makeTaxFormsApp, paidBill, payer, profile, type TaxFormsApp, vendor } from "./support.ts"

/**
 * TINs never appear unmasked in any response, log or table but the sealed columns: a whole year
 * (payer, profiles, a W-9, amounts, a filing proposed, approved and downloaded), then every stored
 * value and every read's answer are scanned for the numbers.
 */

let t: TaxFormsApp
beforeAll(async () => {
  t = await makeTaxFormsApp()
})
afterAll(() => t.app.close())

const secrets = ["123456789", "12-3456789", "987654321", "987-65-4321", "444556666", "444-55-6666", "98765432"]
const leaks = (text: string) => secrets.filter((secret) => text.includes(secret))

describe("TINs at rest and on the wire", () => {
  it("appear only sealed in the database, and masked in every answer but reveal and the filed copy", async () => {
    const c = await company(t.app, "Secret Co")
    const answers: Array<unknown> = []
    const keep = async (result: Promise<{ status: number; body: any }>) => {
      const answer = await result
      answers.push(answer.body)
      return answer
    }
    await keep(c.post("/v1/tax-forms/payer", { ...payer, tin: "12-3456789" }))
    const v = await vendor(c, "Sue Secret", { tin: "987-65-4321" })
    const w = await vendor(c, "Wes Web", null)
    await keep(c.post("/v1/w9-requests", { contact_id: w }))
    const jobs = await t.app.query<{ payload: any }>("SELECT payload FROM jobs WHERE kind = 'w9.request_email'")
    const link: string = (typeof jobs.at(-1)!.payload === "string" ? JSON.parse(jobs.at(-1)!.payload) : jobs.at(-1)!.payload).link
    await keep(t.app.call("POST", `/v1${new URL(link).pathname}`, { body: { ...profile({ legal_name: "Wes Web", tin: "444-55-6666" }), certify: true } }))
    await paidBill(c, v, 250_000, "6020", "2026-02-10")
    await paidBill(c, w, 250_000, "6020", "2026-02-11")
    await keep(c.get("/v1/tax-forms/payer"))
    await keep(c.get(`/v1/vendors/${v}/tax-profile`))
    await keep(c.get(`/v1/vendors/${w}/tax-profile`))
    await keep(c.get("/v1/tax-forms/1099?year=2026"))
    await keep(c.post("/v1/tax-forms/filings", { year: 2026, provider: "gov_a2a", dry_run: true }))
    const proposed = await keep(c.post("/v1/tax-forms/filings", { year: 2026, provider: "gov_a2a" }))
    await keep(c.post(`/v1/tax-forms/filings/${proposed.body.id}/approve`, { preview_sha256: proposed.body.preview_sha256 }))
    await keep(c.get(`/v1/tax-forms/filings/${proposed.body.id}`))
    await keep(c.get("/v1/tax-forms/filings"))
    // A malformed TIN is refused without being echoed into the answer or the audit log.
    const malformed = await keep(c.post(`/v1/vendors/${v}/tax-profile`, profile({ legal_name: "Sue Secret", tin: "98765432" })))
    expect(malformed.status).toBe(400)
    await keep(c.get("/v1/audit/events?limit=1000"))
    expect(leaks(JSON.stringify(answers))).toEqual([])

    // The two ways to see a full TIN do show it.
    expect((await c.post(`/v1/vendors/${v}/tax-profile/reveal`, {})).body.tin).toBe("987654321")
    const filed = await c.get(`/v1/tax-forms/filings/${proposed.body.id}/filed?format=json`)
    expect(leaks(filed.body.content)).toEqual(expect.arrayContaining(["123456789", "987654321", "444556666"]))

    const stored = await t.app.runtime.runPromise(Effect.gen(function*() {
      return yield* everyStoredValue(yield* SqlClient.SqlClient)
    }))
    const found = stored.values.filter((entry) => leaks(entry.value).length > 0).map((entry) => `${entry.table}.${entry.column}`)
    expect(found).toEqual([])
  })
})

describe("over MCP", () => {
  it("an agent reads the 1099 amounts and proposes a filing, but cannot reveal a TIN or approve", async () => {
    const c = await company(t.app, "Mcp Co")
    await c.post("/v1/tax-forms/payer", payer)
    const v = await vendor(c, "Ann Agentread")
    await paidBill(c, v, 300_000, "6020", "2026-04-10")
    const agent = await agentWithKey(t.app, c.key, ["read", "propose"])
    const client = await connectMcp(t.app, agent.key.secret, { "x-agent-model": agentModel, "x-ledger-toolsets": "taxforms" })
    try {
      const tools = (await client.listTools()).tools.map((tool) => tool.name)
      expect(tools).toEqual(expect.arrayContaining(["get1099_summary", "create_filing", "list_filings"]))
      expect(tools).not.toContain("approve_filing")
      expect(tools).not.toContain("submit_w9")
      const summary = await client.callTool({ name: "get1099_summary", arguments: { year: 2026 } })
      expect(summary.isError).toBeFalsy()
      expect((summary.structuredContent as any).recipients[0]).toMatchObject({ contact_id: v, nec_cents: 300_000, tin_masked: "***-**-6789" })
      const proposed = await client.callTool({ name: "create_filing", arguments: { year: 2026, provider: "partner_mock", idempotency_key: newKey() } })
      expect(proposed.isError).toBeFalsy()
      expect((proposed.structuredContent as any).status).toBe("proposed")
      const reveal = await client.callTool({ name: "reveal_vendor_tin", arguments: { id: v } })
      expect(reveal.isError).toBe(true)
    } finally {
      await client.close()
    }
  })
})
