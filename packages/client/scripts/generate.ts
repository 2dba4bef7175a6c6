/**
 * Writes src/generated/Operations.ts: every operation's input and answers as plain TypeScript,
 * precomputed from @ledger/api's Catalog (the same JSON Schemas the OpenAPI document and the MCP
 * tools are made of). The SDK's types used to be computed from the Effect Schemas at every
 * type-check of every user's project; read from this file they cost a fraction
 * (docs/decisions/0606-sdk-precomputed-types.md, figures in docs/performance.md).
 *
 *   node packages/client/scripts/generate.ts        # rewrites the file
 *
 * test/generated.test.ts fails when the file is stale, so a contract change is one command away.
 */
import { writeFileSync } from "node:fs"
import { dirname, join } from "node:path"
import { fileURLToPath } from "node:url"
import { ApiError, Catalog, File, type Operation } from "@ledger/api"
import { Schema } from "effect"

type Json = { readonly [key: string]: unknown }

export const target = join(dirname(fileURLToPath(import.meta.url)), "../src/generated/Operations.ts")

const depthMax = 48

/** Named shapes shared by operations: one alias each, a suffix when two shapes share a name. */
class Definitions {
  readonly byName = new Map<string, string>()
  readonly aliases: Array<string> = []
  private readonly named = new Map<string, string>()

  alias(name: string, render: () => string): string {
    const base = name.replace(/[^A-Za-z0-9_]/g, "_").replace(/^(\d)/, "_$1")
    const key = `${base}`
    const known = this.named.get(key)
    if (known !== undefined) return known
    this.named.set(key, base) // reserves the name first: a recursive shape refers to itself
    const body = render()
    for (let index = 1; ; index++) {
      const candidate = index === 1 ? base : `${base}_${index}`
      const existing = this.byName.get(candidate)
      if (existing === undefined) {
        this.byName.set(candidate, body)
        this.aliases.push(`export type ${candidate} = ${body}`)
        this.named.set(key, candidate)
        return candidate
      }
      if (existing === body) {
        this.named.set(key, candidate)
        return candidate
      }
    }
  }

  /** A new document's definitions may reuse a name for another shape: forget the name map. */
  reset() {
    this.named.clear()
  }
}

const literal = (value: unknown): string => JSON.stringify(value)

const comment = (text: unknown, indent: string): string =>
  typeof text === "string" && text !== "" ? `${indent}/** ${text.replace(/\*\//g, "* /").replace(/\s+/g, " ")} */\n` : ""

const property = (name: string): string => (/^[A-Za-z_$][\w$]*$/.test(name) ? name : literal(name))

