/**
 * A JSON value against an OpenAPI 3.0 schema, the way a provider's contract test needs it (issue 39),
 * for the providers that speak JSON (the bank aggregator, the chains' JSON-RPC). Two readings:
 *
 * - `request`: what the provider refuses. A field the schema does not declare is a problem unless the
 *   schema allows more (`additionalProperties`), since the real services refuse unknown fields
 *   (Plaid's `UNKNOWN_FIELDS`); required fields, types, enums, bounds and formats are checked.
 * - `answer`: what a client may rely on. Required fields must be there (null only where nullable),
 *   every field given must have its declared type; fields beyond the schema are allowed only where it says so.
 *
 * The stripe harness (stripe.ts) keeps its own form-encoding reader; this one is JSON only.
 */

type Json = any
export interface Schema { readonly [key: string]: Json }
export type Reading = "request" | "answer"

const date = /^\d{4}-\d{2}-\d{2}$/u

/** A string's or a number's problems: type, format, length, pattern, bounds. */
const scalarProblems = (schema: Schema, value: Json, at: string): Array<string> => {
  if (schema.type === "string") {
    if (typeof value !== "string") return [`${at}: a string expected, not ${JSON.stringify(value)}`]
    if (schema.format === "date" && !date.test(value)) return [`${at}: "${value}" is not a date (YYYY-MM-DD)`]
    if (schema.format === "date-time" && Number.isNaN(Date.parse(value))) return [`${at}: "${value}" is not a date-time`]
    if (schema.minLength !== undefined && value.length < schema.minLength) return [`${at}: shorter than ${schema.minLength}`]
    if (schema.maxLength !== undefined && value.length > schema.maxLength) return [`${at}: longer than ${schema.maxLength}`]
    if (schema.pattern !== undefined && !new RegExp(schema.pattern, "u").test(value)) return [`${at}: "${value}" does not match ${schema.pattern}`]
    return []
  }
  if (typeof value !== "number" || (schema.type === "integer" && !Number.isInteger(value))) return [`${at}: ${schema.type === "integer" ? "an integer" : "a number"} expected, not ${JSON.stringify(value)}`]
  if (schema.minimum !== undefined && value < schema.minimum) return [`${at}: ${value} is under the minimum ${schema.minimum}`]
  if (schema.maximum !== undefined && value > schema.maximum) return [`${at}: ${value} is over the maximum ${schema.maximum}`]
  return []
}

/** `allOf` parts merged into one object schema: properties and required joined, open if any part is. */
const merge = (schema: Schema, resolve: (schema: Schema) => Schema): Schema => {
  if (schema.allOf === undefined) return schema
  const parts = (schema.allOf as Array<Schema>).map((part) => merge(resolve(part), resolve))
  const rest = Object.fromEntries(Object.entries(schema).filter(([key]) => key !== "allOf"))
  return {
    type: "object",
    ...rest,
    properties: Object.assign({}, ...parts.map((part) => part.properties ?? {}), rest.properties ?? {}),
    required: [...parts.flatMap((part) => part.required ?? []), ...(rest.required ?? [])],
    additionalProperties: parts.some((part) => part.additionalProperties === true) || rest.additionalProperties === true
  }
}

export const checker = (schemas: Readonly<Record<string, Schema>>, prefix = "#/components/schemas/") => {
  const resolve = (schema: Schema): Schema => {
    let found = schema
    for (let depth = 0; found?.$ref !== undefined && depth < 20; depth++) {
      const name = String(found.$ref).replace(prefix, "")
      const next = schemas[name]
      if (next === undefined) throw new Error(`the description has no schema ${name}`)
      found = next
    }
    return found
  }

  /** Whether a schema's declared type is the value's JSON type (an untyped one fits anything; an array by its first item). */
  const fits = (schema: Schema, value: Json): boolean => {
    const kind = value === null ? "null" : Array.isArray(value) ? "array" : typeof value === "number" ? (Number.isInteger(value) ? "integer" : "number") : typeof value
    const type = schema.type ?? (schema.properties !== undefined ? "object" : undefined)
    if (type === "array" && kind === "array" && value.length > 0 && schema.items !== undefined) return fits(resolve(schema.items), value[0])
    return type === undefined || type === kind || (type === "number" && kind === "integer")
  }

  const problems = (raw: Schema, value: Json, at: string, reading: Reading): Array<string> => {
    const schema = merge(resolve(raw), resolve)
    // OpenAPI 3.0 says `nullable`; JSON Schema (OpenRPC) says `type: "null"`, usually as one of `oneOf`.
    if (value === null && schema.anyOf === undefined && schema.oneOf === undefined) {
      return schema.nullable === true || schema.type === "null" ? [] : [`${at}: null where the description has no null`]
    }
    if (schema.type === "null") return [`${at}: null expected, not ${JSON.stringify(value)}`]
    if (schema.anyOf !== undefined || schema.oneOf !== undefined) {
      const options = (schema.anyOf ?? schema.oneOf) as Array<Schema>
      const each = options.map((option) => ({ found: problems(option, value, at, reading), fits: fits(resolve(option), value) }))
      if (each.some(({ found }) => found.length === 0)) return []
      // The problems of the option the value was meant for: one of its type first, then the fewest.
      return each.sort((a, b) => Number(b.fits) - Number(a.fits) || a.found.length - b.found.length)[0]!.found
    }
    if (schema.enum !== undefined && !schema.enum.includes(value)) return [`${at}: ${JSON.stringify(value)} is not one of ${schema.enum.slice(0, 12).join(", ")}`]
    switch (schema.type) {
      case "string":
      case "integer":
      case "number":
        return scalarProblems(schema, value, at)
      case "boolean":
        return typeof value === "boolean" ? [] : [`${at}: a boolean expected, not ${JSON.stringify(value)}`]
      case "array": {
        if (!Array.isArray(value)) return [`${at}: an array expected`]
        const sized = schema.minItems !== undefined && value.length < schema.minItems ? [`${at}: fewer than ${schema.minItems} items`] : []
        return [...sized, ...value.flatMap((item, index) => problems(schema.items ?? {}, item, `${at}[${index}]`, reading))]
      }
      default: {
        if (schema.type !== "object" && schema.properties === undefined) return []
        if (typeof value !== "object" || Array.isArray(value)) return [`${at}: an object expected`]
        const properties = (schema.properties ?? {}) as Record<string, Schema>
        const open = schema.additionalProperties === true || typeof schema.additionalProperties === "object" ||
          (reading === "answer" && schema.additionalProperties === undefined && schema.properties === undefined)
        const found: Array<string> = []
        for (const [key, item] of Object.entries(value)) {
          if (properties[key] !== undefined) found.push(...problems(properties[key], item, `${at}.${key}`, reading))
          else if (typeof schema.additionalProperties === "object") found.push(...problems(schema.additionalProperties, item, `${at}.${key}`, reading))
          else if (!open) found.push(`${at}.${key}: not in the description`)
        }
        for (const key of (schema.required ?? []) as Array<string>) if (!(key in value)) found.push(`${at}.${key}: required`)
        return found
      }
    }
  }
  return { resolve, problems }
}
