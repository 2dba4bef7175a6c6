/**
 * The scripted month-end over MCP (issue 40 item 5; test/mcp/month-end.test.ts runs it in
 * process) against a real server process: what an agent and its owner spend to close a month,
 * from the default tool lists, in JSON-RPC calls and bytes read, with the bounds the test holds.
 * The month is the last one before today (this month in January, whose fiscal year may not
 * have last December's periods). Figures, not timing: they do not depend on the machine.
 *
 *   node --import tsx bench/mcp-month-end.ts
 */
import { closeMonth, monthEndBudget, toolListBytesMax } from "../test/mcp/month-end-agent.ts"
import { setUpMonthEnd } from "../test/mcp/month-end-company.ts"
import type { Meter } from "../test/mcp/metered.ts"
import * as Options from "./lib/Options.ts"
import * as Remote from "./lib/Remote.ts"
import * as Results from "./lib/Results.ts"
import * as ServerProcess from "./lib/ServerProcess.ts"

const run = Results.start("mcp-month-end")

const monthToClose = (today: Date): string => {
  const month = today.getUTCMonth() === 0 ? 1 : today.getUTCMonth()
  return `${today.getUTCFullYear()}-${String(month).padStart(2, "0")}`
}

const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`
const describe = (meter: Meter) =>
  `${meter.calls.length} calls, ${kb(meter.bytes)} read (tool list ${kb(meter.toolListBytes)}, largest answer ${kb(meter.largest.bytes)}: ${meter.largest.call})`

for (const storage of Options.storages) {
  const server = await ServerProcess.start(storage, { name: "mcp-month-end" })
  try {
    const company = await Remote.createCompany(server, { name: "Month-End Co", starter_chart: "general" })
    const month = monthToClose(new Date())
    const books = await setUpMonthEnd((request) => fetch(request), server.baseUrl, company.ownerKey, month)
    const report = await closeMonth((request) => fetch(request), `${server.baseUrl}/mcp`, books)
    const calls = report.agent.calls.length + report.owner.calls.length
    const bytes = report.agent.bytes + report.owner.bytes
    const toolLists = report.agent.toolListBytes + report.owner.toolListBytes
    const largest = Math.max(report.agent.largest.bytes, report.owner.largest.bytes)
    run.add({ figure: `month-end ${month}: the agent`, storage, value: describe(report.agent), details: { calls: report.agent.calls, answers: report.agent.answers } })
    run.add({ figure: `month-end ${month}: the owner`, storage, value: describe(report.owner), details: { calls: report.owner.calls, answers: report.owner.answers } })
    run.add({
      figure: "month-end: JSON-RPC calls, both", storage, value: String(calls),
      target: `<= ${monthEndBudget.calls}`, verdict: Results.verdict(calls, monthEndBudget.calls, "at most")
    })
    run.add({
      figure: "month-end: bytes read, both", storage, value: kb(bytes),
      target: `<= ${kb(monthEndBudget.bytes)}`, verdict: Results.verdict(bytes, monthEndBudget.bytes, "at most")
    })
    run.add({
      figure: "month-end: tool lists read, both", storage, value: kb(toolLists),
      target: `<= ${kb(toolListBytesMax)}`, verdict: Results.verdict(toolLists, toolListBytesMax, "at most")
    })
    run.add({
      figure: "month-end: largest answer", storage, value: kb(largest),
      target: `<= ${kb(monthEndBudget.responseBytes)}`, verdict: Results.verdict(largest, monthEndBudget.responseBytes, "at most")
    })
  } finally {
    await server.stop()
  }
}

run.note("bytes are the answers' bodies as the SDK client read them (JSON or event stream), initialize and resources included")
run.finish()
process.exit(0)
