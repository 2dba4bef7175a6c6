import { Layer } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { Ports } from "@ledger/engine"
import { TokenSealer } from "@ledger/engine/ports"
import { Providers } from "@ledger/testkit"
import { HttpWebhookTransport } from "@ledger/server/adapters"
import {
  agentWithKey,
  auditEvents,
  expectErrorBody,
  makeTestApp,
  newKey,
  personWithKey,
  type TestApp,
  type TestCompany
} from "../support/index.ts"

/**
 * Webhook endpoints over HTTP (spec 4.15) with the real transport as a server runs it: https at a
 * public address only (LEDGER_WEBHOOK_ALLOW_PRIVATE unset). DNS is replaced by a table, so that a
 * name resolving to a private address can be refused without the network.
 */

const dns: Record<string, ReadonlyArray<{ address: string; family: number }>> = {
  "hooks.example.com": [{ address: "93.184.215.14", family: 4 }],
  "loopback.example.com": [{ address: "127.0.0.1", family: 4 }],
  "mixed.example.com": [{ address: "93.184.215.14", family: 4 }, { address: "10.1.2.3", family: 4 }],
  "metadata.example.com": [{ address: "169.254.169.254", family: 4 }],
  "v6loop.example.com": [{ address: "::1", family: 6 }]
}

let app: TestApp
let company: TestCompany

beforeAll(async () => {
  app = await makeTestApp({
    providers: Layer.mergeAll(
      Ports.layerUnconfigured,
      TokenSealer.layerFromKey(Providers.masterKeyOf(7)),
      HttpWebhookTransport.layer({
        allowPrivate: false,
        resolve: async (hostname) => {
          const answer = dns[hostname]
          // What Node's resolver rejects with for a name that does not exist.
          if (answer === undefined) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: "ENOTFOUND" })
          return answer
        }
      })
    )
  })
  company = await app.createCompany({ name: "Endpoints Co" })
}, 60_000)
afterAll(() => app?.close())

const create = (body: Record<string, unknown>, token = company.ownerKey) =>
  app.call("POST", "/v1/webhooks", { token, key: newKey(), body })

