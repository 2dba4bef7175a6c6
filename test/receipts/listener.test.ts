import { execFileSync } from "node:child_process"
import { mkdtempSync, readFileSync, rmSync } from "node:fs"
import { createRequire } from "node:module"
import { connect } from "node:net"
import { tmpdir } from "node:os"
import path from "node:path"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { Receipts as ReceiptsApi } from "@ledger/api"
import { Config } from "@ledger/server"
import { InboxListener } from "@ledger/server/adapters"
import { newKey } from "../support/index.ts"
import { freePort, freshStore, type RunningServer, startServer, type Store } from "../support/server-process.ts"
import { trustedAuthservId } from "./mail.ts"
import { type Company, makeReceiptsApp, type ReceiptsApp } from "./support.ts"

/**
 * The receipt inbox's own SMTP listener (server/src/mail/InboxListener.ts): real mail sent with
 * nodemailer over SMTP, to the listener in this process over a test app, and to `ledger serve`
 * started with LEDGER_INBOUND_SMTP_PORT, where the receipt then shows over HTTP.
 */

// nodemailer is the server package's dependency (it sends the service's own mail); a real SMTP client here.
const nodemailer = createRequire(new URL("../../packages/server/package.json", import.meta.url))("nodemailer") as {
  createTransport: (options: Record<string, unknown>) => { sendMail: (message: Record<string, unknown>) => Promise<{ accepted: Array<string>; rejected: Array<string>; response: string }>; close: () => void }
}

const pdf = readFileSync(new URL("../fixtures/pdf/invoice2data_AmazonWebServices.pdf", import.meta.url))
const passed = `${trustedAuthservId}; spf=pass smtp.mailfrom=ap@vendor.example; dkim=pass header.d=vendor.example; dmarc=pass header.from=vendor.example`

const mailer = (port: number, tls: Record<string, unknown> = { ignoreTLS: true }) =>
  nodemailer.createTransport({ host: "127.0.0.1", port, secure: false, ...tls, name: "client.test", connectionTimeout: 20_000 })

const receipt = (to: string, extra: Record<string, unknown> = {}) => ({
  from: "Vendor AP <ap@vendor.example>",
  to,
  subject: "Your invoice",
  text: "The invoice is attached.",
  headers: { "Authentication-Results": passed },
  attachments: [{ filename: "aws-invoice.pdf", content: pdf, contentType: "application/pdf" }],
  ...extra
})

/** The listener's answers to a raw EHLO and MAIL FROM (the SIZE it advertises and enforces). */
const converse = (port: number, lines: ReadonlyArray<string>): Promise<Array<string>> =>
  new Promise((resolve, reject) => {
    const socket = connect(port, "127.0.0.1")
    const replies: Array<string> = []
    let buffer = ""
    let next = 0
    socket.on("data", (chunk) => {
      buffer += chunk.toString("latin1")
      const complete = buffer.split("\r\n")
      buffer = complete.pop() ?? ""
      for (const line of complete) {
        replies.push(line)
        if (/^\d{3} /.test(line)) {
          if (next < lines.length) socket.write(`${lines[next++]}\r\n`)
          else {
            socket.end()
            resolve(replies)
          }
        }
      }
    })
    socket.on("error", reject)
  })

