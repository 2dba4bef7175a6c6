import { Arbitrary, Effect, Schema } from "effect"
import fc from "fast-check"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { ApiError, Catalog, Limits, Operation } from "@ledger/api"
import { makeTestApp, type TestApp, type TestCompany } from "../support/app.ts"
import { agentWithKey, connectMcp, expectErrorBody, personWithKey } from "./support.ts"

/**
 * Whatever a client sends, Ledger answers with a clear 4xx in the spec's error shape, never a 500:
 * wrong types, integers past 2^53, deep nesting, oversized bodies, unknown fields, broken JSON,
 * odd media types, strange path segments and query strings, at every operation of the catalog.
 */

let app: TestApp
let company: TestCompany
/** Ids of records a generated request may touch (never the owner's own key). */
let ids: Array<number> = []
let secrets: Array<string> = []
/** Bodies each operation's own Schema accepts, derived from it: the requests that reach handlers. */
const validBodies = new Map<string, ReadonlyArray<unknown>>()

beforeAll(async () => {
  app = await makeTestApp()
  company = await app.createCompany({ name: "Hostile Input Co" })
  const agent = await agentWithKey(app, company.ownerKey, ["read", "propose"])
  const person = await personWithKey(app, company.ownerKey, "accountant")
  ids = [agent.agent.id, agent.key.id, person.user.id, person.key.id, company.ownerId]
  secrets = [agent.key.secret, person.key.secret]
  for (const operation of operations) {
    if (operation.body === undefined || operation.method !== "POST") continue
    const samples = await Effect.runPromise(
      Arbitrary.sampleEffect(Arbitrary.schema(operation.body as never), { count: 12, seed: operation.id }).pipe(
        Effect.map((values) => values.map((value) => Schema.encodeUnknownSync(operation.body as never)(value))),
        Effect.catchCause(() => Effect.succeed([] as Array<unknown>))
      )
    ).catch(() => [])
    if (samples.length > 0) validBodies.set(operation.id, samples)
  }
})
afterAll(() => app.close())

const operations = (Catalog.operations as ReadonlyArray<Operation.Any>).filter((operation) => operation.id !== "getOpenApi")

const fieldsOf = (schema: unknown): Array<string> => Object.keys((schema as { fields?: object } | undefined)?.fields ?? {})

const hugeIntegers = fc.constantFrom(2 ** 53, 2 ** 53 + 2, -(2 ** 53), 1e21, 1e308, -1e308, Number.MAX_VALUE, 5e-324)
const awkwardStrings = fc.oneof(
  fc.string({ maxLength: 40 }),
  fc.string({ unit: "grapheme", maxLength: 20 }),
  fc.constantFrom("", " ", "null", "true", "0", "-1", "1e999", "NaN", "9007199254740993", "99999999999999999999", "\u0000", "\u202e",
    "%", "%ZZ", "%E0%A4%A", "..%2F..%2F", "a,b,c", "ldg_" + "A".repeat(43), "2026-02-30", "0x10", " 12 ", "1.5", "-0", "[]", "{}",
    "\ud800", "a\udc00b", "\ud83d\ude00")
)
const jsonLeaf = fc.oneof(awkwardStrings, fc.integer(), hugeIntegers, fc.double({ noNaN: true, noDefaultInfinity: true }), fc.boolean(), fc.constant(null))
const json = fc.letrec((tie) => ({
  value: fc.oneof({ depthSize: "small", withCrossShrink: true }, jsonLeaf, tie("array"), tie("object")),
  array: fc.array(tie("value"), { maxLength: 4 }),
  object: fc.dictionary(fc.string({ maxLength: 8 }), tie("value"), { maxKeys: 4 })
})).value

const nested = (depth: number, leaf: unknown): unknown => {
  let value = leaf
  for (let level = 0; level < depth; level++) value = level % 2 === 0 ? [value] : { a: value }
  return value
}

