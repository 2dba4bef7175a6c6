import * as Client from "./HttpClient.ts"
import type { RunningServer } from "./ServerProcess.ts"

let keyCounter = 0
export const newKey = (prefix = "bench"): string => `${prefix}-${process.pid}-${Date.now().toString(36)}-${(keyCounter++).toString(36)}`

export interface RemoteCompany {
  readonly companyId: string
  readonly ownerKey: string
}

/** A company made over HTTP with the operator token. */
export const createCompany = async (server: RunningServer, body: Record<string, unknown> = {}): Promise<RemoteCompany> => {
  const created = await Client.json(server.baseUrl, {
    method: "POST",
    path: "/v1/companies",
    headers: Client.bearer(server.operatorToken, { "idempotency-key": newKey("company") }),
    body: JSON.stringify({ name: "Bench Co", owner_name: "Owner", plan: "owned", ...body })
  }, [201])
  return { companyId: created.company.company_id, ownerKey: created.secret }
}

/** An MCP tools/call as JSON-RPC over the Streamable HTTP transport, the bytes any MCP client sends. */
export const toolCall = (token: string, id: number, name: string, args: Record<string, unknown> = {}): Client.RequestSpec => ({
  method: "POST",
  path: "/mcp",
  headers: Client.bearer(token, { accept: "application/json, text/event-stream", "content-type": "application/json" }),
  body: JSON.stringify({ jsonrpc: "2.0", id, method: "tools/call", params: { name, arguments: args } })
})

export const toolSucceeded = (status: number, text: string): boolean =>
  status === 200 && !text.includes("\"isError\":true") && text.includes("\"result\"")
