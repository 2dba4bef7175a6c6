import { Schema } from "effect"

type Json = Record<string, unknown>

/**
 * JSON Schema of a request or response schema, with its definitions inlined: MCP clients and many
 * OpenAPI tools handle a self-contained schema best. Objects that are request bodies refuse
 * unknown properties, as the server does.
 */
export const of = (schema: Schema.Top, options: { readonly closed: boolean }): Json => {
  // An empty struct (a body of `{}`) comes out as "anything but null"; it is an empty object.
  const fields = (schema as unknown as { fields?: Record<string, unknown> }).fields
  if (fields !== undefined && Object.keys(fields).length === 0) {
    return { type: "object", properties: {}, additionalProperties: !options.closed }
  }
  const document = Schema.toJsonSchemaDocument(schema)
  const definitions = (document.definitions ?? {}) as Record<string, Json>
  const inline = (node: unknown, depth: number): unknown => {
    if (depth > 64) return {}
    if (Array.isArray(node)) return node.map((item) => inline(item, depth + 1))
    if (node === null || typeof node !== "object") return node
    const object = node as Json
    const ref = object.$ref
    if (typeof ref === "string") {
      const name = decodeURIComponent(ref.replace(/^#\/(\$defs|definitions)\//, ""))
      const target = definitions[name]
      const rest = Object.fromEntries(Object.entries(object).filter(([key]) => key !== "$ref"))
      return target === undefined ? rest : { ...(inline(target, depth + 1) as Json), ...rest }
    }
    const out: Json = {}
    for (const [key, value] of Object.entries(object)) out[key] = inline(value, depth + 1)
    if (out.type === "object" && out.properties !== undefined && options.closed) out.additionalProperties = false
    return out
  }
  return inline(document.schema, 0) as Json
}

/** The names of a struct schema's fields, or none for any other schema. */
export const fieldNames = (schema: Schema.Top | undefined): ReadonlyArray<string> => {
  if (schema === undefined) return []
  const fields = (schema as unknown as { fields?: Record<string, unknown> }).fields
  return fields === undefined ? [] : Object.keys(fields)
}
