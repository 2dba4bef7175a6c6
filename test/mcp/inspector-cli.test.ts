import { execFile } from "node:child_process"
import { mkdtemp, rm } from "node:fs/promises"
import { tmpdir } from "node:os"
import path from "node:path"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { type McpTestApp, serveMcpOverHttp, startMcpApp } from "../support/index.ts"
import { repositoryRoot } from "../support/server-process.ts"

/**
 * The MCP Inspector's CLI (issue 20 item 5: "the official SDK client and the Inspector CLI still
 * work"), run as a person would run it against a server: a child process over Streamable HTTP
 * with the key in an Authorization header, listing the tools and calling a read.
 */

const inspector = path.join(repositoryRoot, "node_modules/.bin/mcp-inspector")

let started: McpTestApp
let server: Awaited<ReturnType<typeof serveMcpOverHttp>>
let catalog: string
beforeAll(async () => {
  started = await startMcpApp("Inspector Co")
  server = await serveMcpOverHttp(started.app)
  // The CLI keeps a catalog of servers; one of its own, not the home folder's.
  catalog = await mkdtemp(path.join(tmpdir(), "ledger-inspector-"))
})
afterAll(async () => {
  await server?.close()
  await started?.close()
  if (catalog !== undefined) await rm(catalog, { recursive: true, force: true })
})

/** Runs the Inspector CLI against the server and parses the JSON it prints. */
const runInspector = (args: ReadonlyArray<string>): Promise<Record<string, unknown>> =>
  new Promise((resolve, reject) => {
    execFile(
      inspector,
      ["--cli", server.url, "--transport", "http", "--header", `Authorization: Bearer ${started.company.ownerKey}`, ...args],
      { env: { ...process.env, MCP_CATALOG_PATH: path.join(catalog, "mcp.json") }, timeout: 60_000, maxBuffer: 64 * 1024 * 1024 },
      (error, stdout, stderr) => {
        if (error !== null) return reject(new Error(`${error.message}\n${stderr}`))
        try {
          resolve(JSON.parse(stdout) as Record<string, unknown>)
        } catch {
          reject(new Error(`not JSON:\n${stdout.slice(0, 2000)}\n${stderr}`))
        }
      }
    )
  })

describe("MCP Inspector CLI", () => {
  it("lists the tools, with their output schemas", async () => {
    const listed = await runInspector(["--method", "tools/list"])
    const tools = listed.tools as Array<{ name: string; outputSchema?: { type: string } }>
    const names = tools.map((tool) => tool.name)
    // The default list: the owner's common work and the discovery tools (ADR 2200).
    expect(names).toEqual(expect.arrayContaining(["get_me", "list_accounts", "propose_journal_entry", "get_trial_balance", "list_toolsets", "call_tool"]))
    expect(names).not.toContain("list_bank_rules")
    expect(tools.find((tool) => tool.name === "get_me")?.outputSchema?.type).toBe("object")
    // Over HTTP from another process, the same list as the SDK client's in process.
    expect(names).toEqual((await started.owner.listTools()).tools.map((tool) => tool.name))
  }, 60_000)

  it("calls a read tool and prints its structured result", async () => {
    const called = await runInspector(["--method", "tools/call", "--tool-name", "list_accounts", "--tool-arg", "limit=2"])
    expect(called.isError ?? false).toBe(false)
    const structured = called.structuredContent as { data: Array<{ code: string }> }
    expect(structured.data).toHaveLength(2)
    expect(typeof structured.data[0]!.code).toBe("string")
  }, 60_000)

  it("describes a tool the default list leaves out, then calls it through call_tool", async () => {
    const described = await runInspector(["--method", "tools/call", "--tool-name", "describe_tool", "--tool-arg", "name=list_bank_rules"])
    expect(described.isError ?? false).toBe(false)
    expect(described.structuredContent).toMatchObject({ listed: false, toolsets: ["banking"], tool: { name: "list_bank_rules" } })
    // The Inspector calls only tools it has listed (it answers tool_not_found otherwise), and keeps
    // no session between commands: call_tool is its way to everything else.
    await expect(runInspector(["--method", "tools/call", "--tool-name", "list_bank_rules", "--tool-arg", "limit=2"])).rejects.toThrow(/tool_not_found/)
    const called = await runInspector(["--method", "tools/call", "--tool-name", "call_tool", "--tool-arg", "name=list_bank_rules", "--tool-arg", 'arguments={"limit":2}'])
    expect(called.isError ?? false).toBe(false)
    expect(called.structuredContent).toMatchObject({ data: [], has_more: false })
  }, 90_000)
})
