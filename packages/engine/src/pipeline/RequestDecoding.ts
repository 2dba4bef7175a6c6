import { Result, Schema, SchemaIssue } from "effect"
import { type ApiError, Limits, type Operation } from "@ledger/api"

/**
 * Turns the path, query and body of a call into the values an operation's Schemas accept, or into
 * the issues that say why not. Unknown properties are refused, never ignored (DECISIONS.md).
 */

const decodeOptions = { onExcessProperty: "error", errors: "all" } as const
const formatter = SchemaIssue.makeFormatterStandardSchemaV1()

type Decoder = (input: unknown) => Result.Result<unknown, Schema.SchemaError>
const decoders = new WeakMap<Schema.Top, Decoder>()
const decoderOf = (schema: Schema.Top): Decoder => {
  let decoder = decoders.get(schema)
  if (decoder === undefined) {
    decoder = Schema.decodeUnknownResult(schema as Schema.Codec<unknown, unknown>, decodeOptions) as Decoder
    decoders.set(schema, decoder)
  }
  return decoder
}

const fieldTypes = new WeakMap<Schema.Top, Record<string, string>>()
/** The JSON type of each field of a struct schema, to coerce URL strings before decoding. */
const fieldTypesOf = (schema: Schema.Top): Record<string, string> => {
  let types = fieldTypes.get(schema)
  if (types === undefined) {
    types = {}
    const document = Schema.toJsonSchemaDocument(schema)
    const properties = (document.schema as { properties?: Record<string, { type?: string; anyOf?: Array<{ type?: string }> }> })
      .properties ?? {}
    for (const [name, property] of Object.entries(properties)) {
      const type = property.type ?? property.anyOf?.find((member) => member.type !== "null")?.type
      if (type !== undefined) types[name] = type
    }
    fieldTypes.set(schema, types)
  }
  return types
}

/** The names of a struct schema's fields; none for any other schema. */
export const fieldNames = (schema: Schema.Top | undefined): ReadonlyArray<string> => {
  const fields = (schema as unknown as { fields?: Record<string, unknown> } | undefined)?.fields
  return fields === undefined ? [] : Object.keys(fields)
}

/**
 * URL strings to the JSON values their schema expects; anything else is left for the decoder to
 * refuse. Integers of more than 16 digits stay strings, so they are refused rather than rounded.
 */
export const coerceStrings = (schema: Schema.Top, values: Record<string, unknown>): Record<string, unknown> => {
  const types = fieldTypesOf(schema)
  const out: Record<string, unknown> = {}
  for (const [name, value] of Object.entries(values)) {
    const type = types[name]
    if (typeof value !== "string") {
      out[name] = value
    } else if (type === "integer" && /^-?\d{1,16}$/.test(value)) {
      out[name] = Number(value)
    } else if (type === "number" && value.trim() !== "" && Number.isFinite(Number(value))) {
      out[name] = Number(value)
    } else if (type === "boolean" && (value === "true" || value === "false")) {
      out[name] = value === "true"
    } else if (type === "array") {
      out[name] = value.split(",")
    } else {
      out[name] = value
    }
  }
  return out
}

export type Part = "path" | "query" | "body"

/** Issues found per part before its Schema runs; a few are enough to say what is wrong. */
const unstorableIssuesMax = 10

/**
 * An unpaired UTF-16 surrogate: JSON can carry it, but it is no Unicode text. With the `u` flag a
 * proper pair is one code point, so only an unpaired half matches.
 */
const unpairedSurrogate = /[\ud800-\udfff]/u

/** Why PostgreSQL could not store this text (in a column or inside jsonb), or null when it can. */
const unstorable = (text: string): string | null =>
  text.includes("\u0000")
    ? "may not contain the NUL character"
    : unpairedSurrogate.test(text)
    ? "must be valid Unicode (no unpaired surrogate)"
    : null

/**
 * Text PostgreSQL cannot store: the NUL character, or an unpaired surrogate (which jsonb refuses),
 * in any string or property name. Refused up front for every operation alike, so no handler meets
 * it and fails deep in SQL.
 */
export const unstorableText = (part: Part, value: unknown): ReadonlyArray<ApiError.Issue> => {
  const issues: Array<ApiError.Issue> = []
  const visit = (node: unknown, path: ReadonlyArray<string | number>): void => {
    if (issues.length >= unstorableIssuesMax) return
    if (typeof node === "string") {
      const why = unstorable(node)
      if (why !== null) issues.push({ path: [part, ...path], message: `Text ${why}` })
    } else if (Array.isArray(node)) {
      node.forEach((item, index) => visit(item, [...path, index]))
    } else if (node !== null && typeof node === "object") {
      for (const [key, item] of Object.entries(node)) {
        const why = unstorable(key)
        // Under a bad name nothing more is looked at: an issue's path must itself be storable.
        if (why !== null) issues.push({ path: [part, ...path], message: `Property names ${why}` })
        else visit(item, [...path, key])
      }
    }
  }
  visit(value, [])
  return issues
}