/** JSON Schema (the subset Effect writes) to a TypeScript type. */
const render = (node: unknown, definitions: Record<string, Json>, defs: Definitions, depth: number, indent: string): string => {
  if (depth > depthMax || node === null || typeof node !== "object") return "unknown"
  const schema = node as Json
  if (typeof schema.$ref === "string") {
    const name = decodeURIComponent(schema.$ref.replace(/^#\/(\$defs|definitions)\//, ""))
    const target = definitions[name]
    if (target === undefined) return "unknown"
    return defs.alias(name, () => render(target, definitions, defs, depth + 1, ""))
  }
  if ("const" in schema) return literal(schema.const)
  if (Array.isArray(schema.enum)) return schema.enum.map(literal).join(" | ") || "never"
  const union = (schema.anyOf ?? schema.oneOf) as ReadonlyArray<unknown> | undefined
  if (Array.isArray(union)) {
    const members = Array.from(new Set(union.map((member) => render(member, definitions, defs, depth + 1, indent))))
    return members.length === 0 ? "never" : members.map((member) => (member.includes("\n") || members.length === 1 ? member : member)).join(" | ")
  }
  if (Array.isArray(schema.allOf) && schema.allOf.length > 0) {
    return schema.allOf.map((member) => render(member, definitions, defs, depth + 1, indent)).join(" & ")
  }
  const type = schema.type
  if (Array.isArray(type)) return type.map((one) => render({ ...schema, type: one }, definitions, defs, depth + 1, indent)).join(" | ")
  switch (type) {
    case "string":
      return "string"
    case "integer":
    case "number":
      return "number"
    case "boolean":
      return "boolean"
    case "null":
      return "null"
    case "array": {
      if (Array.isArray(schema.prefixItems)) {
        const items = schema.prefixItems.map((item) => render(item, definitions, defs, depth + 1, indent))
        return `readonly [${items.join(", ")}]`
      }
      const item = render(schema.items ?? {}, definitions, defs, depth + 1, indent)
      return /^[\w."]+$/.test(item) ? `ReadonlyArray<${item}>` : `ReadonlyArray<${item}>`
    }
    case "object":
      return renderObject(schema, definitions, defs, depth, indent)
    default:
      return "unknown"
  }
}

const renderObject = (schema: Json, definitions: Record<string, Json>, defs: Definitions, depth: number, indent: string): string => {
  const properties = (schema.properties ?? {}) as Record<string, unknown>
  const required = new Set((schema.required ?? []) as ReadonlyArray<string>)
  const names = Object.keys(properties)
  const extra = schema.additionalProperties
  if (names.length === 0) {
    if (typeof extra === "object" && extra !== null) {
      return `{ readonly [key: string]: ${render(extra, definitions, defs, depth + 1, indent)} }`
    }
    const patterns = schema.patternProperties as Record<string, unknown> | undefined
    if (patterns !== undefined) {
      const values = Object.values(patterns).map((value) => render(value, definitions, defs, depth + 1, indent))
      return `{ readonly [key: string]: ${Array.from(new Set(values)).join(" | ") || "unknown"} }`
    }
    return "{}"
  }
  const inner = `${indent}  `
  const lines = names.map((name) => {
    const field = properties[name] as Json
    return `${comment(field?.description, inner)}${inner}readonly ${property(name)}${required.has(name) ? "" : "?"}: ${
      render(field, definitions, defs, depth + 1, inner)
    }`
  })
  return `{\n${lines.join("\n")}\n${indent}}`
}

const documentOf = (schema: Schema.Top): { readonly schema: Json; readonly definitions: Record<string, Json> } => {
  const fields = (schema as unknown as { fields?: Record<string, unknown> }).fields
  if (fields !== undefined && Object.keys(fields).length === 0) return { schema: { type: "object", properties: {} }, definitions: {} }
  const document = Schema.toJsonSchemaDocument(schema)
  return { schema: document.schema as Json, definitions: (document.definitions ?? {}) as Record<string, Json> }
}

const fieldNames = (schema: Schema.Top | undefined): ReadonlyArray<string> =>
  Object.keys((schema as unknown as { fields?: Record<string, unknown> } | undefined)?.fields ?? {})

/** The flat input: path, query and body fields in one object (docs/decisions/0600). */
const renderInput = (operation: Operation.Any, defs: Definitions): { readonly text: string; readonly optional: boolean; readonly fields: ReadonlyArray<string> } => {
  const merged: Record<string, unknown> = {}
  const required: Array<string> = []
  const definitions: Record<string, Json> = {}
  for (const part of [operation.pathParams, operation.query, operation.body]) {
    if (part === undefined) continue
    const document = documentOf(part)
    if (document.schema.type !== "object") continue
    Object.assign(merged, document.schema.properties ?? {})
    required.push(...((document.schema.required ?? []) as ReadonlyArray<string>))
    Object.assign(definitions, document.definitions)
  }
  const text = render({ type: "object", properties: merged, required }, definitions, defs, 0, "    ")
  return { text, optional: required.length === 0, fields: Object.keys(merged) }
}

const renderAnswer = (schema: Schema.Top | undefined, defs: Definitions): string => {
  if (schema === undefined) return "never"
  const document = documentOf(schema)
  return render(document.schema, document.definitions, defs, 0, "    ")
}

/** A cursor page: `{ data: [...], has_more, next_cursor }` (a `$ref` to one is followed). */
const isPage = (schema: Schema.Top): boolean => {
  const document = documentOf(schema)
  let node: Json = document.schema
  if (typeof node.$ref === "string") node = document.definitions[decodeURIComponent(node.$ref.replace(/^#\/(\$defs|definitions)\//, ""))] ?? {}
  const properties = (node.properties ?? {}) as Record<string, Json>
  return properties.data?.type === "array" && "has_more" in properties && "next_cursor" in properties
}

/** The whole file, for the generator and for the test that finds it stale. */
export const renderFile = (): string => {
  const defs = new Definitions()
  const entries: Array<string> = []
  const routes: Array<string> = []
  const lists: Array<string> = []
  for (const operation of Catalog.operations as ReadonlyArray<Operation.Any>) {
    if (operation.id === "postMcp") continue
    defs.reset()
    const input = renderInput(operation, defs)
    const successStatus = Number(Object.entries(operation.responses).find(([, schema]) => schema === operation.success)?.[0] ?? 200)
    const takesDryRun = input.fields.includes("dry_run")
    const output = renderAnswer(operation.success, defs)
    // A dry run answers 200; when that is also the success status, the preview is the generic one.
    const preview = !takesDryRun ? "never" : successStatus === 200 ? "DryRunResult" : renderAnswer(operation.responses[200], defs)
    const queued = !takesDryRun || successStatus === 202 ? "never" : operation.responses[202] === undefined ? "never" : renderAnswer(operation.responses[202], defs)
    const isList = input.fields.includes("cursor") && isPage(operation.success)
    if (isList) lists.push(operation.id)
    entries.push(
      `${comment(operation.summary, "  ")}  readonly ${operation.id}: {\n` +
        `    readonly input: ${input.text}\n` +
        `    readonly optional: ${input.optional}\n` +
        `    readonly dryRun: ${takesDryRun}\n` +
        `    readonly output: ${output}\n` +
        `    readonly preview: ${preview}\n` +
        `    readonly queued: ${queued}\n` +
        `  }`
    )
    routes.push(
      `  ${operation.id}: ${
        JSON.stringify([
          operation.method,
          operation.path,
          operation.mode,
          fieldNames(operation.pathParams),
          fieldNames(operation.query),
          // The Accept of a download: the operation's file media types, JSON for refusals.
          operation.files === undefined ? null : [...File.mediaTypesOf(operation.files).map(File.essence), "application/json;q=0.1"].join(", ")
        ])
      },`
    )
  }
  return [
    "// Generated by packages/client/scripts/generate.ts from @ledger/api's Catalog: do not edit.",
    "// Run `node packages/client/scripts/generate.ts` after a contract change (test/generated.test.ts checks).",
    "/* eslint-disable */",
    "",
    "/** The body of a dry run whose operation answers 200 either way: the preview's own fields. */",
    "export interface DryRunResult {",
    "  readonly dry_run: true",
    "  readonly [field: string]: unknown",
    "}",
    "",
    ...defs.aliases.map((alias) => `${alias}\n`),
    "/** Every operation of the catalog (but postMcp): its flat input and its answers, as JSON. */",
    "export interface Operations {",
    entries.join("\n"),
    "}",
    "",
    "/** The operations that answer a cursor page and take a `cursor`. */",
    `export type ListOperationId =\n${lists.map((id) => `  | ${literal(id)}`).join("\n") || "  never"}`,
    "",
    "/** Every error type a refusal may carry (ApiError.errorTypes). */",
    `export const errorTypes = ${JSON.stringify(ApiError.errorTypes)} as const`,
    "export type ErrorType = typeof errorTypes[number]",
    "",
    "/** What a request needs at run time: method, path template, write mode, path and query field names, a download's Accept. */",
    "export type Route = readonly [\"GET\" | \"POST\", string, \"K\" | \"-\" | \"R\", ReadonlyArray<string>, ReadonlyArray<string>, string | null]",
    "export const routes: { readonly [Id in keyof Operations]: Route } = {",
    ...routes,
    "}",
    ""
  ].join("\n")
}

if (import.meta.url === `file://${process.argv[1]}`) {
  writeFileSync(target, renderFile())
  console.log(`wrote ${target}`)
}
