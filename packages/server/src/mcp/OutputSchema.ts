import { Common, type Operation } from "@ledger/api"
import * as JsonSchema from "../JsonSchema.ts"

/**
 * A tool's `outputSchema` (issue 20 item 5), derived from the operation's success responses.
 *
 * - Every success status is one alternative (`anyOf`): a governed write answers the record (201),
 *   a queued proposal (202) or, with `dry_run`, a preview (200); a report answers its data or a
 *   file's JSON envelope.
 * - A refusal comes back with `isError` and the API's error body as `structuredContent`; MCP
 *   clients validate any structured content they get (the official SDK does, error or not), so the
 *   error body is one more alternative.
 * - MCP wants an object schema at the top. An answer that is not an object (an array, a scalar)
 *   travels as `{ "result": ... }`; `wrapped` says so, and the call handler wraps accordingly.
 * - Output schemas describe, they do not police: objects stay open (a newer server may add a
 *   field) and say what a value is, not its limits: bounds, lengths and patterns, which police
 *   what a client may send, are the input schema's. They are sized for agents (see `trim`), and
 *   subschemas repeated within one tool (a document line) are written once under `$defs`.
 */

type Json = Record<string, unknown>

export interface Output {
  readonly schema: Json & { readonly type: "object" }
  /** The success answer is sent as `{ result: body }`. */
  readonly wrapped: boolean
}

/**
 * The API's error body as an alternative: an object with `error` (its `type` and `message` are
 * stated once, in the server's instructions, rather than in each of some 300 tools).
 */
const refusal: Json = { type: "object", required: ["error"] }

/** Keywords a scalar schema may carry and still take `null` as `type: [T, "null"]`. */
const scalarKeywords = new Set(["type", "description", "format"])

