import { AjvJsonSchemaValidator } from "@modelcontextprotocol/sdk/validation/ajv"
import { Schema } from "effect"
import fc from "fast-check"
import { describe, expect, it } from "vitest"
import { Catalog, Operation } from "@ledger/api"
import * as JsonSchema from "../src/JsonSchema.ts"
import * as OutputSchema from "../src/mcp/OutputSchema.ts"

/**
 * The rules of a tool's output schema (packages/server/src/mcp/OutputSchema.ts), without a server:
 * `$defs` only shorten a schema, never change it; an answer that is not an object is wrapped.
 */

type Json = Record<string, unknown>

/** The schema with every `$ref` to its `$defs` written out again. */
const inline = (schema: Json): Json => {
  const defs = (schema.$defs ?? {}) as Record<string, Json>
  const walk = (node: unknown, depth: number): unknown => {
    if (depth > 64) throw new Error("too deep")
    if (Array.isArray(node)) return node.map((item) => walk(item, depth + 1))
    if (node === null || typeof node !== "object") return node
    const ref = (node as Json).$ref
    if (typeof ref === "string") return walk(defs[ref.replace("#/$defs/", "")], depth + 1)
    return Object.fromEntries(Object.entries(node as Json).filter(([key]) => key !== "$defs").map(([key, value]) => [key, walk(value, depth + 1)]))
  }
  return walk(schema, 0) as Json
}

const leaf = fc.oneof(
  fc.constantFrom<Json>({ type: "string" }, { type: "integer" }, { type: "boolean" }, { type: ["string", "null"] }),
  fc.record({ type: fc.constant("string"), description: fc.constantFrom("A record id.", "A date, YYYY-MM-DD.", "A name.") })
)
const schema: fc.Arbitrary<Json> = fc.letrec<{ node: Json }>((tie) => ({
  node: fc.oneof(
    { depthSize: "small", withCrossShrink: true },
    leaf,
    fc.record({ type: fc.constant("array"), items: tie("node") }),
    fc.record({ anyOf: fc.array(tie("node"), { minLength: 1, maxLength: 3 }) }),
    fc.record({
      type: fc.constant("object"),
      properties: fc.dictionary(fc.constantFrom("id", "lines", "memo", "items", "anyOf", "$ref", "description"), tie("node"), { maxKeys: 4 })
    })
  )
})).node

describe("MCP output schemas", () => {
  it("write repeated parts once under $defs without changing the schema", () => {
    fc.assert(fc.property(schema, (node) => {
      const root = { type: "object", anyOf: [node, node] }
      const factored = OutputSchema.factor(root)
      expect(inline(factored)).toEqual(root)
      expect(JSON.stringify(factored).length).toBeLessThanOrEqual(JSON.stringify(root).length + 200)
    }), { numRuns: 300 })
  })

  it("cover every catalog tool's answers and the refusal, in less than the answers alone", () => {
    let before = 0
    let after = 0
    for (const operation of Catalog.operations as ReadonlyArray<Operation.Any>) {
      if (!operation.mcpTool || operation.credential === "none") continue
      const { schema: output } = OutputSchema.of(operation)
      expect(output.type, operation.id).toBe("object")
      const alternatives = inline(output).anyOf as Array<Json>
      // One alternative per success answer (a bare union of objects may be spread out), plus the refusal.
      const responses = Object.values(operation.responses)
      const answers = responses.flatMap((response) => {
        const json = JsonSchema.of(response, { closed: false })
        return Array.isArray(json.anyOf) && Object.keys(json).length === 1 ? json.anyOf : [json]
      })
      expect(alternatives.length, operation.id).toBeGreaterThanOrEqual(responses.length + 1)
      expect(alternatives.length, operation.id).toBeLessThanOrEqual(answers.length + 1)
      expect(alternatives.at(-1), operation.id).toMatchObject({ required: ["error"] })
      before += JSON.stringify(answers).length
      after += JSON.stringify(output).length
    }
    expect(after).toBeLessThan(before)
  })

  it("wrap an answer that is not an object under result, and validate it", () => {
    const operation = Operation.make({
      id: "listThings",
      method: "GET",
      path: "/v1/things",
      area: "test",
      summary: "A bare array.",
      scope: "read",
      mode: "R",
      success: Schema.Array(Schema.Struct({ id: Schema.Int }))
    }) as Operation.Any
    const output = OutputSchema.of(operation)
    expect(output.wrapped).toBe(true)
    const validate = new AjvJsonSchemaValidator().getValidator(output.schema as never)
    expect(validate({ result: [{ id: 1 }] }).valid).toBe(true)
    expect(validate({ error: { type: "not_found", message: "No." } }).valid).toBe(true)
    expect(validate({ result: "nope" }).valid).toBe(false)
    expect(validate([{ id: 1 }]).valid).toBe(false)
  })
})
