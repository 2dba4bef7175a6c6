import { execFile } from "node:child_process"
import path from "node:path"
import { promisify } from "node:util"
import { SMTPServer } from "smtp-server"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { freshStore, repositoryRoot, type RunningServer, startServer, type Store } from "../support/server-process.ts"

/**
 * The real `ledger serve` process: its background worker delivers queued email over SMTP (the
 * environment configures it), LEDGER_WORKERS=off leaves a replica's queue alone, and the published
 * OpenAPI document covers every sales operation of the spec.
 */
const operatorToken = `operator-sales-${Date.now()}`
/** A server process starts in seconds, or in a minute on a busy machine: its tests wait that long. */
const startupTimeout = 180_000
const inbox: Array<{ to: ReadonlyArray<string>; raw: string }> = []
let smtp: SMTPServer
let smtpPort = 0
const stores: Array<Store> = []
const servers: Array<RunningServer> = []

beforeAll(async () => {
  smtp = new SMTPServer({
    authOptional: true,
    disabledCommands: ["STARTTLS"],
    logger: false,
    onData(stream, session, callback) {
      const chunks: Array<Buffer> = []
      stream.on("data", (chunk: Buffer) => chunks.push(chunk))
      stream.on("end", () => {
        inbox.push({ to: session.envelope.rcptTo.map((recipient) => recipient.address), raw: Buffer.concat(chunks).toString("latin1") })
        callback()
      })
    }
  })
  await new Promise<void>((resolve) => smtp.listen(0, "127.0.0.1", () => resolve()))
  smtpPort = (smtp.server.address() as { port: number }).port
})

afterAll(async () => {
  for (const server of servers) await server.stop()
  for (const store of stores) await store.remove()
  await new Promise<void>((resolve) => smtp.close(() => resolve()))
})

const start = async (env: Record<string, string>) => {
  const store = await freshStore()
  stores.push(store)
  // Embedded storage in memory: this test is about the worker, not about files on disk.
  const server = await startServer(store, { ...(store.kind === "pglite" ? { LEDGER_DATA_DIR: "memory" } : {}), LEDGER_OPERATOR_TOKEN: operatorToken, LEDGER_SMTP_URL: `smtp://127.0.0.1:${smtpPort}`, LEDGER_MAIL_FROM: "billing@ledger.test", ...env })
  servers.push(server)
  return server
}

let counter = 0
const call = async (server: RunningServer, method: string, route: string, token: string, body?: unknown) => {
  const response = await fetch(`${server.url}${route}`, {
    method,
    headers: {
      authorization: `Bearer ${token}`,
      ...(body === undefined ? {} : { "content-type": "application/json", "idempotency-key": `sales-server-${Date.now()}-${counter++}` })
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) })
  })
  return { status: response.status, body: await response.json() as any }
}

/** A company with a customer and an invoice emailed to the customer's address. */
const emailAnInvoice = async (server: RunningServer, email: string) => {
  const company = await call(server, "POST", "/v1/companies", operatorToken, { name: "Served Co", owner_name: "Owner" })
  const token = company.body.secret as string
  const customer = await call(server, "POST", "/v1/contacts", token, { kind: "customer", name: "Globex", email })
  const invoice = await call(server, "POST", "/v1/invoices", token, { contact_id: customer.body.id, doc_date: "2026-10-01", lines: [{ amount_cents: 31_415 }] })
  expect(invoice.status).toBe(201)
  const queued = await call(server, "POST", `/v1/documents/${invoice.body.id}/email`, token, {})
  expect(queued.body.status).toBe("queued")
  return { token, emailId: queued.body.id as number, number: invoice.body.number as string }
}

const waitFor = async (condition: () => boolean | Promise<boolean>, milliseconds: number) => {
  const deadline = Date.now() + milliseconds
  while (Date.now() < deadline) {
    if (await condition()) return true
    await new Promise((resolve) => setTimeout(resolve, 200))
  }
  return false
}

describe("ledger serve with workers", () => {
  it("delivers queued email in the background and publishes every sales operation", async () => {
    const server = await start({})
    const sent = await emailAnInvoice(server, "ap@globex.test")
    expect(await waitFor(() => inbox.some((message) => message.to.includes("ap@globex.test")), 30_000)).toBe(true)
    const message = inbox.find((received) => received.to.includes("ap@globex.test"))!
    expect(message.raw).toContain(`${sent.number}.pdf`)
    expect(await waitFor(async () => (await call(server, "GET", `/v1/email/outbox/${sent.emailId}`, sent.token)).body.status === "sent", 10_000)).toBe(true)

    const coverage = await promisify(execFile)(process.execPath, [path.resolve(repositoryRoot, "tools/spec-coverage.mjs"), server.url])
    for (const area of ["4.7 Sales and purchases", "4.8 Estimates", "4.9 Recurring documents", "4.10 Email", "4.11 Sales tax"]) {
      expect(coverage.stdout).toMatch(new RegExp(`^ok .*endpoints-a ${area.replace(/\./g, "\\.")}$`, "m"))
    }
  }, startupTimeout)

  it("leaves the queue alone on a replica with LEDGER_WORKERS=off", async () => {
    const server = await start({ LEDGER_WORKERS: "off" })
    const sent = await emailAnInvoice(server, "ap@initech.test")
    await new Promise((resolve) => setTimeout(resolve, 5_000))
    expect(inbox.some((message) => message.to.includes("ap@initech.test"))).toBe(false)
    expect((await call(server, "GET", `/v1/email/outbox/${sent.emailId}`, sent.token)).body.status).toBe("queued")
  }, startupTimeout)
})
