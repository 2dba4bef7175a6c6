import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { Limits } from "@ledger/api"
import { connectMcp, expectErrorBody, makeTestApp, type TestApp, type TestCompany } from "../support/index.ts"

/**
 * Requests malformed on purpose, one kind at a time: integers past 2^53, oversized and endless
 * bodies, deep nesting, unknown fields, odd media types, broken JSON, text PostgreSQL cannot store.
 * Each is refused with a clear 4xx in the spec's error shape (hostile-input.test.ts generates them).
 */

let app: TestApp
let company: TestCompany

beforeAll(async () => {
  app = await makeTestApp()
  company = await app.createCompany({ name: "Malformed Requests Co" })
})
afterAll(() => app.close())

/** A value `depth` levels deep, arrays and objects in turn. */
const nested = (depth: number, leaf: unknown): unknown => {
  let value = leaf
  for (let level = 0; level < depth; level++) value = level % 2 === 0 ? [value] : { a: value }
  return value
}

describe("malformed requests", () => {
  it("refuses integers past 2^53 in bodies, paths and queries", async () => {
    for (const number of ["9007199254740993", "1e400", "123456789012345678901234567890"]) {
      const body = await app.call("POST", "/v1/agents", {
        token: company.ownerKey,
        key: `big-${number}`.slice(0, 30).padEnd(8, "x"),
        rawBody: `{"name":"Big","scopes":["read"],"posting_threshold_cents":${number}}`
      })
      expect(body.status).toBe(400)
      expectErrorBody(body.body, "invalid_request")
      for (const issue of body.body.error.details.issues) expect(issue.path).toEqual(["body", "posting_threshold_cents"])
      const path = await app.call("GET", `/v1/keys/${number}`, { token: company.ownerKey })
      expect(path.status).toBe(400)
      expectErrorBody(path.body, "invalid_request")
      const query = await app.call("GET", `/v1/audit/events?before=${number}`, { token: company.ownerKey })
      expect(query.status).toBe(400)
    }
  })

  it("refuses a body over the size limit with 413, before parsing it", async () => {
    const big = JSON.stringify({ name: "x".repeat(Limits.requestBodyBytesMax), role: "staff" })
    const result = await app.call("POST", "/v1/users", { token: company.ownerKey, key: "oversized-1", rawBody: big })
    expect(result.status).toBe(413)
    expectErrorBody(result.body, "payload_too_large")
    expect(result.body.error.details).toEqual({ bytes_max: Limits.requestBodyBytesMax })
    const justUnder = await app.call("POST", "/v1/users", {
      token: company.ownerKey,
      key: "oversized-2",
      rawBody: JSON.stringify({ name: "x".repeat(Limits.requestBodyBytesMax - 100), role: "staff" })
    })
    expect(justUnder.status).toBe(400)
    expect(justUnder.body.error.details.issues).toEqual([expect.objectContaining({ path: ["body", "name"] })])
    // Sent in chunks without a Content-Length: read up to the limit, then refused.
    let sent = 0
    const chunk = new TextEncoder().encode(`"${"y".repeat(65_536)}",`)
    const endless = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (sent === 0) controller.enqueue(new TextEncoder().encode("["))
        sent += chunk.length
        controller.enqueue(chunk)
        if (sent > 64 * Limits.requestBodyBytesMax) controller.close()
      }
    })
    const chunked = await app.fetch(new Request("http://ledger.test/v1/users", {
      method: "POST",
      headers: { authorization: `Bearer ${company.ownerKey}`, "content-type": "application/json", "idempotency-key": "chunked-body-1" },
      body: endless,
      duplex: "half"
    } as RequestInit))
    expect(chunked.status).toBe(413)
    expect(sent).toBeLessThan(4 * Limits.requestBodyBytesMax)
    const mcp = await app.fetch(new Request("http://ledger.test/mcp", {
      method: "POST",
      headers: { authorization: `Bearer ${company.ownerKey}`, "content-type": "application/json" },
      body: big
    }))
    expect(mcp.status).toBe(413)
  })

  it("refuses bodies nested deeper than the limit, and unknown fields, with 400", async () => {
    const deep = await app.call("POST", "/v1/users", {
      token: company.ownerKey,
      key: "deep-body-1",
      body: { name: "x", role: "staff", extra: nested(Limits.requestBodyDepthMax + 1, 1) }
    })
    expect(deep.status).toBe(400)
    expect(deep.body.error.message).toMatch(/nested/)
    const unknown = await app.call("POST", "/v1/users", { token: company.ownerKey, key: "unknown-field-1", body: { name: "x", role: "staff", admin: true } })
    expect(unknown.status).toBe(400)
    expect(unknown.body.error.details.issues).toEqual([{ path: ["body", "admin"], message: "Expected no excess property" }])
    const unknownQuery = await app.call("GET", "/v1/users?sort=name", { token: company.ownerKey })
    expect(unknownQuery.status).toBe(400)
    expect(unknownQuery.body.error.details.issues).toEqual([{ path: ["query", "sort"], message: "Expected no excess property" }])
  })

  it("answers wrong media types with 415 and broken JSON with 400, to a known credential, audited", async () => {
    const form = await app.call("POST", "/v1/users", {
      token: company.ownerKey,
      key: "media-type-1",
      rawBody: "name=x&role=staff",
      headers: { "content-type": "application/x-www-form-urlencoded" }
    })
    expect(form.status).toBe(415)
    expectErrorBody(form.body, "unsupported_media_type")
    const broken = await app.call("POST", "/v1/users", { token: company.ownerKey, key: "broken-json-1", rawBody: "{\"name\": \"x\",}" })
    expect(broken.status).toBe(400)
    expectErrorBody(broken.body, "invalid_request")
    const vendorJson = await app.call("POST", "/v1/users", {
      token: company.ownerKey,
      key: "vendor-json-1",
      body: { name: "Vendor Json", role: "staff" },
      headers: { "content-type": "application/vnd.ledger+json" }
    })
    expect(vendorJson.status).toBe(201)
    // A stranger's broken body is refused as unauthorized: the credential comes first.
    const stranger = await app.call("POST", "/v1/users", { rawBody: "{" })
    expect(stranger.status).toBe(401)
    const refusals = await app.query<{ error_type: string }>(
      "SELECT error_type FROM audit_events WHERE company_id = $1 AND error_type IN ('unsupported_media_type', 'invalid_request')",
      [company.companyId]
    )
    expect(refusals.map((row) => row.error_type)).toEqual(expect.arrayContaining(["unsupported_media_type", "invalid_request"]))
  })

  it("refuses text PostgreSQL cannot store, and unbounded agent identities, with 400", async () => {
    const nul = await app.call("POST", "/v1/users", { token: company.ownerKey, key: "nul-text-1", body: { name: "a\u0000b", role: "staff" } })
    expect(nul.status).toBe(400)
    expect(nul.body.error.details.issues).toEqual([{ path: ["body", "name"], message: "Text may not contain the NUL character" }])
    const nulQuery = await app.call("GET", "/v1/audit/events?cursor=%00", { token: company.ownerKey })
    expect(nulQuery.status).toBe(400)
    for (const rawBody of ['{"a\\u0000": "b\\u0000"}', '{"\\ud800": {"x": "\\u0000"}}', '{"name": "x", "role": "staff", "\\udc00\\u0000": 1}']) {
      const refused = await app.call("POST", "/v1/users", { token: company.ownerKey, key: `unstorable-${rawBody.length}`, rawBody })
      expect(refused.status, rawBody).toBe(400)
      expectErrorBody(refused.body, "invalid_request")
    }
    const client = await connectMcp(app, company.ownerKey)
    try {
      for (const [meta, args, type] of [
        [{ "dev.ledger/model": "m\u0000" }, { idempotency_key: "mcp-nul-model-1" }, "invalid_request"],
        [{ "dev.ledger/run_id": "r".repeat(Limits.agentRunIdLengthMax + 1) }, { idempotency_key: "mcp-long-run-1" }, "invalid_request"],
        [{}, { idempotency_key: "key\u0000with-nul" }, "invalid_idempotency_key"],
        [{ "dev.ledger/idempotency_key": "tab\there-key" }, {}, "invalid_idempotency_key"]
      ] as const) {
        const result = await client.callTool({ name: "create_user", arguments: { name: "Nul", role: "staff", ...args }, _meta: meta })
        expect(result.isError).toBe(true)
        expectErrorBody(result.structuredContent, type)
      }
    } finally {
      await client.close()
    }
    const recorded = await app.query<{ agent_model: string | null; agent_run_id: string | null }>(
      "SELECT agent_model, agent_run_id FROM audit_events WHERE company_id = $1 AND via = 'mcp' AND outcome = 'refused'",
      [company.companyId]
    )
    expect(recorded.length).toBeGreaterThanOrEqual(4)
    for (const row of recorded) expect(row.agent_model === null || !row.agent_model.includes("\u0000")).toBe(true)
  })
})

describe("a body of many bad items", () => {
  it("is refused with the first issues and their count, not a stack overflow or a huge answer", async () => {
    // 100,000 empty applications: each fails on every field (issue 19 item 9).
    const applications = Array.from({ length: 100_000 }, () => ({}))
    const result = await app.call("POST", "/v1/payments/1/apply", {
      token: company.ownerKey,
      key: "many-bad-items-1",
      body: { applications }
    })
    expect(result.status).toBe(400)
    expectErrorBody(result.body, "invalid_request")
    const details = result.body.error.details
    expect(details.issues).toHaveLength(Limits.errorIssuesMax)
    expect(details.issues_total).toBeGreaterThanOrEqual(100_000)
    expect(JSON.stringify(result.body).length).toBeLessThan(10_000)
  }, 120_000)
})