describe("webhook endpoints", () => {
  it("creates an endpoint, shows its secret once, and stores it only sealed", async () => {
    const created = await create({ url: "https://hooks.example.com/ledger", description: "Accounting sync", event_types: ["invoice.paid", "invoice.paid", "entry.posted"] })
    expect(created.status).toBe(201)
    const { webhook, secret } = created.body
    expect(secret).toMatch(/^ldgwhsec_[A-Za-z0-9_-]{43}$/)
    expect(webhook).toMatchObject({
      url: "https://hooks.example.com/ledger",
      description: "Accounting sync",
      event_types: ["invoice.paid", "entry.posted"],
      enabled: true,
      disabled_reason: null,
      previous_secret_valid_until: null
    })
    expect(secret.startsWith(webhook.secret_prefix)).toBe(true)
    const stored = await app.query(`SELECT * FROM webhook_endpoints WHERE company_id = $1 AND id = $2`, [company.companyId, webhook.id])
    expect(JSON.stringify(stored, (_key, value) => typeof value === "bigint" ? String(value) : value)).not.toContain(secret.slice(9))
    const listed = await app.call("GET", "/v1/webhooks", { token: company.ownerKey })
    expect(listed.status).toBe(200)
    expect(JSON.stringify(listed.body)).not.toContain(secret.slice(9))
    expect(listed.body.data.map((endpoint: any) => endpoint.id)).toContain(webhook.id)
    expect(listed.body.event_types.map((type: any) => type.type)).toContain("reconciliation.finished")
    expect(listed.body.delivery.retry_delays_seconds[0]).toBe(60)
    const got = await app.call("GET", `/v1/webhooks/${webhook.id}`, { token: company.ownerKey })
    expect(got.body).toMatchObject({ id: webhook.id, latest_deliveries: [] })
    const audit = await auditEvents(app, company.ownerKey)
    expect(audit.find((event) => event.action === "createWebhook" && String(event.target_id) === String(webhook.id))).toBeDefined()
  })

  it("refuses addresses that are not https at a public address, including names that resolve to private ones", async () => {
    const refused = [
      "http://hooks.example.com/ledger",
      "https://127.0.0.1/hook",
      "https://10.0.0.8/hook",
      "https://169.254.169.254/latest/meta-data",
      "https://[::1]/hook",
      "https://[::ffff:127.0.0.1]/hook",
      "https://[fd00:ec2::254]/hook",
      "https://2130706433/hook",
      "https://localhost/hook",
      "https://user:pass@hooks.example.com/hook",
      "https://loopback.example.com/hook",
      "https://mixed.example.com/hook",
      "https://metadata.example.com/hook",
      "https://v6loop.example.com/hook",
      "https://nowhere.example.com/hook",
      "not a url"
    ]
    for (const url of refused) {
      const result = await create({ url, event_types: ["*"] })
      expect(result.status, url).toBe(422)
      expectErrorBody(result.body, "webhook_url_not_allowed")
    }
  })

  it("says a host name does not resolve without the resolver's own error text", async () => {
    const result = await create({ url: "https://nowhere.example.com/hook", event_types: ["*"] })
    expectErrorBody(result.body, "webhook_url_not_allowed")
    const message = "The host name nowhere.example.com does not resolve."
    expect(result.body.error.message).toBe(message)
    expect(result.body.error.details).toEqual({ issues: [{ path: ["body", "url"], message }] })
  })

  it("changes, turns off and on, and removes an endpoint", async () => {
    const { webhook } = (await create({ url: "https://hooks.example.com/a", event_types: ["entry.posted"] })).body
    const path = `/v1/webhooks/${webhook.id}`
    const changed = await app.call("POST", path, { token: company.ownerKey, body: { event_types: ["*", "bill.paid"], description: null, enabled: false } })
    expect(changed.status).toBe(200)
    expect(changed.body).toMatchObject({ event_types: ["*"], description: null, enabled: false })
    const badUrl = await app.call("POST", path, { token: company.ownerKey, body: { url: "https://loopback.example.com/x" } })
    expectErrorBody(badUrl.body, "webhook_url_not_allowed")
    const test = await app.call("POST", `${path}/test`, { token: company.ownerKey, body: {} })
    expectErrorBody(test.body, "webhook_endpoint_disabled")
    expect((await app.call("POST", path, { token: company.ownerKey, body: { enabled: true } })).body.enabled).toBe(true)
    const removed = await app.call("POST", `${path}/remove`, { token: company.ownerKey, body: {} })
    expect(removed.body).toMatchObject({ id: webhook.id, removed: true })
    expect((await app.call("GET", path, { token: company.ownerKey })).status).toBe(404)
    expect((await app.call("POST", `${path}/remove`, { token: company.ownerKey, body: {} })).status).toBe(404)
  })

  it("allows at most 10 endpoints per company", async () => {
    const other = await app.createCompany({ name: "Many Endpoints Co" })
    const ids: Array<number> = []
    for (let index = 0; index < 10; index++) {
      const result = await create({ url: `https://hooks.example.com/${index}`, event_types: ["*"] }, other.ownerKey)
      expect(result.status).toBe(201)
      ids.push(result.body.webhook.id)
    }
    const eleventh = await create({ url: "https://hooks.example.com/11", event_types: ["*"] }, other.ownerKey)
    expect(eleventh.status).toBe(422)
    expectErrorBody(eleventh.body, "webhook_limit_reached")
    await app.call("POST", `/v1/webhooks/${ids[0]}/remove`, { token: other.ownerKey, body: {} })
    // Two creations at once for the one free place: one of them gets it.
    const racing = await Promise.all([11, 12].map((index) => create({ url: `https://hooks.example.com/${index}`, event_types: ["*"] }, other.ownerKey)))
    expect(racing.map((result) => result.status).sort()).toEqual([201, 422])
    expect((await app.call("GET", "/v1/webhooks", { token: other.ownerKey })).body.data).toHaveLength(10)
  })

  it("keeps companies apart", async () => {
    const { webhook } = (await create({ url: "https://hooks.example.com/mine", event_types: ["*"] })).body
    const other = await app.createCompany({ name: "Nosy Co" })
    expect((await app.call("GET", `/v1/webhooks/${webhook.id}`, { token: other.ownerKey })).status).toBe(404)
    expect((await app.call("POST", `/v1/webhooks/${webhook.id}/remove`, { token: other.ownerKey, body: {} })).status).toBe(404)
    expect((await app.call("GET", "/v1/webhooks", { token: other.ownerKey })).body.data).toEqual([])
  })

  it("refuses agents and people without admin access", async () => {
    const { key: agentKey } = await agentWithKey(app, company.ownerKey, ["read", "propose"])
    const byAgent = await app.call("GET", "/v1/webhooks", { token: agentKey.secret })
    expect(byAgent.status).toBe(403)
    expectErrorBody(byAgent.body, "insufficient_scope")
    const staff = await personWithKey(app, company.ownerKey, "staff")
    const byStaff = await create({ url: "https://hooks.example.com/staff", event_types: ["*"] }, staff.key.secret)
    expect(byStaff.status).toBe(403)
  })

  it("validates the body: event types of spec 6.1, previous_valid_hours 0 to 168", async () => {
    expect((await create({ url: "https://hooks.example.com/x", event_types: [] })).status).toBe(400)
    expect((await create({ url: "https://hooks.example.com/x", event_types: ["entry.deleted"] })).status).toBe(400)
    const { webhook } = (await create({ url: "https://hooks.example.com/r", event_types: ["*"] })).body
    const rotate = (body: unknown) =>
      app.call("POST", `/v1/webhooks/${webhook.id}/rotate-secret`, { token: company.ownerKey, key: newKey(), body })
    expect((await rotate({ previous_valid_hours: 169 })).status).toBe(400)
    const atOnce = await rotate({ previous_valid_hours: 0 })
    expect(atOnce.status).toBe(200)
    expect(atOnce.body.webhook.previous_secret_valid_until).toBeNull()
    const defaulted = await rotate({})
    expect(Date.parse(defaulted.body.webhook.previous_secret_valid_until) - Date.parse(defaulted.body.webhook.updated_at)).toBe(24 * 3_600_000)
  })
})