describe("the inbox listener in this process", () => {
  let app: ReceiptsApp
  let company: Company
  let listener: InboxListener.Running
  beforeAll(async () => {
    app = await makeReceiptsApp()
    company = await app.createCompany()
    await app.write("/v1/receipts/inbox", company.ownerKey, { allowed_senders: ["@vendor.example"] })
    listener = await InboxListener.start(
      { host: "127.0.0.1", port: 0, domain: "inbox.localhost", trustedAuthservId, tls: null },
      (effect) => app.runtime.runPromise(effect)
    )
  })
  afterAll(async () => {
    await listener?.close()
    await app?.close()
  })
  const address = async () => (await app.call("GET", "/v1/receipts/inbox", { token: company.ownerKey })).body.address as string

  it("turns a PDF mailed by an allowed, authenticated sender into a receipt", async () => {
    const to = await address()
    const sent = await mailer(listener.port).sendMail(receipt(to))
    expect(sent.accepted).toEqual([to])
    const list = await app.call("GET", "/v1/receipts?source=email", { token: company.ownerKey })
    expect(list.body.data[0]).toMatchObject({ source: "email", file_name: "aws-invoice.pdf", media_type: "application/pdf", has_text: true })
  })

  it("holds mail whose authentication results come from anyone but the trusted front server", async () => {
    const to = await address()
    const forged = `evil.example; spf=pass smtp.mailfrom=ap@vendor.example; dkim=pass; dmarc=pass`
    await mailer(listener.port).sendMail(receipt(to, { headers: { "Authentication-Results": forged }, attachments: [{ filename: "b.pdf", content: Buffer.concat([pdf, Buffer.from("\n% held\n")]) }] }))
    const held = await app.call("GET", "/v1/receipts/inbox/messages?status=review", { token: company.ownerKey })
    expect(held.body.data[0]).toMatchObject({ from: "ap@vendor.example", reasons: ["not_authenticated"], authentication: { spf: "none", dkim: "none", dmarc: "none" } })
  })

  it("relays for nobody: an unknown address, another domain and a rotated address are refused with 550 at RCPT", async () => {
    for (const to of ["r-00000000000000000000@inbox.localhost", "someone@gmail.example"]) {
      const refused = await mailer(listener.port).sendMail(receipt(to)).catch((error: { responseCode?: number }) => error)
      expect((refused as { responseCode?: number }).responseCode, to).toBe(550)
    }
    const before = await address()
    await app.write("/v1/receipts/inbox/rotate", company.ownerKey, { reason: "leaked" })
    const refused = await mailer(listener.port).sendMail(receipt(before)).catch((error: { responseCode?: number; response?: string }) => error)
    expect(refused).toMatchObject({ responseCode: 550 })
    const inbox = await app.call("GET", "/v1/receipts/inbox", { token: company.ownerKey })
    expect(inbox.body.refused_after_rotation[0]).toMatchObject({ address: before, from: "ap@vendor.example" })
  })

  it("advertises its size limit and refuses a message declared larger, before any byte of it", async () => {
    const replies = await converse(listener.port, ["EHLO client.test", "MAIL FROM:<ap@vendor.example> SIZE=99999999", "QUIT"])
    expect(replies.some((line) => /^250[- ]SIZE 31457280$/.test(line)), replies.join("\n")).toBe(true)
    expect(replies.some((line) => line.startsWith("552 "))).toBe(true)
    expect(replies.some((line) => /^250[- ]AUTH/.test(line) || /STARTTLS/.test(line))).toBe(false)
  })

  it("defers mail past its rates and its memory bound with a 4xx reply, and processes none of it (issue 41 item 2)", async () => {
    const bounded = await InboxListener.start(
      {
        host: "127.0.0.1", port: 0, domain: "inbox.localhost", trustedAuthservId, tls: null,
        limits: { messagesPerClientPerMinute: 5, messagesPerInboxPerMinute: 3, processingBytesMax: 4 * 1024 * 1024 }
      },
      (effect) => app.runtime.runPromise(effect)
    )
    try {
      const to = await address()
      const countMessages = async () => Number((await app.query<{ count: unknown }>(
        "SELECT count(*) AS count FROM receipt_inbox_messages WHERE company_id = $1", [company.companyId]))[0]!.count)
      const before = await countMessages()
      // A message declared larger than the memory left is deferred at MAIL FROM, before any byte of it.
      const declared = await converse(bounded.port, ["EHLO client.test", `MAIL FROM:<ap@vendor.example> SIZE=${5 * 1024 * 1024}`, "QUIT"])
      expect(declared.some((line) => line.startsWith("452 4.3.1")), declared.join("\n")).toBe(true)
      // An undeclared one found larger while it streams: read away, deferred with 451 after DATA.
      const big = Buffer.alloc(5 * 1024 * 1024, 65)
      const streamed = await mailer(bounded.port).sendMail(receipt(to, { attachments: [{ filename: "big.pdf", content: big }] }))
        .catch((error: { responseCode?: number; response?: string }) => error)
      expect(streamed).toMatchObject({ responseCode: 451 })
      expect((streamed as { response?: string }).response).toMatch(/4\.3\.1/u)
      // The inbox's rate: three a minute, the deferred one included (it was counted at RCPT); the
      // fourth waits (450 at RCPT), and the sender retries later.
      for (const name of ["r1.pdf", "r2.pdf"]) {
        const sent = await mailer(bounded.port).sendMail(receipt(to, { attachments: [{ filename: name, content: Buffer.concat([pdf, Buffer.from(`\n% ${name}\n`)]) }] }))
        expect(sent.accepted).toEqual([to])
      }
      const third = await mailer(bounded.port).sendMail(receipt(to)).catch((error: { responseCode?: number }) => error)
      expect(third).toMatchObject({ responseCode: 450 })
      // The client address's rate: with five starts already, a sixth MAIL FROM waits (450 4.7.1).
      const sixth = await converse(bounded.port, ["EHLO client.test", "MAIL FROM:<ap@vendor.example>", "QUIT"])
      expect(sixth.some((line) => line.startsWith("450 4.7.1")), sixth.join("\n")).toBe(true)
      // Only the two accepted messages were processed.
      expect(await countMessages()).toBe(before + 2)
    } finally {
      await bounded.close()
    }
  })

  it("defers mail to a company whose inbox took its day's messages (452 at RCPT, shared through the database)", async () => {
    const other = await app.createCompany("Busy Co")
    await app.write("/v1/receipts/inbox", other.ownerKey, { allowed_senders: ["@vendor.example"] })
    const to = (await app.call("GET", "/v1/receipts/inbox", { token: other.ownerKey })).body.address as string
    // The day's quota, as earlier deliveries would have left it.
    await app.query(`INSERT INTO receipt_inbox_messages (company_id, status, sender, recipient, spf, dkim, dmarc, received_at)
      SELECT $1, 'rejected', 'x@spam.example', $2, 'none', 'none', 'none', now() FROM generate_series(1, $3::int)`,
      [other.companyId, to, ReceiptsApi.Shared.limits.inboxMessagesPerDayMax])
    const refused = await mailer(listener.port).sendMail(receipt(to)).catch((error: { responseCode?: number; response?: string }) => error)
    expect(refused).toMatchObject({ responseCode: 452 })
    // Another company's inbox is not held by it.
    const sent = await mailer(listener.port).sendMail(receipt(await address(), { attachments: [{ filename: "q.pdf", content: Buffer.concat([pdf, Buffer.from("\n% quota\n")]) }] }))
    expect(sent.accepted).toHaveLength(1)
  })

  it("offers STARTTLS when given a key and certificate, and takes mail over it", async () => {
    const folder = mkdtempSync(path.join(tmpdir(), "ledger-smtp-tls-"))
    const keyFile = path.join(folder, "key.pem")
    const certFile = path.join(folder, "cert.pem")
    execFileSync("openssl", ["req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", keyFile, "-out", certFile, "-days", "1", "-subj", "/CN=inbox.localhost"], { stdio: "ignore" })
    const secure = await InboxListener.start(
      { host: "127.0.0.1", port: 0, domain: "inbox.localhost", trustedAuthservId, tls: { keyFile, certFile } },
      (effect) => app.runtime.runPromise(effect)
    )
    try {
      const replies = await converse(secure.port, ["EHLO client.test", "QUIT"])
      expect(replies).toContain("250-STARTTLS")
      const to = await address()
      const sent = await mailer(secure.port, { requireTLS: true, tls: { rejectUnauthorized: false } })
        .sendMail(receipt(to, { attachments: [{ filename: "tls.pdf", content: Buffer.concat([pdf, Buffer.from("\n% tls\n")]) }] }))
      expect(sent.accepted).toEqual([to])
    } finally {
      await secure.close()
      rmSync(folder, { recursive: true, force: true })
    }
  })

  it("reads its settings from the environment: off unless a port is set, and refuses half a TLS setting", () => {
    expect(InboxListener.fromEnvironment({}, "127.0.0.1")).toBeNull()
    expect(InboxListener.fromEnvironment({ LEDGER_INBOUND_SMTP_PORT: "2525", LEDGER_INBOUND_AUTHSERV_ID: "mx.example.com", LEDGER_INBOX_DOMAIN: "In.Example.com" }, "0.0.0.0"))
      .toEqual({ host: "0.0.0.0", port: 2525, domain: "in.example.com", trustedAuthservId: "mx.example.com", tls: null })
    expect(() => InboxListener.fromEnvironment({ LEDGER_INBOUND_SMTP_PORT: "99999" }, "h")).toThrow(/LEDGER_INBOUND_SMTP_PORT/)
    expect(() => InboxListener.fromEnvironment({ LEDGER_INBOUND_SMTP_PORT: "25", LEDGER_INBOUND_SMTP_TLS_KEY: "/k.pem" }, "h")).toThrow(/go together/)
    expect(Config.fromEnvironment({ HOST: "10.0.0.5", LEDGER_INBOUND_SMTP_PORT: "2525" }, 4 * 1024 ** 3).inboundSmtp).toMatchObject({ host: "10.0.0.5", port: 2525 })
    expect(Config.fromEnvironment({}, 4 * 1024 ** 3).inboundSmtp).toBeNull()
  })
})

