import { type ChildProcess, spawn } from "node:child_process"
import { createServer } from "node:net"
import { dirname, join } from "node:path"
import { fileURLToPath } from "node:url"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { createClient, type PromiseClient } from "@ledger/client"
import { makeTestLedger, type TestLedger } from "@ledger/testkit"
import { type Order, syncOrders } from "../src/OrderSync.ts"

const orders: ReadonlyArray<Order> = [
  { id: "A-1", date: "2025-01-06", customer: { name: "Ada Lovelace", email: "ada@example.com" }, lines: [{ description: "Sourdough x 4", amount_cents: 24_00 }], paid_cents: 24_00 },
  { id: "A-2", date: "2025-01-06", customer: { name: "Alan Turing", email: "alan@example.com" }, lines: [{ description: "Wedding cake", amount_cents: 380_00 }, { description: "Delivery", amount_cents: 20_00 }] },
  { id: "A-3", date: "2025-01-06", customer: { name: "Ada Lovelace", email: "ada@example.com" }, lines: [{ description: "Croissants x 12", amount_cents: 36_00 }], paid_cents: 10_00 }
]

/** What every run of the sync must leave behind, whatever the server. */
const checkBooks = async (client: PromiseClient) => {
  const invoices = []
  for await (const document of client.iterate("listDocuments", { kind: "invoice", limit: 100 })) invoices.push(document)
  expect(invoices).toHaveLength(3)
  const customers = []
  for await (const contact of client.iterate("listContacts", { kind: "customer" })) customers.push(contact)
  expect(customers.map((customer) => customer.email).sort()).toEqual(["ada@example.com", "alan@example.com"])
  const accounts = await client.listAccounts({ include_balances: true, limit: 1_000 })
  const balance = (code: string) => accounts.data.find((account) => account.code === code)?.balance_cents
  expect(balance("4000")).toBe(24_00 + 400_00 + 36_00)
  expect(balance("1100")).toBe(400_00 + 26_00)
  expect(balance("1010")).toBe(34_00)
}

describe("the order sync against the testkit", () => {
  let ledger: TestLedger
  beforeAll(async () => {
    ledger = await makeTestLedger({ seed: 31 })
  })
  afterAll(() => ledger.close())

  it("invoices each order once, however often it runs", async () => {
    const company = await ledger.createCompany({ name: "Corner Bakery" })
    const first = await syncOrders(company.client, orders)
    expect(first).toEqual({ invoicesCreated: 3, invoicesReplayed: 0, paymentsRecorded: 2, waitingForApproval: [] })
    const again = await syncOrders(company.client, orders)
    expect(again).toEqual({ invoicesCreated: 0, invoicesReplayed: 3, paymentsRecorded: 0, waitingForApproval: [] })
    await checkBooks(company.client)
  })

  it("an agent's key over its threshold leaves invoices for a person to approve", async () => {
    const company = await ledger.createCompany({ name: "Agent Bakery" })
    const agent = await company.createAgent({ posting_threshold_cents: 100_00, model: "shop-sync/1" })
    const report = await syncOrders(agent.client, orders)
    expect(report.waitingForApproval).toEqual(["A-2"])
    expect(report.invoicesCreated).toBe(2)
  })
})

/** A port nothing listens on right now. */
const freePort = () =>
  new Promise<number>((resolve, reject) => {
    const server = createServer()
    server.once("error", reject)
    server.listen(0, "127.0.0.1", () => {
      const address = server.address()
      server.close(() => (typeof address === "object" && address !== null ? resolve(address.port) : reject(new Error("no port"))))
    })
  })

const root = join(dirname(fileURLToPath(import.meta.url)), "..", "..", "..")

describe("the order sync against a server on embedded storage", () => {
  let server: ChildProcess | undefined
  let baseUrl = ""
  let output = ""
  const operatorToken = "example-operator-token-for-the-promise-sdk-test"

  beforeAll(async () => {
    const port = await freePort()
    baseUrl = `http://127.0.0.1:${port}`
    server = spawn(process.execPath, [join(root, "packages/server/bin/ledger.mjs"), "serve"], {
      cwd: root,
      env: { ...process.env, PORT: String(port), HOST: "127.0.0.1", LEDGER_DATA_DIR: "memory", LEDGER_OPERATOR_TOKEN: operatorToken, LEDGER_WORKERS: "off", DATABASE_URL: "" },
      stdio: ["ignore", "pipe", "pipe"]
    })
    server.stdout?.on("data", (chunk: Buffer) => (output += chunk.toString()))
    server.stderr?.on("data", (chunk: Buffer) => (output += chunk.toString()))
    const exited = new Promise<never>((_, reject) =>
      server!.once("exit", (code) => reject(new Error(`the server exited (${code}) before answering:\n${output}`)))
    )
    // Stopping the server in afterAll settles this too; only the race below needs the failure.
    exited.catch(() => undefined)
    // The SDK's own retries wait for the server to come up (connection refused is a network
    // failure), for as long as a loaded CI machine may need to start it.
    const health = await Promise.race([
      createClient({ baseUrl, retry: { retriesMax: 600, delayMsBase: 250, delayMsMax: 500 } }).getHealth(),
      exited
    ])
    expect(health.status).toBe("ok")
  }, 360_000)

  afterAll(async () => {
    if (server?.pid !== undefined && server.exitCode === null) {
      const exited = new Promise((resolve) => server!.once("exit", resolve))
      server.kill("SIGTERM")
      await exited
    }
  })

  it("works the same over real HTTP", async () => {
    const operator = createClient({ baseUrl, token: operatorToken })
    const created = await operator.createCompany({ name: "Corner Bakery", owner_name: "Rosa", plan: "advanced" })
    const client = createClient({ baseUrl, token: created.secret })
    const today = (await client.getHealth()).time.slice(0, 10)
    const dated = orders.map((order) => ({ ...order, date: today }))
    expect(await syncOrders(client, dated)).toMatchObject({ invoicesCreated: 3, paymentsRecorded: 2 })
    expect(await syncOrders(client, dated)).toMatchObject({ invoicesCreated: 0, invoicesReplayed: 3 })
    await checkBooks(client)
    expect(output).toContain("Ledger listening")
  })
})
