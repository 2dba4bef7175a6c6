import { type ChildProcess, execFile, spawn } from "node:child_process"
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs"
import { createServer } from "node:net"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { promisify } from "node:util"
import { afterAll, beforeAll, describe, expect, it } from "vitest"

/**
 * docs/quickstart.md is executable: this test starts the server as the doc says, runs every
 * shell block of the walkthrough in order in one shell, then the MCP and SDK programs, and checks
 * that a newcomer following it ends with posted invoices. Change the doc and this follows it.
 */

const root = join(import.meta.dirname, "..", "..")
const doc = readFileSync(join(root, "docs", "quickstart.md"), "utf8")
const run = promisify(execFile)

const blocks = (language: string): Array<string> =>
  Array.from(doc.matchAll(new RegExp("```" + language + "\\n([\\s\\S]*?)```", "g")), (match) => match[1]!)

const freePort = () =>
  new Promise<number>((resolve, reject) => {
    const server = createServer()
    server.listen(0, "127.0.0.1", () => {
      const address = server.address()
      server.close(() => (typeof address === "object" && address !== null ? resolve(address.port) : reject(new Error("no port"))))
    })
  })

let server: ChildProcess
let workDirectory: string
let ledgerUrl: string
let operatorToken: string
const environment = { ...process.env }
delete environment.DATABASE_URL

beforeAll(async () => {
  workDirectory = mkdtempSync(join(tmpdir(), "ledger-quickstart-"))
  const port = await freePort()
  ledgerUrl = `http://127.0.0.1:${port}`
  server = spawn(process.execPath, [join(root, "packages/server/bin/ledger.mjs"), "serve"], {
    env: { ...environment, PORT: String(port), LEDGER_DATA_DIR: join(workDirectory, ".ledger") },
    stdio: ["ignore", "pipe", "pipe"]
  })
  let output = ""
  server.stdout!.on("data", (chunk) => (output += String(chunk)))
  server.stderr!.on("data", (chunk) => (output += String(chunk)))
  const deadline = Date.now() + 90_000
  while (!/ldgop_\S+/.test(output) || !output.includes("Listening")) {
    if (Date.now() > deadline) throw new Error(`server did not start:\n${output}`)
    await new Promise((resolve) => setTimeout(resolve, 200))
  }
  operatorToken = /ldgop_\S+/.exec(output)![0]
})

afterAll(() => {
  server?.kill()
  rmSync(workDirectory, { recursive: true, force: true })
})

describe("docs/quickstart.md", () => {
  it("reaches posted invoices over HTTP, over MCP and with the SDK, exactly as written", async () => {
    const shell = blocks("sh")
    expect(shell[0]).toContain("pnpm start")
    // The first block starts the server (done above); the exports name what the server printed.
    const walkthrough = shell.slice(1).join("\n")
      .replace(/^export LEDGER=.*$/m, "")
      .replace(/^export OPERATOR_TOKEN=.*$/m, "")
    const http = await run("bash", ["-euo", "pipefail", "-c", walkthrough], {
      cwd: workDirectory,
      env: { ...environment, LEDGER: ledgerUrl, OPERATOR_TOKEN: operatorToken }
    })
    expect(http.stdout).toMatch(/"dry_run":true/)
    expect(http.stdout).toMatch(/INV-0001: 95000 cents, open, entry \d+/)
    expect(http.stdout).toMatch(/^\S+ Accounts Receivable 95000$/m)

    const company = JSON.parse(readFileSync(join(workDirectory, "company.json"), "utf8"))
    const customer = JSON.parse(readFileSync(join(workDirectory, "customer.json"), "utf8"))
    const programs = blocks("ts")
    expect(programs).toHaveLength(2)
    // Inside the workspace so that the doc's imports resolve as they would in a reader's project.
    const scratch = join(root, "test", "docs", ".run")
    mkdirSync(scratch, { recursive: true })
    const outputs: Array<string> = []
    for (const [index, program] of programs.entries()) {
      const file = join(scratch, `quickstart-${index}.ts`)
      writeFileSync(file, program)
      const result = await run(process.execPath, ["--import", "tsx", file], {
        cwd: root,
        env: { ...environment, LEDGER: ledgerUrl, OWNER_KEY: company.secret, CUSTOMER_ID: String(customer.id) }
      })
      outputs.push(result.stdout)
    }
    expect(outputs[0]).toMatch(/^posted .*"number":"INV-0002"/m)
    expect(outputs[1]).toMatch(/^posted INV-0003$/m)
    expect(outputs[1]).toContain("no such document, as expected")
  })
})
