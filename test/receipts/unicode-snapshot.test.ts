import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { InboundMail } from "@ledger/server/adapters"
import { pdfTextOfBase64 as textOf } from "../support/index.ts"
import { mime, trustedAuthservId } from "./mail.ts"
import { makeReceiptsApp, type ReceiptsApp } from "./support.ts"

/** The snapshot of an HTML receipt prints the message's text as sent (issue 20 item 4; ADR 0016). */

const phrase = "Überprüfung — 検査 €"

describe("an HTML receipt's snapshot", () => {
  let app: ReceiptsApp
  beforeAll(async () => {
    app = await makeReceiptsApp({ clock: true })
  })
  afterAll(() => app.close())

  it("prints the message's text as sent", async () => {
    const company = await app.createCompany("Snapshot Co")
    expect((await app.call("POST", "/v1/receipts/inbox", { token: company.ownerKey, body: { allowed_senders: ["shop@vendor.example"] } })).status).toBe(200)
    const address = (await app.call("GET", "/v1/receipts/inbox", { token: company.ownerKey })).body.address as string
    const html = `<html><body><h1>Laden ${phrase}</h1><p>Datum: 2026-07-14</p><table><tr><td>Total</td><td>€43.20</td></tr></table></body></html>`
    const message = { from: "shop@vendor.example", to: address, subject: "Bestellung", html }
    const [delivery] = await InboundMail.receive(app.runtime, mime(message), { mailFrom: message.from, recipients: [address] }, { trustedAuthservId, clock: app.clock })
    expect(delivery).toMatchObject({ status: "processed" })
    const messages = (await app.call("GET", "/v1/receipts/inbox/messages?status=processed", { token: company.ownerKey })).body.data
    const id = messages[0].attachments[0].receipt_id
    const snapshot = await app.call("GET", `/v1/receipts/${id}/file?variant=snapshot&format=base64`, { token: company.ownerKey })
    expect(snapshot.status, JSON.stringify(snapshot.body)).toBe(200)
    const text = await textOf(snapshot.body.content_base64)
    expect(text).toContain(`Laden ${phrase}`)
    expect(text).toContain("Total €43.20")
  })
})
