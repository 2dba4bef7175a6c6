import { readFileSync } from "node:fs"
import { deflateSync } from "node:zlib"
import { Limits } from "@ledger/api"
import { describe, expect, it } from "vitest"
import * as PdfText from "../src/receipts/PdfText.ts"

/**
 * The PDF text reader's bound (Limits.receiptPdfContentBytesMax): what it decompresses stops at
 * the cap however many pages show a stream, and the text read before the cap is kept.
 */

const cap = Limits.receiptPdfContentBytesMax

/** A minimal PDF of `pages` pages, each showing the one shared stream (deflated unless `plain`). */
const sharedStreamPdf = (pages: number, content: Uint8Array, plain = false): Uint8Array => {
  const data = plain ? content : deflateSync(content)
  const kids = Array.from({ length: pages }, (_, index) => `${index + 4} 0 R`).join(" ")
  const bodies: Array<Buffer> = [
    Buffer.from("<< /Type /Catalog /Pages 2 0 R >>"),
    Buffer.from(`<< /Type /Pages /Kids [${kids}] /Count ${pages} >>`),
    Buffer.concat([Buffer.from(`<< /Length ${data.length}${plain ? "" : " /Filter /FlateDecode"} >>\nstream\n`), data, Buffer.from("\nendstream")]),
    ...Array.from({ length: pages }, () => Buffer.from("<< /Type /Page /Parent 2 0 R /MediaBox [0 0 200 200] /Contents 3 0 R >>"))
  ]
  const parts: Array<Buffer> = [Buffer.from("%PDF-1.4\n")]
  const offsets: Array<number> = []
  let at = parts[0]!.length
  bodies.forEach((body, index) => {
    const object = Buffer.concat([Buffer.from(`${index + 1} 0 obj\n`), body, Buffer.from("\nendobj\n")])
    offsets.push(at)
    at += object.length
    parts.push(object)
  })
  const xref = ["xref", `0 ${bodies.length + 1}`, "0000000000 65535 f ", ...offsets.map((offset) => `${String(offset).padStart(10, "0")} 00000 n `)]
  parts.push(Buffer.from(`${xref.join("\n")}\ntrailer\n<< /Size ${bodies.length + 1} /Root 1 0 R >>\nstartxref\n${at}\n%%EOF\n`))
  return new Uint8Array(Buffer.concat(parts))
}

/** A content stream showing `text`, padded with spaces to exactly `size` bytes. */
const padded = (text: string, size: number): Uint8Array => {
  const bytes = new Uint8Array(size).fill(0x20)
  bytes.set(new TextEncoder().encode(`BT (${text}) Tj ET`))
  return bytes
}

describe("PdfText's bound on decompressed bytes", () => {
  it("stops a 100 MB stream shown on 50 pages at the cap: no text, truncated", async () => {
    const reading = await PdfText.readBounded(sharedStreamPdf(50, new Uint8Array(100_000_000).fill(0x20)))
    expect(reading).toEqual({ text: null, truncated: true, contentBytes: 0 })
  })

  it("reads a stream of exactly the cap, and stops at one byte more", async () => {
    const atCap = await PdfText.readBounded(sharedStreamPdf(1, padded("Total 9.99", cap)))
    expect(atCap).toEqual({ text: "Total 9.99", truncated: false, contentBytes: cap })
    const past = await PdfText.readBounded(sharedStreamPdf(1, padded("Total 9.99", cap + 1)))
    expect(past).toEqual({ text: null, truncated: true, contentBytes: 0 })
    // Unfiltered bytes are held to the same cap.
    expect((await PdfText.readBounded(sharedStreamPdf(1, padded("Plain", cap + 1), true))).truncated).toBe(true)
  })

  it("counts a shared stream at each page, and keeps the pages read before the cap", async () => {
    const size = Math.floor(cap / 3) + 1
    const reading = await PdfText.readBounded(sharedStreamPdf(5, padded("Page", size)))
    expect(reading).toEqual({ text: "Page\nPage", truncated: true, contentBytes: 2 * size })
    expect(reading.contentBytes).toBeLessThanOrEqual(cap)
  })

  it("still reads an ordinary receipt whole", async () => {
    const bytes = new Uint8Array(readFileSync(new URL("../../../test/fixtures/pdf/invoice2data_AzureInterior.pdf", import.meta.url)))
    const reading = await PdfText.readBounded(bytes)
    expect(reading.truncated).toBe(false)
    expect(reading.contentBytes).toBeGreaterThan(0)
    expect(reading.text).toContain("Azure Interior")
  })
})
