import { ErrorCode } from "@modelcontextprotocol/sdk/types.js"

/**
 * What the SDK gets wrong about a malformed JSON-RPC message, refused before it reaches it:
 * - An empty batch: the SDK answers 202 with no body; JSON-RPC 2.0 section 6 wants one -32600
 *   object, and MCP 2025-03-26 batches hold "one or more" messages.
 * - Any batch on a protocol version from 2025-06-18 on, which removed JSON-RPC batching.
 * - `tools/call` whose params, name or arguments are not the shape the method takes: the SDK's
 *   own schema check throws a plain error there, which it answers as -32603 Internal error.
 *   params that are not an object make the request itself invalid (-32600); a missing or wrong
 *   name or arguments is -32602.
 * Each is a protocol error, so 400 (spec 1, section 7).
 */

type Json = Record<string, unknown>

interface Refusal {
  readonly code: number
  readonly message: string
  readonly id: unknown
}

/** The first protocol version without JSON-RPC batches; versions are dates, so compare as strings. */
const batchesRemovedIn = "2025-06-18"

const isObject = (value: unknown): value is Json => typeof value === "object" && value !== null && !Array.isArray(value)

const kind = (value: unknown): string => (value === null ? "null" : Array.isArray(value) ? "an array" : `a ${typeof value}`)

const validId = (id: unknown): boolean => typeof id === "string" || typeof id === "number"

/** A `tools/call` request's params checked, or null when they are fine for the SDK to take. */
const toolCallRefusal = (message: Json): Refusal | null => {
  const id = message.id
  if (!("params" in message)) {
    return { code: ErrorCode.InvalidParams, id, message: "tools/call needs params: an object with the tool's name and its arguments." }
  }
  const params = message.params
  if (!isObject(params)) return { code: ErrorCode.InvalidRequest, id, message: `Invalid Request: params must be an object, not ${kind(params)}.` }
  if (typeof params.name !== "string") {
    return { code: ErrorCode.InvalidParams, id, message: `tools/call params.name must be a string naming the tool, not ${"name" in params ? kind(params.name) : "missing"}.` }
  }
  if ("arguments" in params && !isObject(params.arguments)) {
    return { code: ErrorCode.InvalidParams, id, message: `tools/call params.arguments must be an object of the tool's arguments by name, not ${kind(params.arguments)}.` }
  }
  return null
}

const messageRefusal = (message: unknown): Refusal | null =>
  isObject(message) && message.method === "tools/call" && validId(message.id) ? toolCallRefusal(message) : null

const refusalOf = (body: unknown, protocolVersion: string | null): Refusal | null => {
  if (!Array.isArray(body)) return messageRefusal(body)
  if (body.length === 0) return { code: ErrorCode.InvalidRequest, id: null, message: "Invalid Request: an empty batch; send a JSON-RPC message." }
  if (protocolVersion !== null && protocolVersion >= batchesRemovedIn) {
    return { code: ErrorCode.InvalidRequest, id: null, message: `Invalid Request: MCP ${protocolVersion} has no JSON-RPC batches; send one message per request.` }
  }
  // One bad message refuses the batch whole: a partial answer would hide which calls ran.
  for (const [index, message] of body.entries()) {
    const refusal = messageRefusal(message)
    if (refusal !== null) return { ...refusal, id: null, message: `Batch message ${index}: ${refusal.message}` }
  }
  return null
}

/** The 400 JSON-RPC error answering a malformed message, or null when the SDK may take it. */
export const refusal = (body: unknown, protocolVersion: string | null): Response | null => {
  const found = refusalOf(body, protocolVersion)
  if (found === null) return null
  const id = validId(found.id) ? found.id : null
  return Response.json({ jsonrpc: "2.0", id, error: { code: found.code, message: found.message } }, { status: 400 })
}