/** Keywords that only police a value's size or spelling: the input schemas keep them, outputs need not. */
const policing = new Set(["additionalProperties", "minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "pattern", "minLength", "maxLength", "minItems", "maxItems"])

/**
 * Drops what only polices (`additionalProperties`: outputs are open; bounds, lengths, patterns);
 * writes a nullable scalar (`anyOf: [{type: T}, {type: "null"}]`) as `type: [T, "null"]`.
 */
const loosen = (node: unknown): unknown => {
  if (Array.isArray(node)) return node.map(loosen)
  if (node === null || typeof node !== "object") return node
  const out: Json = {}
  for (const [key, value] of Object.entries(node as Json)) {
    if (policing.has(key) && (typeof value === "number" || typeof value === "string" || typeof value === "boolean")) continue
    out[key] = loosen(value)
  }
  const anyOf = out.anyOf
  if (Array.isArray(anyOf) && anyOf.length === 2 && (anyOf[1] as Json).type === "null" && Object.keys(anyOf[1] as Json).length === 1) {
    const scalar = anyOf[0] as Json
    if (typeof scalar.type === "string" && scalar.type !== "object" && scalar.type !== "array" &&
      Object.keys(scalar).every((key) => scalarKeywords.has(key))) {
      const { anyOf: _, ...rest } = out
      return { ...scalar, ...rest, type: [scalar.type, "null"] }
    }
  }
  return out
}

/**
 * How much of an answer an output schema spells out. An agent loads every listed tool's schemas
 * into its context, and the official SDK client compiles each one when it lists them, so the list
 * carries what a field is (its name, type, enum, nullability and, for the answer's own fields, its
 * description) and leaves out what adds little there:
 *
 * - records deeper than a document's line keep only their type (`fieldsDepth`: 0 is the answer,
 *   1 a record it holds, such as a line or a list's item); a preview's or a queued proposal's
 *   parts list only the answer's own fields (`secondaryFieldsDepth`), the record is the answer;
 * - descriptions of nested fields, and of the contract's shared scalars anywhere (`conventions`);
 * - `required`: most answers carry every field (an empty value is `null`, typed so) and objects
 *   are open anyway; the refusal keeps its own, which tells it from an answer.
 */
const fieldsDepth = 2
const secondaryFieldsDepth = 1
const descriptionsDepth = 1

/**
 * Descriptions of the contract's shared scalars (a record id, a date, a timestamp, cents...): a
 * field's name and type say as much in an answer, and the input schemas and the server's
 * instructions state them once.
 */
let conventionsMemo: ReadonlySet<string> | undefined
const conventions = (): ReadonlySet<string> =>
  (conventionsMemo ??= new Set(
    [Common.Id, Common.CompanyId, Common.DateString, Common.Timestamp, Common.Name, Common.Reason, Common.Memo, Common.Cents, Common.PositiveCents, Common.NonNegativeCents]
      .map((schema) => JsonSchema.of(schema, { closed: false }).description)
      .filter((description): description is string => typeof description === "string")
  ))

/** Keeps of an answer's schema what is said above; `depth` counts records, not keywords. */
const trim = (node: Json, depth: number, fieldsMax: number): Json => {
  const out: Json = {}
  for (const [key, value] of Object.entries(node)) {
    if (key === "description") {
      if (depth <= descriptionsDepth && !conventions().has(value as string)) out[key] = value
    } else if (key === "properties") {
      if (depth < fieldsMax) {
        out[key] = Object.fromEntries(Object.entries(value as Record<string, Json>).map(([name, child]) => [name, trim(child, depth + 1, fieldsMax)]))
      }
    } else if (key === "items" || key === "additionalProperties") {
      out[key] = value !== null && typeof value === "object" ? trim(value as Json, depth, fieldsMax) : value
    } else if (key === "anyOf" || key === "oneOf") {
      out[key] = (value as Array<Json>).map((child) => trim(child, depth, fieldsMax))
    } else if (key !== "required") out[key] = value
  }
  return out
}

const isObjectSchema = (schema: Json): boolean =>
  schema.type === "object" ||
  (Array.isArray(schema.anyOf) && schema.anyOf.length > 0 && (schema.anyOf as Array<Json>).every(isObjectSchema))

/** The subschemas of a schema node, by the keywords whose values are schemas. */
const forEachChild = (node: Json, visit: (child: Json, name: string) => void) => {
  for (const [key, value] of Object.entries(node)) {
    if (value === null || typeof value !== "object") continue
    if (key === "properties" || key === "$defs" || key === "patternProperties") {
      for (const [name, child] of Object.entries(value as Json)) {
        if (child !== null && typeof child === "object") visit(child as Json, name)
      }
    } else if (key === "anyOf" || key === "oneOf" || key === "allOf" || key === "prefixItems") {
      for (const child of value as Array<Json>) visit(child, key)
    } else if (key === "items" || key === "additionalProperties" || key === "not") {
      if (!Array.isArray(value)) visit(value as Json, key)
    }
  }
}

/** Keywords whose subschemas are not a property's own. */
const structural = new Set(["anyOf", "oneOf", "allOf", "prefixItems", "items", "additionalProperties", "not"])

/** Shorter than this (in JSON characters), a subschema is cheaper inline than referenced. */
const factorLengthMin = 40
/** At most this many `$defs` in one tool's schema. */
const defsMax = 200

/**
 * A `$defs` name: a record part after the property it first appears under (`lines`, `proposal`);
 * a scalar after its type (`integer_or_null`), so a shared shape never reads as one field's.
 */
const nameOf = (node: Json, firstUse: string): string => {
  if ((node.type === "object" || node.type === "array") && /^[A-Za-z_][A-Za-z0-9_]*$/.test(firstUse) && !structural.has(firstUse)) {
    return firstUse
  }
  const types = Array.isArray(node.type) ? node.type : typeof node.type === "string" ? [node.type] : []
  if (typeof node.description === "string" && node.description.startsWith("A record id")) return types.includes("null") ? "id_or_null" : "id"
  if (typeof node.description === "string" && node.description.startsWith("A date")) return types.includes("null") ? "date_or_null" : "date"
  return types.length > 0 ? types.join("_or_") : Array.isArray(node.anyOf) ? "one_of" : "schema"
}

/** Writes each subschema repeated within `schema` once under `$defs` and references it. */
export const factor = (schema: Json): Json => {
  const seen = new Map<string, { count: number; name: string }>()
  const count = (node: Json, name: string, depth: number) => {
    if (depth > 64) return
    const text = JSON.stringify(node)
    if (text.length >= factorLengthMin) {
      const entry = seen.get(text)
      if (entry === undefined) seen.set(text, { count: 1, name })
      else entry.count += 1
    }
    // A part is named after its property; an array's item after the array (`lines_item`).
    forEachChild(node, (child, childName) =>
      count(child, childName === "items" ? `${name}_item` : structural.has(childName) ? name : childName, depth + 1))
  }
  forEachChild(schema, (child, name) => count(child, name, 0))

  const defs: Record<string, Json> = {}
  const names = new Map<string, string>()
  const used = new Set<string>()
  const rewrite = (node: Json, depth: number): Json => {
    const text = JSON.stringify(node)
    const entry = seen.get(text)
    if (depth > 0 && entry !== undefined && entry.count > 1 && (names.has(text) || names.size < defsMax)) {
      let name = names.get(text)
      if (name === undefined) {
        const base = nameOf(node, entry.name)
        name = base
        for (let n = 2; used.has(name); n++) name = `${base}_${n}`
        used.add(name)
        names.set(text, name)
        defs[name] = rewriteChildren(node, depth)
      }
      return { $ref: `#/$defs/${name}` }
    }
    return rewriteChildren(node, depth)
  }
  const rewriteChildren = (node: Json, depth: number): Json => {
    const out: Json = {}
    for (const [key, value] of Object.entries(node)) {
      if (value === null || typeof value !== "object") out[key] = value
      else if (key === "properties" || key === "patternProperties") {
        out[key] = Object.fromEntries(Object.entries(value as Json).map(([name, child]) =>
          [name, child !== null && typeof child === "object" ? rewrite(child as Json, depth + 1) : child]))
      } else if (key === "anyOf" || key === "oneOf" || key === "allOf" || key === "prefixItems") {
        out[key] = (value as Array<Json>).map((child) => rewrite(child, depth + 1))
      } else if ((key === "items" || key === "additionalProperties" || key === "not") && !Array.isArray(value)) {
        out[key] = rewrite(value as Json, depth + 1)
      } else out[key] = value
    }
    return out
  }
  const root = rewriteChildren(schema, 0)
  return names.size === 0 ? root : { ...root, $defs: defs }
}

/** The output schema of an operation's tool. */
export const of = (operation: Operation.Any): Output => {
  const statuses = Object.keys(operation.responses).map(Number).sort((a, b) => a - b)
  const alternatives = statuses.map((status) => {
    const json = loosen(JsonSchema.of(operation.responses[status]!, { closed: false })) as Json
    const label = status === 202
      ? "Queued for a person's approval (202): the proposal."
      : operation.governed && status === 200
      ? "A preview (200, dry_run): nothing was written."
      : null
    const trimmed = trim(json, 0, label === null ? fieldsDepth : secondaryFieldsDepth)
    return trimmed.description === undefined && label !== null ? { ...trimmed, description: label } : trimmed
  })
  const wrapped = !alternatives.every(isObjectSchema)
  // An answer that is itself a union of objects (a report's data or its file) is spread out.
  const flat = alternatives.flatMap((json) =>
    Array.isArray(json.anyOf) && Object.keys(json).every((key) => key === "anyOf") ? json.anyOf as Array<Json> : [json])
  const success: Array<Json> = wrapped
    ? [{
      type: "object",
      properties: { result: alternatives.length === 1 ? alternatives[0]! : { anyOf: alternatives } },
      required: ["result"],
      description: "The answer, which is not a JSON object, under `result`."
    }]
    : flat
  return { schema: factor({ type: "object", anyOf: [...success, refusal] }) as Output["schema"], wrapped }
}
