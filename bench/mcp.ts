/**
 * Benchmark 4: MCP `tools/call` of read tools (get_me, then list_accounts once the ledger serves
 * it) against a real server process: calls per second at saturation (16 connections, closed loop)
 * and p99 at half that rate (open loop). The load is the JSON-RPC any MCP client sends over
 * Streamable HTTP; one call first goes through the official SDK client to show the server answers
 * it the same way.
 */
import { Client as McpClient } from "@modelcontextprotocol/sdk/client/index.js"
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js"
import * as Engine from "./lib/Engine.ts"
import * as OpenLoop from "./lib/OpenLoop.ts"
import * as Options from "./lib/Options.ts"
import * as Postings from "./lib/Postings.ts"
import * as Remote from "./lib/Remote.ts"
import * as Results from "./lib/Results.ts"
import * as ServerProcess from "./lib/ServerProcess.ts"

const run = Results.start("mcp")

for (const storage of Options.storages) {
  const server = await ServerProcess.start(storage, { name: "mcp" })
  try {
    const company = await Remote.createCompany(server, { starter_chart: "general" })
    const sdk = new McpClient({ name: "ledger-bench", version: "0.1.0" })
    await sdk.connect(new StreamableHTTPClientTransport(new URL(`${server.baseUrl}/mcp`), {
      requestInit: { headers: { authorization: `Bearer ${company.ownerKey}` } }
    }))
    const viaSdk = await sdk.callTool({ name: "get_me", arguments: {} })
    await sdk.close()
    if (viaSdk.isError === true) throw new Error(`get_me over the SDK failed: ${JSON.stringify(viaSdk)}`)

    const tools: Array<{ readonly name: string; readonly arguments: Record<string, unknown> }> = [{ name: "get_me", arguments: {} }]
    if (Engine.available(...Postings.paths.listAccounts) !== null) {
      tools.push({ name: "list_accounts", arguments: { include_balances: true } })
    } else {
      run.skip("MCP tools/call list_accounts", storage, "GET /v1/accounts")
    }
    for (const tool of tools) {
      let id = 0
      const request = () => Remote.toolCall(company.ownerKey, ++id, tool.name, tool.arguments)
      const capacity = await OpenLoop.closedLoop({
        baseUrl: server.baseUrl,
        concurrency: 16,
        durationSeconds: Options.seconds(10, 3),
        request,
        isSuccess: Remote.toolSucceeded
      })
      run.add({
        figure: `MCP tools/call ${tool.name}: calls per s, 16 connections closed loop`,
        storage,
        value: `${Results.formatNumber(capacity.rate_per_s)}/s (p50 ${capacity.latency.p50_ms} ms, p99 ${capacity.latency.p99_ms} ms, failed ${capacity.failed})`,
        details: { ...capacity }
      })
      const rate = Math.max(10, Math.round(capacity.rate_per_s / 2))
      const steady = await OpenLoop.run({
        baseUrl: server.baseUrl,
        ratePerSecond: rate,
        durationSeconds: Options.seconds(10, 3),
        warmupSeconds: 1,
        request,
        isSuccess: Remote.toolSucceeded
      })
      run.add({
        figure: `MCP tools/call ${tool.name} at ${rate}/s (half capacity), open loop`,
        storage,
        value: `p50 ${steady.latency.p50_ms} ms, p99 ${steady.latency.p99_ms} ms, errors ${steady.failed}/${steady.scheduled}`,
        details: { ...steady }
      })
    }
  } finally {
    await server.stop()
  }
}

run.note("each MCP call builds a fresh stateless MCP server object on the server side (Mcp.handle)")
run.finish()
process.exit(0)