/** A body for an operation: its own fields with values of every kind, or anything at all. */
const bodyFor = (operation: Operation.Any) => {
  const fields = fieldsOf(operation.body)
  const valid = validBodies.get(operation.id) ?? [{}]
  const ownFields = fields.length === 0
    ? fc.constant({})
    : fc.dictionary(fc.constantFrom(...fields, "dry_run", "unknown_field"), fc.oneof(json, fc.constantFrom(...ids)), { maxKeys: fields.length + 1 })
  const oneFieldWrong = fc.tuple(fc.constantFrom(...valid), fc.constantFrom(...fields, "unknown_field"), json)
    .map(([body, field, value]) => ({ ...(body as object), [field]: value }))
  return fc.oneof(
    { weight: 4, arbitrary: fc.constantFrom(...valid).map((value) => ({ kind: "json" as const, value })) },
    { weight: 3, arbitrary: oneFieldWrong.map((value) => ({ kind: "json" as const, value })) },
    { weight: 3, arbitrary: ownFields.map((value) => ({ kind: "json" as const, value })) },
    { weight: 2, arbitrary: json.map((value) => ({ kind: "json" as const, value })) },
    { weight: 1, arbitrary: fc.integer({ min: 20, max: 200 }).map((depth) => ({ kind: "json" as const, value: nested(depth, 1) })) },
    { weight: 1, arbitrary: fc.string({ maxLength: 60 }).map((text) => ({ kind: "raw" as const, value: text })) },
    { weight: 1, arbitrary: fc.constantFrom("{", "[1,", "{\"a\":}", "nul", "\"unterminated", "{\"a\":1}{\"b\":2}", "\uFEFF{}", "{\"__proto__\":{\"x\":1}}")
      .map((text) => ({ kind: "raw" as const, value: text })) },
    { weight: 1, arbitrary: fc.constant({ kind: "none" as const, value: undefined }) }
  )
}

/** Percent-encoding that survives unpaired surrogates: they become bytes no UTF-8 decoder accepts. */
const marker = "\u0001surrogate\u0001"
const encode = (text: string): string =>
  encodeURIComponent(text.replace(/[\ud800-\udfff]/gu, marker)).replaceAll(encodeURIComponent(marker), "%ED%A0%80")

/** Built once the records exist: most segments name a real record, the rest anything. */
const pathSegment = () => fc.oneof(
  { weight: 4, arbitrary: fc.constantFrom(...ids).map(String) },
  { weight: 1, arbitrary: fc.integer().map(String) },
  { weight: 1, arbitrary: awkwardStrings.map(encode) },
  { weight: 1, arbitrary: fc.constantFrom("%", "%ZZ", "%E0%A4%A", "9007199254740993", "1e3", "00001", "-5", "0", "%2F", "x".repeat(300)) }
)

const queryFor = (operation: Operation.Any) =>
  fc.oneof(
    { weight: 2, arbitrary: fc.constant("") },
    {
      weight: 3,
      arbitrary: fc.array(
        fc.tuple(fc.constantFrom(...fieldsOf(operation.query), "limit", "cursor", "other"), fc.oneof(awkwardStrings, pathSegment())),
        { maxLength: 4 }
      ).map((pairs) =>
        pairs.map(([name, value]) => `${encode(name)}=${value.includes("%") ? value : encode(value)}`).join("&")
      )
    }
  )

const credential = fc.oneof(
  { weight: 12, arbitrary: fc.constant("owner") },
  { weight: 1, arbitrary: fc.constant("operator") },
  { weight: 1, arbitrary: fc.constant("none") },
  { weight: 1, arbitrary: fc.constantFrom("Bearer", "Bearer ldg_nope", "Basic abc", "Bearer  ldg_" + "x".repeat(43) + " extra") }
)

const requests = () => fc.constantFrom(...operations).chain((operation) =>
  fc.record({
    operation: fc.constant(operation),
    segments: fc.array(pathSegment(), { minLength: 4, maxLength: 4 }),
    query: queryFor(operation),
    body: bodyFor(operation),
    credential,
    idempotencyKey: fc.option(
      fc.oneof(fc.constantFrom("fuzz-key-1", "fuzz-key-2", "short"), fc.string({ minLength: 8, maxLength: 30 }), fc.uuid()),
      { nil: undefined, freq: 4 }
    ),
    contentType: fc.oneof(
      { weight: 6, arbitrary: fc.constant("application/json") },
      { weight: 1, arbitrary: fc.constantFrom("application/json; charset=utf-8", "text/plain", "application/x-www-form-urlencoded", null) }
    ),
    agentModel: fc.option(awkwardStrings, { nil: undefined })
  }))

