import { Client } from "@modelcontextprotocol/sdk/client/index.js"
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js"
import { categorizeUnmatched } from "./Categorizer.ts"
import { policy } from "./Policy.ts"

// LEDGER_URL=http://127.0.0.1:8080 LEDGER_AGENT_KEY=ldg_... pnpm --filter @ledger/example-mcp-agent start
const baseUrl = process.env.LEDGER_URL ?? "http://127.0.0.1:8080"
const key = process.env.LEDGER_AGENT_KEY
if (key === undefined) throw new Error("Set LEDGER_AGENT_KEY to the agent's API key (scopes read and propose).")

const mcp = new Client({ name: "categorizer", version: "1.0.0" })
await mcp.connect(new StreamableHTTPClientTransport(new URL("/mcp", baseUrl), { requestInit: { headers: { authorization: `Bearer ${key}` } } }))
try {
  const report = await categorizeUnmatched(mcp, { policy, model: "example-categorizer/1.0", runId: `run-${new Date().toISOString()}` })
  process.stdout.write(`${JSON.stringify(report, null, 2)}\n`)
} finally {
  await mcp.close()
}
