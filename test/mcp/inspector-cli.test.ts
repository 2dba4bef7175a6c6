import { execFile } from "node:child_process"
import { mkdtemp, rm } from "node:fs/promises"
import { createServer, type Server } from "node:http"
import type { AddressInfo } from "node:net"
import { tmpdir } from "node:os"
import path from "node:path"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { makeTestApp, type TestApp, type TestCompany } from "../support/index.ts"
import { repositoryRoot } from "../support/server-process.ts"

/**
 * The MCP Inspector's CLI (issue 20 item 5: "the official SDK client and the Inspector CLI still
 * work"), run as a person would run it against a server: a child process over Streamable HTTP
 * with the key in an Authorization header, listing the tools and calling a read.
 */

const inspector = path.join(repositoryRoot, "node_modules/.bin/mcp-inspector")

let app: TestApp
let company: TestCompany
let server: Server
let url: string
let catalog: string
beforeAll(async () => {
  app = await makeTestApp()
  company = await app.createCompany({ name: "Inspector Co" })
  // The app's fetch handler on a loopback port, bodies and headers as they come.
  server = createServer((incoming, outgoing) => {
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
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp`
  // The CLI keeps a catalog of servers; one of its own, not the home folder's.
  catalog = await mkdtemp(path.join(tmpdir(), "ledger-inspector-"))
})
afterAll(async () => {
  await new Promise((resolve) => server?.close(resolve))
  await app?.close()
  if (catalog !== undefined) await rm(catalog, { recursive: true, force: true })
})

/** Runs the Inspector CLI against the server and parses the JSON it prints. */
const runInspector = (args: ReadonlyArray<string>): Promise<Record<string, unknown>> =>
  new Promise((resolve, reject) => {
    execFile(
      inspector,
      ["--cli", url, "--transport", "http", "--header", `Authorization: Bearer ${company.ownerKey}`, ...args],
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
    expect(names).toEqual(expect.arrayContaining(["get_me", "list_accounts", "propose_journal_entry", "get_trial_balance"]))
    expect(tools.find((tool) => tool.name === "get_me")?.outputSchema?.type).toBe("object")
  }, 60_000)

  it("calls a read tool and prints its structured result", async () => {
    const called = await runInspector(["--method", "tools/call", "--tool-name", "list_accounts", "--tool-arg", "limit=2"])
    expect(called.isError ?? false).toBe(false)
    const structured = called.structuredContent as { data: Array<{ code: string }> }
    expect(structured.data).toHaveLength(2)
    expect(typeof structured.data[0]!.code).toBe("string")
  }, 60_000)
})
