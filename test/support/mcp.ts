import { Client } from "@modelcontextprotocol/sdk/client/index.js"
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js"

/**
 * An MCP client over Streamable HTTP holding `token`: in process through the app's `fetch`, or
 * over the network when `target` is the MCP endpoint's URL.
 */
export const connectMcp = async (
  target: { readonly fetch: (request: Request) => Promise<Response> } | string,
  token: string,
  headers: Record<string, string> = {}
): Promise<Client> => {
  const client = new Client({ name: "ledger-test", version: "1.0.0" })
  const transport = new StreamableHTTPClientTransport(new URL(typeof target === "string" ? target : "http://ledger.test/mcp"), {
    requestInit: { headers: { authorization: `Bearer ${token}`, ...headers } },
    ...(typeof target === "string"
      ? {}
      : { fetch: (input: string | URL | Request, init?: RequestInit) => target.fetch(new Request(input, init)) })
  })
  await client.connect(transport)
  return client
}
