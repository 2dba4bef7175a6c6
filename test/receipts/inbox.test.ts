import { readFileSync } from "node:fs"
import { connect } from "node:net"
import { Effect } from "effect"
import { extractText } from "unpdf"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { agentWithKey, newKey } from "../support/index.ts"
import { BlobStore } from "@ledger/engine/ports"
import { InboundMail, InboxListener } from "@ledger/server/adapters"
import { listen, mime, send, trustedAuthservId } from "./mail.ts"
import { type Company, elf, makeReceiptsApp, png, type ReceiptsApp } from "./support.ts"

/** The receipt inbox: its address, names and allow-list over HTTP, and mail through the adapter and over SMTP. */

const pdf = new Uint8Array(readFileSync(new URL("../fixtures/pdf/invoice2data_SammyMaystoneLinesTest.pdf", import.meta.url)))

let app: ReceiptsApp
let company: Company
let smtp: Awaited<ReturnType<typeof listen>>

const inbox = async (who: Company = company) => (await app.call("GET", "/v1/receipts/inbox", { token: who.ownerKey })).body
const deliver = (to: string, message: Parameters<typeof mime>[0]) =>
  InboundMail.receive(app.runtime, mime(message), { mailFrom: message.from, recipients: [to] }, { trustedAuthservId, clock: app.clock })
const messages = async (status?: string) =>
  (await app.call("GET", `/v1/receipts/inbox/messages${status === undefined ? "" : `?status=${status}`}`, { token: company.ownerKey })).body.data

beforeAll(async () => {
  app = await makeReceiptsApp({ clock: true })
  company = await app.createCompany()
  smtp = await listen(app.app)
})
afterAll(async () => {
  await smtp.close()
  await app.close()
})

describe("the inbox's address and settings", () => {
  it("has a private address at the inbox domain, and takes an allow-list", async () => {
    const first = await inbox()
    expect(first.address).toMatch(/^r-[0-9a-f]{20}@inbox\.localhost$/)
    expect(first).toMatchObject({ enabled: true, slug: null, listener: { configured: false, domain: "inbox.localhost" } })
    const updated = await app.call("POST", "/v1/receipts/inbox", { token: company.ownerKey, body: { allowed_senders: ["AP@Vendor.example", "@shop.example"] } })
    expect(updated.body.allowed_senders).toEqual(["ap@vendor.example", "@shop.example"])
    const bad = await app.call("POST", "/v1/receipts/inbox", { token: company.ownerKey, body: { allowed_senders: ["not an address"] } })
    expect(bad.status).toBe(400)
  })

  it("checks and takes custom names: reserved, lookalikes and taken ones refused; the old name forwards 30 days", async () => {
    const check = async (slug: string) => (await app.call("GET", `/v1/receipts/inbox/slug?slug=${slug}`, { token: company.ownerKey })).body
    expect(await check("postmaster")).toMatchObject({ available: false, reason: "reserved" })
    expect(await check("p0stmaster")).toMatchObject({ available: false, reason: "lookalike" })
    expect(await check("a--b")).toMatchObject({ available: false, reason: "invalid" })
    expect(await check("acme-books")).toMatchObject({ available: true, reason: null })
    const taken = await app.call("POST", "/v1/receipts/inbox/slug", { token: company.ownerKey, body: { slug: "acme-books" } })
    expect(taken.body).toMatchObject({ slug: "acme-books", custom_address: "acme-books@inbox.localhost" })
    const other = await app.createCompany("Rival")
    expect((await app.call("GET", "/v1/receipts/inbox/slug?slug=acme-books", { token: other.ownerKey })).body.reason).toBe("taken")
    expect((await app.call("GET", "/v1/receipts/inbox/slug?slug=acrne-books", { token: other.ownerKey })).body.reason).toBe("lookalike")
    const refused = await app.call("POST", "/v1/receipts/inbox/slug", { token: other.ownerKey, body: { slug: "acme-books" } })
    expect(refused.status).toBe(409)
    const renamed = await app.call("POST", "/v1/receipts/inbox/slug", { token: company.ownerKey, body: { slug: "acme-receipts" } })
    expect(renamed.body.previous_slug).toMatchObject({ slug: "acme-books" })
    // The old name still reaches the company while it forwards.
    const forwarded = await deliver("acme-books@inbox.localhost", { from: "ap@vendor.example", to: "acme-books@inbox.localhost", attachments: [{ name: "f.png", bytes: png(2, 2, 61) }] })
    expect(forwarded[0]).toMatchObject({ outcome: "accepted", status: "processed" })
    const cleared = await app.call("POST", "/v1/receipts/inbox/slug/clear", { token: company.ownerKey, body: { reason: "rebrand" } })
    expect(cleared.body).toMatchObject({ slug: null, previous_slug: { slug: "acme-receipts" } })
  })
})

