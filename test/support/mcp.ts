import { createServer } from "node:http"
import type { AddressInfo } from "node:net"
import { Client, type ClientOptions } from "@modelcontextprotocol/sdk/client/index.js"
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js"
import { makeTestApp, type TestApp, type TestCompany } from "./app.ts"

/**
 * An MCP client over Streamable HTTP holding `token`: in process through the app's `fetch`, or
 * over the network when `target` is the MCP endpoint's URL.
 */
export const connectMcp = async (
  target: { readonly fetch: (request: Request) => Promise<Response> } | string,
  token: string,
  headers: Record<string, string> = {},
  options?: ClientOptions
): Promise<Client> => {
  const client = new Client({ name: "ledger-test", version: "1.0.0" }, options)
  const transport = new StreamableHTTPClientTransport(new URL(typeof target === "string" ? target : "http://ledger.test/mcp"), {
    requestInit: { headers: { authorization: `Bearer ${token}`, ...headers } },
    ...(typeof target === "string"
      ? {}
      : { fetch: (input: string | URL | Request, init?: RequestInit) => target.fetch(new Request(input, init)) })
  })
  await client.connect(transport)
  return client
}

/**
 * The discovery tools (ADR 2200), first in every tool list whatever toolsets are named; tests
 * about the catalog's tools set them aside with `catalogTools`.
 */
export const discoveryToolNames: ReadonlyArray<string> = ["list_toolsets", "describe_tool", "enable_toolset", "disable_toolset", "call_tool"]

export const catalogTools = <T extends { readonly name: string }>(tools: ReadonlyArray<T>): Array<T> =>
  tools.filter((tool) => !discoveryToolNames.includes(tool.name))

/** The header that lists every tool the caller may use, not the small default (ADR 2200). */
export const allTools: Record<string, string> = { "x-ledger-toolsets": "all" }

/** An app, one company in it, and its owner's MCP client in process. */
export interface McpTestApp {
  readonly app: TestApp
  readonly company: TestCompany
  readonly owner: Client
  /** Closes the owner's client, then the app. */
  readonly close: () => Promise<void>
}

/** How the MCP tests begin: an app with one company, its owner connected over MCP. */
export const startMcpApp = async (companyName: string, headers: Record<string, string> = {}): Promise<McpTestApp> => {
  const app = await makeTestApp()
  try {
    const company = await app.createCompany({ name: companyName })
    const owner = await connectMcp(app, company.ownerKey, headers)
    const close = async () => {
      await owner.close()
      await app.close()
    }
    return { app, company, owner, close }
  } catch (error) {
    // A failed start leaves no app open behind it: the test's afterAll has nothing to close.
    await app.close()
    throw error
  }
}

/**
 * The app's fetch handler on a loopback port, bodies and headers passed on as they come and
 * answers streamed back whole, for a client in another process (the MCP Inspector's CLI).
 * Answers the MCP endpoint's URL.
 */
export const serveMcpOverHttp = async (app: TestApp): Promise<{ readonly url: string; readonly close: () => Promise<void> }> => {
  const server = createServer((incoming, outgoing) => {
    const chunks: Array<Buffer> = []
    incoming.on("data", (chunk: Buffer) => chunks.push(chunk))
    incoming.on("end", () => {
      const headers = new Headers()
      for (const [name, value] of Object.entries(incoming.headers)) {
        if (typeof value === "string") headers.set(name, value)
      }
      const body = chunks.length === 0 ? undefined : Buffer.concat(chunks)
      app.fetch(new Request(`http://127.0.0.1${incoming.url ?? "/"}`, { method: incoming.method ?? "GET", headers, ...(body === undefined ? {} : { body }) }))
        .then(async (response) => {
          outgoing.writeHead(response.status, Object.fromEntries(response.headers))
          outgoing.end(Buffer.from(await response.arrayBuffer()))
        })
        .catch((error: Error) => outgoing.writeHead(500).end(error.message))
    })
  })
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp`
  return { url, close: () => new Promise<void>((resolve) => server.close(() => resolve())) }
}
