import { Arbitrary, Effect, Schema } from "effect"
import fc from "fast-check"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { ApiError, Catalog, Operation } from "@ledger/api"
import { agentWithKey, allTools, connectMcp, expectErrorBody, makeTestApp, personWithKey, type TestApp, type TestCompany } from "../support/index.ts"
import { long } from "./scale.ts"

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

/** A class of endpoint: its method and write mode (`GET R`, `POST K`, `POST -`, `POST R`). */
const classOf = (operation: Operation.Any) => `${operation.method} ${operation.mode}`

/**
 * An operation, drawn so that every class of endpoint gets over a tenth of the requests (a floor of a seventh of the weights):
 * the two reads by POST would otherwise get one request in two hundred.
 */
const operationArbitrary = () => {
  const byClass = new Map<string, Array<Operation.Any>>()
  for (const operation of operations) byClass.set(classOf(operation), [...(byClass.get(classOf(operation)) ?? []), operation])
  const floor = Math.ceil(operations.length / 7)
  return fc.oneof(...[...byClass.values()].map((members) => ({ weight: Math.max(members.length, floor), arbitrary: fc.constantFrom(...members) })))
}

const requests = () => operationArbitrary().chain((operation) =>
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
  // A file operation answers its file itself (ADR 0015); only its refusals are JSON.
  if (status < 300 && operation.files !== undefined) return
  const body = JSON.parse(text)
  if (status >= 400) {
    const type = expectErrorBody(body)
    expect((ApiError.errorStatus as Record<string, number>)[type], `${type} travels with ${status}`).toBe(status)
  }
}

describe("hostile input", () => {
  it("never answers 500, and refuses in the spec's error shape, across the catalog", async () => {
    const statuses = new Map<number, number>()
    const classes = new Map<string, number>()
    const started = performance.now()
    await fc.assert(
      fc.asyncProperty(requests(), async (input) => {
        const { status, text } = await send(input)
        statuses.set(status, (statuses.get(status) ?? 0) + 1)
        const kind = classOf(input.operation)
        classes.set(kind, (classes.get(kind) ?? 0) + 1)
        expectCleanAnswer(input.operation, status, text)
      }),
      // --long: at least 10,000 bodies for each class of endpoint (method x credential x mode).
      { numRuns: long ? 100_000 : 2_000 }
    )
    // The figures docs/reliability.md records: requests by class of endpoint and by status.
    const sent = [...statuses.values()].reduce((sum, count) => sum + count, 0)
    console.log(`hostile input (HTTP): ${sent} requests in ${((performance.now() - started) / 1000).toFixed(1)} s; by status ${
      JSON.stringify(Object.fromEntries([...statuses].sort(([a], [b]) => a - b)))}`)
    console.log(`hostile input (HTTP) by class of endpoint (method, write mode): ${JSON.stringify(Object.fromEntries([...classes].sort()))}`)
    // Enough requests got past every check to exercise the handlers, not just the refusals.
    const reachedHandlers = [...statuses].filter(([status]) => status < 300).reduce((sum, [, count]) => sum + count, 0)
    expect(reachedHandlers, JSON.stringify([...statuses])).toBeGreaterThan(100)
    // The owner was never locked out along the way, so the requests kept reaching the handlers.
    expect((await app.call("GET", "/v1/me", { token: company.ownerKey })).status).toBe(200)
  }, long ? 14_400_000 : 600_000)

  it("never answers 500 over MCP either", async () => {
    // Every tool the owner may use (`all`), not the default list's few (ADR 2200).
    const client = await connectMcp(app, company.ownerKey, allTools)
    const tools = (await client.listTools()).tools
    try {
      await fc.assert(
        fc.asyncProperty(fc.constantFrom(...tools), fc.dictionary(fc.string({ maxLength: 10 }), json, { maxKeys: 4 }), async (tool, extra) => {
          const fields = Object.keys(tool.inputSchema.properties ?? {})
          const args: Record<string, unknown> = { ...extra }
          for (const field of fields) if (Object.keys(extra).length % 2 === 0) args[field] = extra[field] ?? ids[0]
          const result = await client.callTool({ name: tool.name, arguments: args, _meta: { "dev.ledger/model": "fuzz" } })
          const status = result._meta?.["dev.ledger/status"] as number | undefined
          const operation = operations.find((candidate) => Operation.toolName(candidate.id) === tool.name)
          if (operation === undefined) {
            // A discovery tool (ADR 2200): an answer, or a refusal of a stable type below 500.
            const type = (result.structuredContent as { error?: { type?: string } } | undefined)?.error?.type
            if (result.isError === true) expect((ApiError.errorStatus as Record<string, number>)[type ?? ""], `${tool.name}: ${JSON.stringify(result.structuredContent)}`).toBeLessThan(500)
            else expect(type, tool.name).toBeUndefined()
            return
          }
          expectCleanAnswer(operation, status ?? 404, JSON.stringify(result.structuredContent))
        }),
        { numRuns: long ? 10_000 : 400 }
      )
    } finally {
      await client.close()
    }
    for (const secret of secrets) expect((await app.call("GET", "/v1/me", { token: secret })).status).toBeLessThan(500)
  }, 600_000)
})
