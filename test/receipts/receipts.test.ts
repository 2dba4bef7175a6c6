import { readFileSync } from "node:fs"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { expectErrorBody } from "../support/index.ts"
import { type Company, elf, heic, jpeg, makeReceiptsApp, png, type ReceiptsApp } from "./support.ts"

/** Receipts over HTTP: upload (sniffed, deduplicated, encrypted), read, correct, file back, discard and restore. */

const fixture = (name: string) => new Uint8Array(readFileSync(new URL(`../fixtures/pdf/${name}`, import.meta.url)))

let app: ReceiptsApp
let company: Company

beforeAll(async () => {
  app = await makeReceiptsApp()
  company = await app.createCompany()
})
afterAll(() => app.close())

describe("uploading receipts", () => {
  it("takes a PDF, reads its text at once, and gives the same receipt for the same file", async () => {
    const bytes = fixture("invoice2data_AzureInterior.pdf")
    const first = await app.upload(company, bytes, "azure.pdf")
    expect(first.status).toBe(201)
    expect(first.body).toMatchObject({ created: true, media_type: "application/pdf", source: "upload", has_text: true, total_cents: 27984 })
    const again = await app.upload(company, bytes, "renamed.pdf")
    expect(again.status).toBe(201)
    expect(again.body).toMatchObject({ created: false, id: first.body.id, file_name: "azure.pdf" })
  })

  it("tells PNG, JPEG and HEIC by their bytes, not their names", async () => {
    const cases: Array<[Uint8Array, string]> = [[png(3, 3, 1), "image/png"], [jpeg(1), "image/jpeg"], [heic(), "image/heic"]]
    for (const [bytes, mediaType] of cases) {
      const result = await app.upload(company, bytes, "photo.pdf", { source: "camera" })
      expect(result.status, JSON.stringify(result.body)).toBe(201)
      expect(result.body).toMatchObject({ media_type: mediaType, source: "camera", has_text: false })
    }
  })

  it("refuses a renamed executable and anything that is not a receipt file", async () => {
    const refused = await app.upload(company, elf(), "receipt.pdf")
    expect(refused.status).toBe(415)
    expectErrorBody(refused.body, "unsupported_media_type")
    const text = await app.upload(company, new TextEncoder().encode("just some text, not a receipt"), "receipt.jpg")
    expect(text.status).toBe(415)
    const notBase64 = await app.write("/v1/receipts", company.ownerKey, { file_name: "x.pdf", content_base64: "***not base64***" })
    // Both malformed: the same 400 invalid_request, whether empty (schema) or not base64 (decode).
    expect(notBase64.status).toBe(400)
    expectErrorBody(notBase64.body, "invalid_request")
    const empty = await app.write("/v1/receipts", company.ownerKey, { file_name: "x.pdf", content_base64: "" })
    expect(empty.status).toBe(400)
    expectErrorBody(empty.body, "invalid_request")
  })

  it("stores the file encrypted: no byte of it is readable in the database", async () => {
    const bytes = fixture("invoice2data_oyo.pdf")
    const uploaded = await app.upload(company, bytes, "oyo.pdf")
    const rows = await app.query<{ ciphertext: Uint8Array }>(
      "SELECT ciphertext FROM receipt_blobs WHERE company_id = $1 AND blob_key = $2",
      [company.companyId, `receipt/${uploaded.body.sha256}`]
    )
    const stored = Buffer.from(rows[0]!.ciphertext)
    expect(stored.includes(Buffer.from("%PDF"))).toBe(false)
    expect(stored.includes(Buffer.from(bytes.subarray(200, 232)))).toBe(false)
    expect(stored.byteLength).toBe(bytes.byteLength + 16)
    // Served back whole, decrypted.
    const file = await app.call("GET", `/v1/receipts/${uploaded.body.id}/file?format=base64`, { token: company.ownerKey })
    expect(file.status).toBe(200)
    expect(file.body).toMatchObject({ media_type: "application/pdf", size_bytes: bytes.byteLength, file_name: "oyo.pdf" })
    expect(Buffer.from(file.body.content_base64, "base64").equals(Buffer.from(bytes))).toBe(true)
  })

  it("writes a file past one part a part per row (migration 0054), and serves it back byte for byte", async () => {
    // Two and a half parts (BlobStore.partBytes, 256 KiB) of sealed bytes: three parts, the last one partial.
    const part = 256 * 1024
    const base = fixture("invoice2data_oyo.pdf")
    const bytes = new Uint8Array(Buffer.concat([base, Buffer.from(`\n% ${"q".repeat(2.5 * part - base.byteLength)}\n`)]))
    const uploaded = await app.upload(company, bytes, "long.pdf")
    expect(uploaded.status).toBe(201)
    const ref = [company.companyId, `receipt/${uploaded.body.sha256}`]
    const first = await app.query<{ ciphertext: Uint8Array }>("SELECT ciphertext FROM receipt_blobs WHERE company_id = $1 AND blob_key = $2", ref)
    const parts = await app.query<{ part: number; bytes: Uint8Array }>(
      "SELECT part, bytes FROM receipt_blob_parts WHERE company_id = $1 AND blob_key = $2 ORDER BY part", ref)
    expect(Buffer.from(first[0]!.ciphertext).byteLength).toBe(part)
    expect(parts.map((row) => row.part)).toEqual([1, 2])
    expect(parts.map((row) => Buffer.from(row.bytes).byteLength)).toEqual([part, bytes.byteLength + 16 - 2 * part])
    const file = await app.call("GET", `/v1/receipts/${uploaded.body.id}/file?format=base64`, { token: company.ownerKey })
    expect(file.status).toBe(200)
    expect(Buffer.from(file.body.content_base64, "base64").equals(Buffer.from(bytes))).toBe(true)
  })

  it("keeps companies apart: another company sees neither the receipt nor its file", async () => {
    const other = await app.createCompany("Other Co")
    const mine = await app.upload(company, png(5, 5, 9), "mine.png")
    expect((await app.call("GET", `/v1/receipts/${mine.body.id}`, { token: other.ownerKey })).status).toBe(404)
    expect((await app.call("GET", `/v1/receipts/${mine.body.id}/file`, { token: other.ownerKey })).status).toBe(404)
    // The same file is a new receipt in the other company.
    const theirs = await app.upload(other, png(5, 5, 9), "theirs.png")
    expect(theirs.body.created).toBe(true)
    const list = await app.call("GET", "/v1/receipts", { token: other.ownerKey })
    expect(list.body.data.map((receipt: { id: number }) => receipt.id)).toEqual([theirs.body.id])
  })
})

