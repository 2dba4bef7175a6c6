import { afterAll, beforeAll, describe, expect, it } from "vitest"
import type { FakeCommerce } from "@ledger/testkit"
import { agentWithKey, connectMcp, newKey, type TestApp } from "../support/index.ts"
import { drainJobs, makeProviderApp, writer } from "./support.ts"

let app: TestApp
let commerce: FakeCommerce.FakeCommerce
beforeAll(async () => {
  const made = await makeProviderApp()
  app = made.app
  commerce = made.commerce
})
afterAll(() => app.close())

describe("integrations over MCP", () => {
  it("lets an agent read connections and ask for a sync, but never connect a provider", async () => {
    const company = await app.createCompany({ name: "MCP Shop" })
    const owner = writer(app, company.ownerKey)
    const started = await owner.post("/v1/integrations/connections", { provider: "provider_b" })
    const consent = commerce.consent(started.body.consent_url, { id: "shop-mcp" })
    const connection = (await owner.post("/v1/integrations/connections/complete", { state: consent.state, code: consent.code })).body
    commerce.putOrder("shop-mcp", { id: "1", name: "#1", created_at: "2026-05-01T09:00:00Z", line_items: [{ sku: "CUP", price: "8.00", quantity: 1 }] })
    const agent = await agentWithKey(app, company.ownerKey, ["read", "propose"])
    const client = await connectMcp(app, agent.key.secret, { "x-agent-model": "test-model/1.0" })
    try {
      const listed = await client.callTool({ name: "list_integration_connections", arguments: {} })
      expect((listed.structuredContent as any).data[0]).toMatchObject({ id: connection.id, provider: "provider_b" })
      const synced = await client.callTool({ name: "sync_integration_connection", arguments: { id: connection.id } })
      expect(synced.isError).toBeFalsy()
      expect(synced.structuredContent as any).toMatchObject({ status: "queued", trigger: "request" })
      await drainJobs(app)
      const runs = await owner.get(`/v1/integrations/connections/${connection.id}/sync-runs?limit=1`)
      expect(runs.body.data[0]).toMatchObject({ id: (synced.structuredContent as any).id, status: "succeeded", counts: { fetched: 1, proposed: 1 } })
      const refused = await client.callTool({ name: "create_integration_connection", arguments: { provider: "provider_a", idempotency_key: newKey() } })
      expect(refused.isError).toBe(true)
    } finally {
      await client.close()
    }
  })
})