describe("ledger serve with LEDGER_INBOUND_SMTP_PORT", () => {
  const slow = 300_000
  const operatorToken = `ldgop_${"A".repeat(43)}`
  let store: Store
  let server: RunningServer
  let smtpPort: number
  let ownerKey: string
  const call = async (method: "GET" | "POST", route: string, token: string, body?: unknown) => {
    const response = await fetch(`${server.url}${route}`, {
      method,
      headers: { authorization: `Bearer ${token}`, ...(body === undefined ? {} : { "content-type": "application/json", "idempotency-key": newKey() }) },
      ...(body === undefined ? {} : { body: JSON.stringify(body) })
    })
    return { status: response.status, body: await response.json() }
  }

  beforeAll(async () => {
    store = await freshStore()
    smtpPort = await freePort()
    server = await startServer(store, {
      LEDGER_OPERATOR_TOKEN: operatorToken,
      LEDGER_INBOUND_SMTP_PORT: String(smtpPort),
      LEDGER_INBOUND_AUTHSERV_ID: trustedAuthservId,
      LEDGER_INBOX_DOMAIN: "inbox.ledger.test",
      // PostgreSQL needs the key given; embedded PGlite would make one.
      LEDGER_MASTER_KEY: Buffer.alloc(32, 7).toString("base64")
    })
    const created = await call("POST", "/v1/companies", operatorToken, { name: "Mail Co", owner_name: "Morgan" })
    ownerKey = created.body.secret
  }, slow)
  afterAll(async () => {
    await server?.stop()
    await store?.remove()
  }, slow)

  it("receives mail on its own SMTP port: the receipt shows over HTTP, an unknown address is refused", async () => {
    expect(server.output()).toContain(`Receipt inbox SMTP on 127.0.0.1:${smtpPort} for @inbox.ledger.test`)
    await call("POST", "/v1/receipts/inbox", ownerKey, { allowed_senders: ["ap@vendor.example"] })
    const inbox = await call("GET", "/v1/receipts/inbox", ownerKey)
    expect(inbox.body).toMatchObject({ listener: { configured: true, port: smtpPort, domain: "inbox.ledger.test" } })
    const to = inbox.body.address as string
    expect(to).toMatch(/@inbox\.ledger\.test$/)
    const sent = await mailer(smtpPort).sendMail(receipt(to))
    expect(sent.accepted).toEqual([to])
    const list = await call("GET", "/v1/receipts", ownerKey)
    expect(list.body.data).toHaveLength(1)
    expect(list.body.data[0]).toMatchObject({ source: "email", file_name: "aws-invoice.pdf", has_text: true, status: "extracted" })
    const refused = await mailer(smtpPort).sendMail(receipt("r-ffffffffffffffffffff@inbox.ledger.test")).catch((error: { responseCode?: number }) => error)
    expect(refused).toMatchObject({ responseCode: 550 })
  }, slow)
})