const send = async (input: ReturnType<typeof requests> extends fc.Arbitrary<infer T> ? T : never) => {
  let segment = 0
  const path = input.operation.path.replace(/\{\w+\}/g, () => input.segments[segment++]!)
  const headers: Record<string, string> = {}
  if (input.credential === "owner") headers.authorization = `Bearer ${company.ownerKey}`
  else if (input.credential === "operator") headers.authorization = `Bearer ${app.operatorToken}`
  else if (input.credential !== "none") headers.authorization = input.credential
  if (input.idempotencyKey !== undefined) headers["idempotency-key"] = input.idempotencyKey
  if (input.agentModel !== undefined) headers["x-agent-model"] = input.agentModel.replace(/[^\t\x20-\x7e]/g, "?")
  if (input.contentType !== null) headers["content-type"] = input.contentType
  const body = input.operation.method === "GET" || input.body.kind === "none"
    ? undefined
    : input.body.kind === "raw" ? input.body.value : JSON.stringify(input.body.value)
  const url = `http://ledger.test${path}${input.query === "" ? "" : `?${input.query}`}`
  const response = await app.fetch(new Request(url, { method: input.operation.method, headers, ...(body === undefined ? {} : { body }) }))
  const text = await response.text()
  return { status: response.status, text }
}

/**
 * Never a 500. A 502 or 503 only from an operation that depends on an outside service and
 * declares that refusal (spec 7), e.g. bank feeds on a deployment with no aggregator.
 */
const expectCleanAnswer = (operation: Operation.Any, status: number, text: string) => {
  const declaresOutsideFailure = operation.errors.some((type) => ApiError.errorStatus[type] === status && (status === 502 || status === 503))
  if (!declaresOutsideFailure) expect(status, `${operation.id} answered ${status}: ${text.slice(0, 300)}`).toBeLessThan(500)
  if (operation.id === "postMcp") return
  const body = JSON.parse(text)
  if (status >= 400) {
    const type = expectErrorBody(body)
    expect((ApiError.errorStatus as Record<string, number>)[type], `${type} travels with ${status}`).toBe(status)
  }
}

describe("hostile input", () => {
  it("never answers 500, and refuses in the spec's error shape, across the catalog", async () => {
    const statuses = new Map<number, number>()
    await fc.assert(
      fc.asyncProperty(requests(), async (input) => {
        const { status, text } = await send(input)
        statuses.set(status, (statuses.get(status) ?? 0) + 1)
        expectCleanAnswer(input.operation, status, text)
      }),
      { numRuns: 2_000 }
    )
    // Enough requests got past every check to exercise the handlers, not just the refusals.
    const reachedHandlers = [...statuses].filter(([status]) => status < 300).reduce((sum, [, count]) => sum + count, 0)
    expect(reachedHandlers, JSON.stringify([...statuses])).toBeGreaterThan(100)
    // The owner was never locked out along the way, so the requests kept reaching the handlers.
    expect((await app.call("GET", "/v1/me", { token: company.ownerKey })).status).toBe(200)
  }, 600_000)

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
    const client = await connectMcp({ token: company.ownerKey, fetch: app.fetch })
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

  it("never answers 500 over MCP either", async () => {
    const client = await connectMcp({ token: company.ownerKey, fetch: app.fetch })
    const tools = (await client.listTools()).tools
    try {
      await fc.assert(
        fc.asyncProperty(fc.constantFrom(...tools), fc.dictionary(fc.string({ maxLength: 10 }), json, { maxKeys: 4 }), async (tool, extra) => {
          const fields = Object.keys(tool.inputSchema.properties ?? {})
          const args: Record<string, unknown> = { ...extra }
          for (const field of fields) if (Object.keys(extra).length % 2 === 0) args[field] = extra[field] ?? ids[0]
          const result = await client.callTool({ name: tool.name, arguments: args, _meta: { "dev.ledger/model": "fuzz" } })
          const status = result._meta?.["dev.ledger/status"] as number | undefined
          const operation = operations.find((candidate) => Operation.toolName(candidate.id) === tool.name)!
          expectCleanAnswer(operation, status ?? 404, JSON.stringify(result.structuredContent))
        }),
        { numRuns: 400 }
      )
    } finally {
      await client.close()
    }
    for (const secret of secrets) expect((await app.call("GET", "/v1/me", { token: secret })).status).toBeLessThan(500)
  }, 600_000)
})