/** The listener's reply to RCPT TO, over a raw SMTP exchange. */
const rcptReply = (port: number, from: string, to: string): Promise<string> =>
  new Promise((resolve, reject) => {
    const socket = connect(port, "127.0.0.1")
    const steps = ["EHLO client.test", `MAIL FROM:<${from}>`, `RCPT TO:<${to}>`]
    let buffer = ""
    let step = 0
    socket.on("data", (chunk) => {
      buffer += chunk.toString("latin1")
      const lines = buffer.split("\r\n")
      buffer = lines.pop() ?? ""
      for (const line of lines) {
        if (/^\d{3}-/.test(line)) continue
        if (step === steps.length) {
          socket.end("QUIT\r\n")
          return resolve(line)
        }
        socket.write(`${steps[step++]}\r\n`)
      }
    })
    socket.on("error", reject)
  })

describe("mail into the inbox", () => {
  it("is deferred with 451 at RCPT where receipts cannot be stored (no master key), and nothing is recorded", async () => {
    const address = (await inbox()).address as string
    const before = (await messages()).length
    const listener = await InboxListener.start(
      { host: "127.0.0.1", port: 0, domain: "inbox.localhost", trustedAuthservId, tls: null },
      (effect) => app.runtime.runPromise(Effect.provide(effect, BlobStore.layerUnconfigured))
    )
    try {
      const reply = await rcptReply(listener.port, "ap@vendor.example", address)
      expect(reply).toMatch(/^451 4\.3\.2 /)
    } finally {
      await listener.close()
    }
    expect((await messages()).length).toBe(before)
  })


  it("turns an allowed, authenticated sender's PDF into a receipt, over SMTP", async () => {
    const address = (await inbox()).address as string
    const code = await send(smtp.port, "ap@vendor.example", address, mime({ from: "ap@vendor.example", to: address, attachments: [{ name: "invoice.pdf", bytes: pdf, type: "application/pdf" }] }))
    expect(code).toBe(250)
    const [message] = await messages("processed")
    expect(message.attachments[0]).toMatchObject({ file_name: "invoice.pdf", media_type: "application/pdf", receipt_id: expect.any(Number) })
    const receipt = await app.call("GET", `/v1/receipts/${message.attachments[0].receipt_id}`, { token: company.ownerKey })
    expect(receipt.body).toMatchObject({ source: "email", inbox_message_id: message.id, has_text: true })
  })

  it("holds an unknown sender's mail in review until a person releases it, optionally allowing the sender", async () => {
    const address = (await inbox()).address as string
    const [delivery] = await deliver(address, { from: "stranger@else.example", to: address, attachments: [{ name: "r.png", bytes: png(2, 2, 62) }] })
    expect(delivery).toMatchObject({ outcome: "accepted", status: "review" })
    const [held] = await messages("review")
    expect(held.reasons).toEqual(["unknown_sender"])
    expect(held.attachments[0].receipt_id).toBeNull()
    const agent = await agentWithKey(app.app, company.ownerKey, ["read", "propose", "approve"])
    const byAgent = await app.call("POST", `/v1/receipts/inbox/messages/${held.id}/release`, { token: agent.key.secret, key: newKey(), headers: { "x-agent-model": "test-model/1.0" }, body: {} })
    expect(byAgent.status).toBe(403)
    const released = await app.write(`/v1/receipts/inbox/messages/${held.id}/release`, company.ownerKey, { allow_sender: true })
    expect(released.body).toMatchObject({ status: "released", attachments: [{ receipt_id: expect.any(Number) }] })
    expect((await inbox()).allowed_senders).toContain("stranger@else.example")
    expect((await app.write(`/v1/receipts/inbox/messages/${held.id}/release`, company.ownerKey, {})).status).toBe(409)
  })

  it("holds unauthenticated mail too, discards on request, and recognises a repeated message", async () => {
    const address = (await inbox()).address as string
    const [spoofed] = await deliver(address, { from: "ap@vendor.example", to: address, authenticated: false, messageId: "dup-1@vendor.example", attachments: [{ name: "x.png", bytes: png(2, 2, 63) }] })
    expect(spoofed).toMatchObject({ status: "review" })
    const [again] = await deliver(address, { from: "ap@vendor.example", to: address, messageId: "dup-1@vendor.example", attachments: [{ name: "x.png", bytes: png(2, 2, 63) }] })
    expect(again).toMatchObject({ status: "duplicate" })
    const discarded = await app.write(`/v1/receipts/inbox/messages/${spoofed!.outcome === "accepted" ? spoofed!.messageRecordId : 0}/discard`, company.ownerKey, { reason: "spoofed" })
    expect(discarded.body).toMatchObject({ status: "discarded", decision_reason: "spoofed", reasons: ["not_authenticated"] })
  })

  it("makes an HTML message without files an HTML receipt, with a PDF snapshot and its fields read", async () => {
    const address = (await inbox()).address as string
    const html = `<html><head><style>p{}</style><script>alert(1)</script></head><body><h1>Paper Supply Inc.</h1>
      <p>Order date: 2026-07-14</p><table><tr><td>Paper</td><td>$40.00</td></tr><tr><td>Tax</td><td>$3.20</td></tr>
      <tr><td>Total</td><td>$43.20</td></tr></table><img src="https://tracker.example/pixel.gif"></body></html>`
    const [delivery] = await deliver(address, { from: "ap@vendor.example", to: address, subject: "Your order", html })
    expect(delivery).toMatchObject({ status: "processed" })
    const [message] = await messages("processed")
    const id = message.attachments[0].receipt_id
    const receipt = await app.call("GET", `/v1/receipts/${id}`, { token: company.ownerKey })
    expect(receipt.body).toMatchObject({ media_type: "text/html", has_snapshot: true, total_cents: 4320, tax_cents: 320, date: "2026-07-14" })
    const original = await app.call("GET", `/v1/receipts/${id}/file?format=base64`, { token: company.ownerKey })
    expect(Buffer.from(original.body.content_base64, "base64").toString("utf8")).toContain("<h1>Paper Supply Inc.</h1>")
    const snapshot = await app.call("GET", `/v1/receipts/${id}/file?variant=snapshot&format=base64`, { token: company.ownerKey })
    expect(snapshot.body).toMatchObject({ media_type: "application/pdf", file_name: "Your order.pdf" })
    const { text } = await extractText(new Uint8Array(Buffer.from(snapshot.body.content_base64, "base64")), { mergePages: true })
    expect(text).toContain("Total $43.20")
    expect(text).not.toContain("alert")
  })

  it("rejects a message with more attachments than the limit, and lists the reason", async () => {
    const address = (await inbox()).address as string
    const many = Array.from({ length: 11 }, (_, index) => ({ name: `r${index}.png`, bytes: png(2, 2, 100 + index) }))
    const [delivery] = await deliver(address, { from: "ap@vendor.example", to: address, attachments: many })
    expect(delivery).toMatchObject({ status: "rejected" })
    const [message] = await messages("rejected")
    expect(message.reasons).toEqual(["too_many_attachments"])
    expect(message.attachments.every((file: { receipt_id: number | null }) => file.receipt_id === null)).toBe(true)
  })

  it("quarantines a message whose files are not receipts, and rejects one with none", async () => {
    const address = (await inbox()).address as string
    const [exe] = await deliver(address, { from: "ap@vendor.example", to: address, attachments: [{ name: "invoice.pdf", bytes: elf() }] })
    expect(exe).toMatchObject({ status: "quarantined" })
    const [empty] = await deliver(address, { from: "ap@vendor.example", to: address })
    expect(empty).toMatchObject({ status: "rejected" })
  })

  it("rotates: the old address stops at once, mail to it is refused and listed", async () => {
    const before = (await inbox()).address as string
    const rotated = await app.write("/v1/receipts/inbox/rotate", company.ownerKey, { reason: "leaked" })
    expect(rotated.body.address).not.toBe(before)
    const code = await send(smtp.port, "ap@vendor.example", before, mime({ from: "ap@vendor.example", to: before, attachments: [{ name: "late.pdf", bytes: pdf }] }))
    expect(code).toBe(550)
    expect((await inbox()).refused_after_rotation[0]).toMatchObject({ address: before, from: "ap@vendor.example" })
    const [fresh] = await deliver(rotated.body.address, { from: "ap@vendor.example", to: rotated.body.address, attachments: [{ name: "n.png", bytes: png(2, 2, 64) }] })
    expect(fresh).toMatchObject({ status: "processed" })
  })

  it("rejects everything while the inbox is off, and reaches nobody at an unknown address", async () => {
    await app.call("POST", "/v1/receipts/inbox", { token: company.ownerKey, body: { enabled: false } })
    const address = (await inbox()).address as string
    const [off] = await deliver(address, { from: "ap@vendor.example", to: address, attachments: [{ name: "n.png", bytes: png(2, 2, 65) }] })
    expect(off).toMatchObject({ status: "rejected" })
    await app.call("POST", "/v1/receipts/inbox", { token: company.ownerKey, body: { enabled: true } })
    const [nobody] = await deliver("r-0000@inbox.localhost", { from: "a@b.example", to: "r-0000@inbox.localhost" })
    expect(nobody).toMatchObject({ outcome: "unknown" })
  })

  it("keeps companies apart: another company can neither see nor decide this company's messages", async () => {
    const address = (await inbox()).address as string
    const [held] = await deliver(address, { from: "someone@new.example", to: address, attachments: [{ name: "h.png", bytes: png(2, 2, 66) }] })
    const other = await app.createCompany("Nosy Co")
    const id = held!.outcome === "accepted" ? held!.messageRecordId : 0
    expect((await app.write(`/v1/receipts/inbox/messages/${id}/release`, other.ownerKey, {})).status).toBe(404)
    expect((await app.write(`/v1/receipts/inbox/messages/${id}/discard`, other.ownerKey, { reason: "x" })).status).toBe(404)
    const theirs = await app.call("GET", "/v1/receipts/inbox/messages", { token: other.ownerKey })
    expect(theirs.body.data).toEqual([])
  })

  it("releases a forwarding name to anyone after 30 days", async () => {
    const other = await app.createCompany("Latecomer")
    const forwarding = (await inbox()).previous_slug.slug as string
    expect((await app.call("GET", `/v1/receipts/inbox/slug?slug=${forwarding}`, { token: other.ownerKey })).body.reason).toBe("taken")
    app.clock!.advance("31 days")
    const free = await app.call("GET", `/v1/receipts/inbox/slug?slug=${forwarding}`, { token: other.ownerKey })
    expect(free.body).toMatchObject({ available: true, reason: null })
    expect((await inbox()).previous_slug).toBeNull()
  })

  it("expires a message left in review past 30 days: it can no longer be released, and its files are deleted", async () => {
    const address = (await inbox()).address as string
    const [held] = await deliver(address, { from: "late@new.example", to: address, attachments: [{ name: "l.png", bytes: png(2, 2, 67) }] })
    const id = held!.outcome === "accepted" ? held!.messageRecordId : 0
    app.clock!.advance("31 days")
    const refused = await app.write(`/v1/receipts/inbox/messages/${id}/release`, company.ownerKey, {})
    expect(refused.status).toBe(409)
    expect(refused.body.error.details.status).toBe("expired")
    // The next mail to the company marks it expired and deletes what it held.
    await deliver(address, { from: "ap@vendor.example", to: address, attachments: [{ name: "n.png", bytes: png(2, 2, 68) }] })
    const expired = await messages("expired")
    expect(expired.map((message: { id: number }) => message.id)).toContain(id)
    const blobs = await app.query("SELECT blob_key FROM receipt_blobs WHERE company_id = $1 AND blob_key LIKE $2", [company.companyId, `inbox/${id}/%`])
    expect(blobs).toEqual([])
  })
})