/**
 * Effect's "Missing key" reads like an API-key problem to a caller; the issue's path already names
 * the field, so the message says what is wrong with it in the API's words.
 */
const issueMessage = (message: string): string => message === "Missing key" ? "Required field is missing" : message

/** Decodes one part of a call; issues carry the part as the first element of their path. */
export const decodePart = (
  part: Part,
  schema: Schema.Top | undefined,
  value: unknown
): Result.Result<unknown, ReadonlyArray<ApiError.Issue>> => {
  if (schema === undefined) {
    const empty = value === undefined ||
      (typeof value === "object" && value !== null && !Array.isArray(value) && Object.keys(value).length === 0)
    return empty ? Result.succeed({}) : Result.fail([{ path: [part], message: "Expected no parameters" }])
  }
  const unstorable = unstorableText(part, value)
  if (unstorable.length > 0) return Result.fail(unstorable)
  const result = decoderOf(schema)(value === undefined ? {} : value)
  if (Result.isSuccess(result)) return Result.succeed(result.success)
  const issues = formatter(result.failure.issue).issues.map((issue) => ({
    path: [part, ...(issue.path ?? []).map((key) => (typeof key === "number" ? key : String(key)))],
    message: issueMessage(issue.message)
  }))
  return Result.fail(issues)
}

/** A call's three parts as the operation's Schemas made them. */
export type Decoded = Readonly<Record<Part, unknown>>

/**
 * Decodes a call's path, query and body against its operation (path and query coerced from URL
 * strings first when `coerce`; a GET's body is ignored); every part's issues, or the parts.
 */
export const decodeRequest = (
  operation: Operation.Any,
  call: { readonly path: Record<string, unknown>; readonly query: Record<string, unknown>; readonly body: unknown },
  coerce: boolean
): Result.Result<Decoded, ReadonlyArray<ApiError.Issue>> => {
  const pathValues = coerce && operation.pathParams !== undefined ? coerceStrings(operation.pathParams, call.path) : call.path
  const queryValues = coerce && operation.query !== undefined ? coerceStrings(operation.query, call.query) : call.query
  const issues: Array<ApiError.Issue> = []
  const decoded: Record<Part, unknown> = { path: {}, query: {}, body: {} }
  for (
    const [part, schema, value] of [
      ["path", operation.pathParams, pathValues],
      ["query", operation.query, queryValues],
      ["body", operation.body, operation.method === "GET" ? undefined : call.body]
    ] as const
  ) {
    const result = decodePart(part, schema, value)
    if (Result.isSuccess(result)) decoded[part] = result.success
    // A loop, not push(...spread): a body of 100,000 bad items overflows the stack as arguments.
    else for (const issue of result.failure) issues.push(issue)
  }
  return issues.length > 0 ? Result.fail(issues) : Result.succeed(decoded)
}

/**
 * `dry_run: true` read from the raw body, before it is decoded: a dry run needs no
 * Idempotency-Key, and the key is checked before the body (a write without a key is refused for
 * that even when its body is also wrong). Only operations that take `dry_run` are exempt.
 */
export const isDryRun = (acceptsDryRun: boolean, body: unknown): boolean =>
  acceptsDryRun && typeof body === "object" && body !== null && !Array.isArray(body) &&
  (body as Record<string, unknown>).dry_run === true

/** X-Agent-Model and X-Agent-Run-Id (or MCP's `_meta` keys): bounded, printable text. */
export const agentIdentityIssues = (agentModel: string | null, agentRunId: string | null): ReadonlyArray<ApiError.Issue> => {
  const issues: Array<ApiError.Issue> = []
  for (const [name, value, max] of [
    ["X-Agent-Model", agentModel, Limits.agentModelLengthMax],
    ["X-Agent-Run-Id", agentRunId, Limits.agentRunIdLengthMax]
  ] as const) {
    if (value === null) continue
    if (value.length > max) issues.push({ path: ["headers", name], message: `At most ${max} characters` })
    else if (/[\u0000-\u001f\u007f\ud800-\udfff]/u.test(value)) {
      issues.push({ path: ["headers", name], message: "No control characters or unpaired surrogates" })
    }
  }
  return issues
}
