import { Effect, Exit, Result, Schema } from "effect"
import fc from "fast-check"
import { describe, expect, it } from "vitest"
import { Limits } from "@ledger/api"
import { Entropy, Idempotency } from "@ledger/engine"
import * as Audit from "../src/pipeline/Audit.ts"
import * as RequestDecoding from "../src/pipeline/RequestDecoding.ts"
import * as SealedResult from "../src/pipeline/SealedResult.ts"

/** The foundation's pure rules, directly, with properties. */

const jsonValue = fc.jsonValue({ maxDepth: 4 })

/** encodeURIComponent refuses exactly the strings that are not well-formed Unicode. */
const wellFormed = (text: string): boolean => {
  try {
    encodeURIComponent(text)
    return true
  } catch {
    return false
  }
}

describe("canonical JSON (idempotency fingerprints)", () => {
  it("is the same for the same value whatever the order of its keys, and reads back to it", () => {
    fc.assert(fc.property(fc.dictionary(fc.string(), jsonValue, { maxKeys: 6 }), (value) => {
      const reversed = Object.fromEntries(Object.entries(value).reverse())
      expect(Idempotency.canonicalJson(reversed)).toBe(Idempotency.canonicalJson(value))
      expect(JSON.parse(Idempotency.canonicalJson(value))).toEqual(JSON.parse(JSON.stringify(value)))
    }))
  })

  it("tells different values apart", () => {
    fc.assert(fc.property(jsonValue, jsonValue, (a, b) => {
      fc.pre(JSON.stringify(a) !== JSON.stringify(b))
      const same = Idempotency.canonicalJson(a) === Idempotency.canonicalJson(b)
      // Equal fingerprints only for values equal up to key order.
      if (same) expect(JSON.parse(Idempotency.canonicalJson(a))).toEqual(JSON.parse(Idempotency.canonicalJson(b)))
    }))
  })
})

describe("Idempotency-Key", () => {
  it("is valid exactly when it has 8 to 200 characters and no control character", () => {
    const keys = fc.oneof(fc.string({ maxLength: 260, unit: "binary" }), fc.string({ maxLength: 260, unit: fc.integer({ min: 0, max: 0xffff }).map((code) => String.fromCharCode(code)) }))
    fc.assert(fc.property(keys, (key) => {
      const expected = key.length >= Limits.idempotencyKeyLengthMin && key.length <= Limits.idempotencyKeyLengthMax &&
        ![...key].some((character) => character.charCodeAt(0) < 0x20 || character.charCodeAt(0) === 0x7f) && wellFormed(key)
      expect(Idempotency.isValidKey(key)).toBe(expected)
    }))
  })
})

describe("sealed idempotent results", () => {
  const credential = fc.stringMatching(/^ldg_[A-Za-z0-9_-]{43}$/)
  const withSecrets = fc.record({
    key: fc.record({ id: fc.integer({ min: 1 }), prefix: fc.string() }),
    secret: fc.stringMatching(/^ldg_[A-Za-z0-9_-]{43}$/),
    nested: fc.array(fc.record({ secret: fc.string({ minLength: 1 }), other: jsonValue }), { maxLength: 3 })
  })
  const run = <A, E>(effect: Effect.Effect<A, E, Entropy>) => Effect.runPromiseExit(effect.pipe(Effect.provide(Entropy.layer)))

  it("opens to the very body to the same credential and key, and holds no secret sealed", async () => {
    await fc.assert(fc.asyncProperty(withSecrets, credential, fc.string({ minLength: 8, maxLength: 40 }), async (body, token, key) => {
      const sealed = await run(SealedResult.seal(body, token, key))
      expect(Exit.isSuccess(sealed)).toBe(true)
      const stored = JSON.stringify((sealed as Exit.Success<unknown>).value)
      expect(stored).not.toContain(body.secret)
      for (const item of body.nested) expect(JSON.parse(stored).nested.map((entry: { secret: unknown }) => entry.secret)).not.toContain(item.secret)
      const opened = await run(SealedResult.open(JSON.parse(stored), token, key))
      // The body as JSON carries it: an answer is JSON, where -0 is written 0.
      expect(opened).toEqual(Exit.succeed(JSON.parse(JSON.stringify(body))))
    }), { numRuns: 50 })
  })

  it("refuses to open for another credential or another key", async () => {
    await fc.assert(fc.asyncProperty(withSecrets, credential, credential, async (body, token, other) => {
      fc.pre(token !== other)
      const sealed = await run(SealedResult.seal(body, token, "the-key-1"))
      const stored = (sealed as Exit.Success<unknown>).value
      for (const [as, key] of [[other, "the-key-1"], [token, "the-key-2"], [null, "the-key-1"]] as const) {
        const opened = await run(SealedResult.open(stored, as, key))
        expect(Exit.isFailure(opened)).toBe(true)
        expect(JSON.stringify(opened)).toContain("idempotency_conflict")
      }
    }), { numRuns: 20 })
  })

  it("leaves bodies without secrets as they are", async () => {
    await fc.assert(fc.asyncProperty(fc.dictionary(fc.string().filter((name) => name !== "secret"), fc.oneof(fc.integer(), fc.boolean())), async (body) => {
      expect(await run(SealedResult.seal(body, "token", "key-12345"))).toEqual(Exit.succeed(body))
    }), { numRuns: 30 })
  })
})

/** Reference: does any string or property name in the value hold a NUL? */
const unstorable = (text: string) => text.includes("\u0000") || !wellFormed(text)
const holdsNul = (value: unknown): boolean =>
  typeof value === "string"
    ? unstorable(value)
    : Array.isArray(value)
    ? value.some(holdsNul)
    : value !== null && typeof value === "object" && Object.entries(value).some(([key, item]) => unstorable(key) || holdsNul(item))

