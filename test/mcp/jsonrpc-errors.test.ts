import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { type McpTestApp, serveMcpOverHttp, startMcpApp } from "../support/index.ts"

/**
 * Malformed JSON-RPC over real HTTP (packages/server/src/mcp/Mcp.ts, `refusal`): a request the
 * server cannot take is a JSON-RPC error of the right code, never -32603 Internal error. An empty
 * batch is -32600 (JSON-RPC 2.0 section 6; MCP 2025-03-26 batches hold "one or more" messages and
 * 2025-06-18 on has no batches at all); bad `tools/call` params are -32602.
 */

type Json = Record<string, unknown>

let started: McpTestApp
let served: { readonly url: string; readonly close: () => Promise<void> }
beforeAll(async () => {
  started = await startMcpApp("JSON-RPC Errors Co")
  served = await serveMcpOverHttp(started.app)
})
afterAll(async () => {
  await served?.close()
  await started?.close()
})

const post = async (body: unknown, headers: Record<string, string> = {}) => {
  const response = await fetch(served.url, {
    method: "POST",
    headers: {
      authorization: `Bearer ${started.company.ownerKey}`,
      "content-type": "application/json",
      accept: "application/json, text/event-stream",
      ...headers
    },
    body: JSON.stringify(body)
  })
  const text = await response.text()
  return { status: response.status, body: (text === "" ? null : JSON.parse(text)) as unknown }
}

const call = (params: unknown) => post({ jsonrpc: "2.0", id: 7, method: "tools/call", ...(params === undefined ? {} : { params }) })

describe("MCP JSON-RPC errors", () => {
  it("answers an empty batch with one -32600 Invalid Request object", async () => {
    const answer = await post([])
    expect(answer.status).toBe(400)
    expect(answer.body).toMatchObject({ jsonrpc: "2.0", id: null, error: { code: -32600 } })
    expect(Array.isArray(answer.body)).toBe(false)
  })

  it("refuses any batch from a client on a protocol version without batches", async () => {
    const list = { jsonrpc: "2.0", id: 1, method: "tools/list", params: {} }
    const answer = await post([list], { "mcp-protocol-version": "2025-06-18" })
    expect(answer.status).toBe(400)
    expect(answer.body).toMatchObject({ jsonrpc: "2.0", id: null, error: { code: -32600 } })
    expect((answer.body as { error: { message: string } }).error.message).toMatch(/batch/i)
  })

  it("refuses a 2025-03-26 batch holding a malformed call, naming the message", async () => {
    const list = { jsonrpc: "2.0", id: 1, method: "tools/list", params: {} }
    const bad = { jsonrpc: "2.0", id: 2, method: "tools/call", params: { name: "get_me", arguments: [1] } }
    const answer = await post([list, bad], { "mcp-protocol-version": "2025-03-26" })
    expect(answer.status).toBe(400)
    expect(answer.body).toMatchObject({ id: null, error: { code: -32602, message: expect.stringMatching(/^Batch message 1: .*arguments/) } })
  })

  it.each([
    ["an array", [1]],
    ["a string", "x"],
    ["null", null],
    ["a number", 42]
  ])("answers tools/call whose arguments are %s with -32602 naming arguments", async (_what, args) => {
    const answer = await call({ name: "get_me", arguments: args })
    expect(answer.status).toBe(400)
    const error = (answer.body as { id: unknown; error: { code: number; message: string } })
    expect(error).toMatchObject({ jsonrpc: "2.0", id: 7, error: { code: -32602 } })
    expect(error.error.message).toMatch(/arguments/)
  })

  it.each([
    ["params missing", undefined, -32602],
    ["params an array", [1], -32600],
    ["params a string", "x", -32600],
    ["params null", null, -32600],
    ["name missing", { arguments: {} }, -32602],
    ["name a number", { name: 5, arguments: {} }, -32602]
  ])("answers tools/call with %s as a request or params error, never -32603", async (_what, params, code) => {
    const answer = await call(params)
    expect(answer.status).toBe(400)
    expect(answer.body).toMatchObject({ jsonrpc: "2.0", id: 7 })
    const error = (answer.body as Json).error as { code: number; message: string }
    expect(error.code).toBe(code)
    expect(error.message).toMatch(/params|name/)
  })

  it("still answers a call without arguments, and a well-formed 2025-03-26 batch", async () => {
    const answer = await call({ name: "get_me" })
    expect((answer.body as Json).result).toMatchObject({ structuredContent: { principal_type: expect.any(String) } })
    const me = { jsonrpc: "2.0", id: 3, method: "tools/call", params: { name: "get_me", arguments: {} } }
    const batch = await post([me, { ...me, id: 4 }], { "mcp-protocol-version": "2025-03-26" })
    expect(batch.status).toBe(200)
    const meAnswer = { result: { structuredContent: { principal_type: expect.any(String) } } }
    expect(batch.body).toMatchObject([{ id: 3, ...meAnswer }, { id: 4, ...meAnswer }])
  })
})
