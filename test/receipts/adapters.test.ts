import { createServer } from "node:http"
import { Effect } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { Ports } from "@ledger/engine"
import { HttpReceiptReader, InboundMail, ReceiptPorts } from "@ledger/server/adapters"
import { mime, trustedAuthservId } from "./mail.ts"
import { png } from "./support.ts"

/** The server's receipt adapters on their own: the HTTP receipt reader, the ports' wiring, MIME parsing. */

let server: ReturnType<typeof createServer>
let baseUrl = ""
let answer: { status: number; body: unknown } = { status: 200, body: {} }
const seen: Array<any> = []

beforeAll(async () => {
  server = createServer((request, response) => {
    let body = ""
    request.on("data", (chunk) => (body += chunk))
    request.on("end", () => {
      seen.push({ url: request.url, body: JSON.parse(body) })
      response.writeHead(answer.status, { "content-type": "application/json" }).end(JSON.stringify(answer.body))
    })
  })
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
  baseUrl = `http://127.0.0.1:${(server.address() as { port: number }).port}`
})
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())))

const read = (input: Ports.ReaderInput) =>
  Effect.runPromise(Effect.gen(function*() {
    const reader = yield* Ports.ReceiptReader
    return yield* Effect.result(reader.read(input))
  }).pipe(Effect.provide(HttpReceiptReader.layer(baseUrl))))

describe("the HTTP receipt reader", () => {
  it("posts the file and keeps only well-formed fields", async () => {
    answer = { status: 200, body: { vendor: "Cafe", date: "2026-01-02", total_cents: 450, tax_cents: -3, subtotal_cents: 1.5, payment_method: "crypto" } }
    const result = await read({ mediaType: "image/png", bytes: png(), text: null })
    expect(result._tag).toBe("Success")
    expect(result._tag === "Success" && result.success).toEqual({
      vendor: "Cafe", date: "2026-01-02", total_cents: 450, tax_cents: null, subtotal_cents: null, payment_method: null
    })
    expect(seen.at(-1)).toMatchObject({ url: "/v1/receipts/read", body: { media_type: "image/png", text: null } })
  })

  it("turns a provider's error into a ReaderFailure", async () => {
    answer = { status: 500, body: {} }
    const result = await read({ mediaType: "image/png", bytes: png(), text: null })
    expect(result._tag === "Failure" && result.failure.message).toMatch(/500/)
  })
})

describe("wiring", () => {
  it("reports what a deployment has not configured, and reads the inbox settings", () => {
    expect(ReceiptPorts.wire({ dataDir: "memory", environment: {} }, false).unconfigured).toEqual(["receipt reading of images (LEDGER_RECEIPT_READER_URL)"])
    expect(ReceiptPorts.wire({ dataDir: "memory", environment: { LEDGER_RECEIPT_READER_URL: baseUrl } }, true).unconfigured)
      .toEqual(["receipt storage (LEDGER_MASTER_KEY)"])
    expect(ReceiptPorts.inboxSettingsOf({ LEDGER_INBOX_DOMAIN: "Mail.Example", LEDGER_INBOUND_SMTP_PORT: "2525" })).toEqual({ domain: "mail.example", smtpPort: 2525 })
    expect(ReceiptPorts.inboxSettingsOf({ LEDGER_INBOUND_SMTP_PORT: "99999" })).toEqual({ domain: "inbox.localhost", smtpPort: null })
  })
})

describe("MIME parsing", () => {
  it("reads the sender, the attachments and the trusted authentication results", async () => {
    const raw = mime({ from: "ap@vendor.example", to: "r-x@inbox.localhost", messageId: "m1@vendor.example", attachments: [{ name: "a.png", bytes: png(2, 2, 3) }] })
    const parsed = await InboundMail.parse(raw, { mailFrom: "bounce@vendor.example", recipients: ["r-x@inbox.localhost"] }, { trustedAuthservId })
    expect(parsed).toMatchObject({ from: "ap@vendor.example", messageId: "<m1@vendor.example>", authentication: { spf: "pass", dkim: "pass", dmarc: "pass" } })
    expect(parsed.attachments).toHaveLength(1)
    expect(Buffer.from(parsed.attachments[0]!.bytes).equals(Buffer.from(png(2, 2, 3)))).toBe(true)
    const untrusted = await InboundMail.parse(raw, { mailFrom: "", recipients: [] }, { trustedAuthservId: null })
    expect(untrusted.authentication).toEqual({ spf: "none", dkim: "none", dmarc: "none" })
  })

  it("answers SMTP 550 when no recipient is reached", () => {
    expect(InboundMail.smtpReply([{ recipient: "a", outcome: "refused", reason: "address_rotated" }]).code).toBe(550)
    expect(InboundMail.smtpReply([{ recipient: "a", outcome: "unknown", reason: "no_such_inbox" }, { recipient: "b", outcome: "accepted", messageRecordId: 1, status: "review" }]).code).toBe(250)
  })
})
