import { deflateSync } from "node:zlib"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { type Company, makeReceiptsApp, type ReceiptsApp } from "./support.ts"
import { pdfOfObjects } from "../support/files.ts"

/**
 * A decompression bomb uploaded as a receipt: one deflated stream of 100 MB of spaces shown on 50
 * pages (it once held the whole server for 77 s). It is stored like a scan, with no text read; the
 * bound itself is proved in packages/engine/test/pdf-text-bounds.test.ts.
 */

/** A minimal PDF: page 1 shows `first` (or the shared stream), every other page the one shared deflated stream. */
const bombPdf = (pages: number, shared: Uint8Array, first?: string): Uint8Array => {
  const kids = Array.from({ length: pages }, (_, index) => `${index + 5} 0 R`).join(" ")
  const stream = (bytes: Uint8Array, filter: string) =>
    Buffer.concat([Buffer.from(`<< /Length ${bytes.length}${filter} >>\nstream\n`, "latin1"), bytes, Buffer.from("\nendstream", "latin1")])
  const bodies: Array<Buffer> = [
    Buffer.from("<< /Type /Catalog /Pages 2 0 R >>"),
    Buffer.from(`<< /Type /Pages /Kids [${kids}] /Count ${pages} >>`),
    stream(deflateSync(shared), " /Filter /FlateDecode"),
    stream(Buffer.from(first ?? ""), ""),
    ...Array.from({ length: pages }, (_, index) =>
      Buffer.from(`<< /Type /Page /Parent 2 0 R /MediaBox [0 0 200 200] /Contents ${index === 0 && first !== undefined ? 4 : 3} 0 R >>`))
  ]
  return pdfOfObjects(bodies)
}

let app: ReceiptsApp
let company: Company

beforeAll(async () => {
  app = await makeReceiptsApp({ reader: false })
  company = await app.createCompany()
})
afterAll(() => app.close())

describe("a PDF decompression bomb", () => {
  it("is stored with no text read, like a scan, and served back whole", async () => {
    const bytes = bombPdf(50, new Uint8Array(100_000_000).fill(0x20))
    expect(bytes.byteLength).toBeLessThan(200_000)
    const uploaded = await app.upload(company, bytes, "bomb50.pdf")
    expect(uploaded.status, JSON.stringify(uploaded.body)).toBe(201)
    expect(uploaded.body).toMatchObject({ created: true, media_type: "application/pdf", has_text: false, total_cents: null })
    const file = await app.call("GET", `/v1/receipts/${uploaded.body.id}/file?format=base64`, { token: company.ownerKey })
    expect(file.status).toBe(200)
    expect(Buffer.from(file.body.content_base64, "base64").equals(Buffer.from(bytes))).toBe(true)
  })

  it("keeps the text read before the cap", async () => {
    const bytes = bombPdf(50, new Uint8Array(100_000_000).fill(0x20), "BT (Coffee Shop) Tj T* (Total 12.50) Tj ET")
    const uploaded = await app.upload(company, bytes, "partial.pdf")
    expect(uploaded.status, JSON.stringify(uploaded.body)).toBe(201)
    expect(uploaded.body).toMatchObject({ created: true, has_text: true, total_cents: 1250 })
  })
})