describe("audit details", () => {
  it("always fit in jsonb, and are untouched when they already did", () => {
    const anyText = fc.string({ unit: fc.integer({ min: 0, max: 0xffff }).map((code) => String.fromCharCode(code)), maxLength: 12 })
    const details = fc.dictionary(anyText, fc.oneof(anyText, fc.integer(), fc.array(anyText, { maxLength: 3 })), { maxKeys: 5 })
    fc.assert(fc.property(details, (value) => {
      const stored = Audit.storable(value)
      const text = JSON.stringify(stored)
      expect(text).not.toMatch(/\\u0000|\\ud[89a-f][0-9a-f]{2}/)
      if (!holdsNul(value)) expect(stored).toEqual(value)
    }))
  })
})

describe("request decoding", () => {
  const Query = Schema.Struct({
    limit: Schema.optionalKey(Schema.Int),
    include_ended: Schema.optionalKey(Schema.Boolean),
    name: Schema.optionalKey(Schema.String)
  })

  it("coerces URL strings to the schema's types, and leaves what it cannot coerce for the decoder to refuse", () => {
    fc.assert(fc.property(fc.string(), fc.string(), (limit, flag) => {
      const coerced = RequestDecoding.coerceStrings(Query, { limit, include_ended: flag, name: limit })
      expect(coerced.name).toBe(limit)
      if (/^-?\d{1,16}$/.test(limit)) expect(coerced.limit).toBe(Number(limit))
      else expect(coerced.limit).toBe(limit)
      expect(coerced.include_ended).toBe(flag === "true" ? true : flag === "false" ? false : flag)
      const decoded = RequestDecoding.decodePart("query", Query, coerced)
      const limitOk = /^-?\d{1,16}$/.test(limit) && Number.isSafeInteger(Number(limit))
      const flagOk = flag === "true" || flag === "false"
      expect(Result.isSuccess(decoded)).toBe(limitOk && flagOk)
    }))
  })

  it("refuses unknown properties and names where each issue is", () => {
    const decoded = RequestDecoding.decodePart("query", Query, { limit: "x", sort: "name" })
    expect(decoded).toEqual(Result.fail([
      { path: ["query", "sort"], message: "Expected no excess property" },
      { path: ["query", "limit"], message: "Expected number" }
    ]))
    expect(RequestDecoding.decodePart("body", undefined, { a: 1 })).toEqual(Result.fail([{ path: ["body"], message: "Expected no parameters" }]))
    expect(RequestDecoding.decodePart("body", undefined, {})).toEqual(Result.succeed({}))
  })

  it("says a required field is missing, at its path, in words that do not suggest an API key", () => {
    const Body = Schema.Struct({ name: Schema.String, lines: Schema.Array(Schema.Struct({ amount_cents: Schema.Int })) })
    expect(RequestDecoding.decodePart("body", Body, { lines: [{}] })).toEqual(Result.fail([
      { path: ["body", "name"], message: "Required field is missing" },
      { path: ["body", "lines", 0, "amount_cents"], message: "Required field is missing" }
    ]))
  })

  it("finds NUL characters and unpaired surrogates at any depth, in values and property names", () => {
    const withNul = fc.jsonValue({ maxDepth: 3 }).chain((value) =>
      fc.oneof(fc.constant(value), fc.constant({ value, ["x\u0000"]: 1 }), fc.constant([value, "\u0000"]), fc.constant({ value, text: "\ud800" }))
    )
    fc.assert(fc.property(withNul, fc.array(fc.oneof(fc.string(), fc.nat({ max: 3 })), { maxLength: 4 }), (value, path) => {
      expect(RequestDecoding.unstorableText("body", value).length > 0).toBe(holdsNul(value))
      let planted: unknown = "a\u0000b"
      for (const step of [...path].reverse()) planted = typeof step === "number" ? [planted] : { [step.replace(/\u0000/g, "")]: planted }
      const issues = RequestDecoding.unstorableText("body", planted)
      expect(issues.length).toBeGreaterThanOrEqual(1)
      expect(issues[0]!.path[0]).toBe("body")
    }))
    expect(RequestDecoding.unstorableText("body", { "a\u0000": 1 })).toEqual([{ path: ["body"], message: "Property names may not contain the NUL character" }])
    expect(RequestDecoding.unstorableText("body", { a: ["ok \ud83d\ude00", "bad \udc00"] })).toEqual([
      { path: ["body", "a", 1], message: "Text must be valid Unicode (no unpaired surrogate)" }
    ])
  })

  it("exempts from the key only `dry_run: true` of an operation that takes it", () => {
    expect(RequestDecoding.isDryRun(true, { dry_run: true })).toBe(true)
    expect(RequestDecoding.isDryRun(false, { dry_run: true })).toBe(false)
    for (const body of [{ dry_run: "true" }, { dry_run: 1 }, [true], null, undefined, "dry_run"]) {
      expect(RequestDecoding.isDryRun(true, body)).toBe(false)
    }
  })

  it("bounds the agent's model and run id", () => {
    expect(RequestDecoding.agentIdentityIssues("claude-x 1.0", "run-1")).toEqual([])
    expect(RequestDecoding.agentIdentityIssues("m".repeat(Limits.agentModelLengthMax + 1), null)).toHaveLength(1)
    expect(RequestDecoding.agentIdentityIssues(null, "a\nb")).toEqual([{ path: ["headers", "X-Agent-Run-Id"], message: "No control characters or unpaired surrogates" }])
    expect(RequestDecoding.agentIdentityIssues("m\ud800", null)).toHaveLength(1)
  })
})