describe("reading and correcting", () => {
  it("asks the configured reader for images and keeps what a person corrected", async () => {
    app.reader.answer({ vendor: "Corner Cafe", date: "2026-03-02", total_cents: 1250, tax_cents: 100, payment_method: "card" })
    const uploaded = await app.upload(company, jpeg(42), "cafe.jpg")
    expect(uploaded.body).toMatchObject({ status: "extracted", vendor: "Corner Cafe", total_cents: 1250, extraction: { status: "read", by: "fake-reader" } })
    const corrected = await app.write(`/v1/receipts/${uploaded.body.id}`, company.ownerKey, { vendor: "The Corner Cafe", note: "team lunch" })
    expect(corrected.status).toBe(200)
    app.reader.answer({ vendor: "Corner Cafe", total_cents: 1300 })
    const again = await app.write(`/v1/receipts/${uploaded.body.id}/extract`, company.ownerKey, {})
    expect(again.status).toBe(200)
    expect(again.body).toMatchObject({ vendor: "The Corner Cafe", total_cents: 1300, note: "team lunch" })
    app.reader.failNext("provider down")
    const failed = await app.write(`/v1/receipts/${uploaded.body.id}/extract`, company.ownerKey, {})
    expect(failed.body.extraction).toMatchObject({ status: "failed", message: "provider down" })
    app.reader.answer({})
  })

  it("discards with a reason and restores; lists filter by status and source", async () => {
    const uploaded = await app.upload(company, jpeg(77), "junk.jpg")
    const noReason = await app.write(`/v1/receipts/${uploaded.body.id}/discard`, company.ownerKey, {})
    expect(noReason.status).toBe(400)
    const discarded = await app.write(`/v1/receipts/${uploaded.body.id}/discard`, company.ownerKey, { reason: "personal" })
    expect(discarded.body).toMatchObject({ status: "discarded", discarded_reason: "personal" })
    expect((await app.write(`/v1/receipts/${uploaded.body.id}/discard`, company.ownerKey, { reason: "again" })).status).toBe(409)
    const listed = await app.call("GET", "/v1/receipts?status=discarded", { token: company.ownerKey })
    expect(listed.body.data.map((receipt: { id: number }) => receipt.id)).toContain(uploaded.body.id)
    const restored = await app.write(`/v1/receipts/${uploaded.body.id}/restore`, company.ownerKey, {})
    expect(restored.body.status).not.toBe("discarded")
    expect((await app.write(`/v1/receipts/${uploaded.body.id}/restore`, company.ownerKey, {})).status).toBe(409)
    const cameras = await app.call("GET", "/v1/receipts?source=camera", { token: company.ownerKey })
    expect(cameras.body.data.every((receipt: { source: string }) => receipt.source === "camera")).toBe(true)
  })

  it("has no snapshot for a receipt that did not arrive as HTML", async () => {
    const uploaded = await app.upload(company, jpeg(78), "a.jpg")
    expect((await app.call("GET", `/v1/receipts/${uploaded.body.id}/file?variant=snapshot`, { token: company.ownerKey })).status).toBe(404)
  })
})

describe("without a master key", () => {
  it("answers 503 receipt_storage_not_configured", async () => {
    const { makeTestApp } = await import("../support/index.ts")
    const bare = await makeTestApp()
    try {
      const made = await bare.createCompany()
      const result = await bare.call("POST", "/v1/receipts", {
        token: made.ownerKey, key: "receipt-upload-1", body: { file_name: "a.png", content_base64: Buffer.from(png()).toString("base64") }
      })
      expect(result.status).toBe(503)
      expectErrorBody(result.body, "receipt_storage_not_configured")
    } finally {
      await bare.close()
    }
  })
})

describe("the size limit", () => {
  it("takes a file of exactly 20 MB and refuses one byte more with 413", async () => {
    const limit = 20 * 1024 * 1024
    const big = new Uint8Array(limit + 1)
    big.set(new TextEncoder().encode("%PDF-1.4\n%\u00e2\u00e3\n1 0 obj\n<<>>\nendobj\n"))
    const refused = await app.upload(company, big, "big.pdf")
    expect(refused.status).toBe(413)
    expectErrorBody(refused.body, "payload_too_large")
    const exact = await app.upload(company, big.subarray(0, limit), "exact.pdf")
    expect(exact.status, JSON.stringify(exact.body).slice(0, 300)).toBe(201)
    expect(exact.body).toMatchObject({ size_bytes: limit, has_text: false })
  }, 120_000)
})
