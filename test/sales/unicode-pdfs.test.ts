import { deflateSync } from "node:zlib"
import { extractImages, extractText, getDocumentProxy } from "unpdf"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { makeTestApp, newKey, type TestApp } from "../support/index.ts"
import { salesCompany, type SalesCompany } from "./support.ts"

/**
 * Every PDF the engine draws keeps every character (issue 20 item 4; ADR 0016): text with
 * umlauts, an em dash, kanji and the euro sign goes in over HTTP and is extracted back exactly;
 * a character the embedded font lacks becomes a visible placeholder, never a failure. Sales
 * documents carry the company profile's letterhead (issue 25 item 5).
 */

const phrase = "Überprüfung — 検査 €"
const placeholder = "\u25A1"
/** Letters outside Noto Sans JP, drawn from the fallback font (Polish, Czech, Turkish, Greek, Russian, the rupee). */
const wider = "Łukasz Dvořák Şahin ₹ Ωμέγα Привет"

let app: TestApp
let company: SalesCompany

beforeAll(async () => {
  app = await makeTestApp()
  company = await salesCompany(app, "Unicode Co")
})
afterAll(() => app.close())

/** The PDF's bytes from a file answer, whether it arrives as the JSON envelope or as the file itself. */
const pdfOf = async (path: string): Promise<Uint8Array> => {
  const result = await app.call("GET", path, { token: company.ownerKey, headers: { accept: "application/json" } })
  expect(result.status, JSON.stringify(result.body)).toBe(200)
  const bytes = new Uint8Array(Buffer.from(result.body.content_base64, "base64"))
  expect(Buffer.from(bytes.subarray(0, 5)).toString("latin1")).toBe("%PDF-")
  return bytes
}
const textOf = async (bytes: Uint8Array) => (await extractText(await getDocumentProxy(new Uint8Array(bytes)), { mergePages: true })).text
/** The text with the line breaks and runs of spaces a text extractor may add between runs made one space. */
const flat = (text: string) => text.replace(/\s+/gu, " ")

const created = async (path: string, body: Record<string, unknown>) => {
  const result = await company.post(path, body)
  expect(result.status, JSON.stringify(result.body)).toBe(201)
  return result.body
}

// A PNG of `width` x `height` pixels, solid colour (its CRCs are computed, so any reader accepts it).
const crc = (bytes: Buffer) => {
  let c = 0xffffffff
  for (const byte of bytes) {
    c ^= byte
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1
  }
  return (c ^ 0xffffffff) >>> 0
}
const chunk = (type: string, data: Buffer) => {
  const out = Buffer.alloc(12 + data.length)
  out.writeUInt32BE(data.length, 0)
  out.write(type, 4, "latin1")
  data.copy(out, 8)
  out.writeUInt32BE(crc(out.subarray(4, 8 + data.length)), 8 + data.length)
  return out
}
const png = (width: number, height: number) => {
  const header = Buffer.alloc(13)
  header.writeUInt32BE(width, 0)
  header.writeUInt32BE(height, 4)
  header[8] = 8
  header[9] = 2
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk("IHDR", header),
    chunk("IDAT", deflateSync(Buffer.alloc((width * 3 + 1) * height, 0x40))),
    chunk("IEND", Buffer.alloc(0))
  ])
}

describe("sales documents", () => {
  it("print an invoice's customer, line description and memo exactly as written", async () => {
    const customer = await created("/v1/contacts", { kind: "customer", name: `${phrase} GmbH`, email: "kunde@example.test" })
    const invoice = await created("/v1/invoices", {
      contact_id: customer.id, doc_date: "2026-05-05", memo: `Memo ${phrase}`,
      lines: [{ description: `Line ${phrase}`, amount_cents: 12_345 }, { description: wider, amount_cents: 1 }]
    })
    const text = flat(await textOf(await pdfOf(`/v1/documents/${invoice.id}/pdf`)))
    expect(text).toContain(wider)
    expect(text).toContain(`${phrase} GmbH`)
    expect(text).toContain(`Line ${phrase}`)
    expect(text).toContain(`Memo ${phrase}`)
    expect(text).toContain("123.45")
  })

  it("print an estimate and a credit memo in the same font", async () => {
    const estimate = await created("/v1/estimates", {
      contact_id: company.customerId, estimate_date: "2026-05-05", lines: [{ description: `Estimate ${phrase}`, amount_cents: 50_000 }]
    })
    expect(flat(await textOf(await pdfOf(`/v1/estimates/${estimate.id}/pdf`)))).toContain(`Estimate ${phrase}`)
    const memo = await created("/v1/credit-memos", { contact_id: company.customerId, doc_date: "2026-05-06", lines: [{ description: `Credit ${phrase}`, amount_cents: 1_000 }] })
    expect(flat(await textOf(await pdfOf(`/v1/documents/${memo.id}/pdf`)))).toContain(`Credit ${phrase}`)
  })

  it("draw a character the font lacks as a visible placeholder, and the rest of the text as written", async () => {
    // U+1F600 (an emoji) and U+2000B (a kanji outside JIS X 0208) are in no subset of the font.
    const invoice = await created("/v1/invoices", {
      contact_id: company.customerId, doc_date: "2026-05-07", lines: [{ description: "Smile \u{1F600} and \u{2000B} ok", amount_cents: 100 }]
    })
    const text = flat(await textOf(await pdfOf(`/v1/documents/${invoice.id}/pdf`)))
    expect(text).toContain(`Smile ${placeholder} and ${placeholder} ok`)
    expect(text).not.toContain("\u{1F600}")
  })
})

describe("the company profile on sales documents", () => {
  it("prints the profile's names, address, payment instructions and footer, and embeds the PNG logo", async () => {
    const branded = await salesCompany(app, "Branded Co")
    const profile = await app.call("POST", "/v1/company/profile", {
      token: branded.ownerKey,
      body: {
        legal_name: "Müller & Söhne 株式会社", dba: "Müller Books", address_line1: "1 Königstraße", city: "Berlin", postal_code: "10115", country: "DE",
        email: "office@mueller.example", brand_color: "#1A5FB4", payment_instructions: "IBAN DE89 3704 0044 0532 0130 00\nBitte überweisen Sie binnen 14 Tagen",
        footer_text: `Geschäftsführer: Jörg Müller\nFußzeile ${phrase}`
      }
    })
    expect(profile.status, JSON.stringify(profile.body)).toBe(200)
    const logo = await app.call("POST", "/v1/company/profile/logo", {
      token: branded.ownerKey, key: newKey(), body: { content_base64: png(48, 24).toString("base64"), file_name: "logo.png" }
    })
    expect(logo.status, JSON.stringify(logo.body)).toBe(201)
    const read = async (path: string) => {
      const result = await app.call("GET", path, { token: branded.ownerKey, headers: { accept: "application/json" } })
      expect(result.status, JSON.stringify(result.body)).toBe(200)
      return new Uint8Array(Buffer.from(result.body.content_base64, "base64"))
    }
    const post = async (path: string, body: Record<string, unknown>) => {
      const result = await branded.post(path, body)
      expect(result.status, JSON.stringify(result.body)).toBe(201)
      return result.body
    }
    const invoice = await post("/v1/invoices", { contact_id: branded.customerId, doc_date: "2026-06-01", lines: [{ description: "Beratung", amount_cents: 90_000 }] })
    const estimate = await post("/v1/estimates", { contact_id: branded.customerId, estimate_date: "2026-06-01", lines: [{ description: "Angebot", amount_cents: 10_000 }] })
    const memo = await post("/v1/credit-memos", { contact_id: branded.customerId, doc_date: "2026-06-02", lines: [{ description: "Gutschrift", amount_cents: 500 }] })
    const receipt = await post("/v1/sales-receipts", { contact_id: branded.customerId, doc_date: "2026-06-02", account: "1000", lines: [{ description: "Barverkauf", amount_cents: 999 }] })
    const bill = await post("/v1/bills", { contact_id: branded.vendorId, doc_date: "2026-06-02", lines: [{ description: "Papier", amount_cents: 4_200, account: "6070" }] })
    for (const path of [`/v1/documents/${invoice.id}/pdf`, `/v1/estimates/${estimate.id}/pdf`, `/v1/documents/${memo.id}/pdf`, `/v1/documents/${receipt.id}/pdf`]) {
      const bytes = await read(path)
      const text = flat(await textOf(bytes))
      expect(text, path).toContain("Müller & Söhne 株式会社")
      expect(text).toContain("DBA Müller Books")
      expect(text).toContain("1 Königstraße")
      expect(text).toContain("Berlin, 10115")
      expect(text).toContain("Bitte überweisen Sie binnen 14 Tagen")
      expect(text).toContain("Geschäftsführer: Jörg Müller")
      expect(text).toContain(`Fußzeile ${phrase}`)
      expect(text).not.toContain("Branded Co")
      const images = await extractImages(await getDocumentProxy(new Uint8Array(bytes)), 1)
      expect(images.map((image) => [image.width, image.height])).toEqual([[48, 24]])
    }
    // A bill is the vendor's document: it carries none of the company's letterhead.
    const billBytes = await read(`/v1/documents/${bill.id}/pdf`)
    const billText = flat(await textOf(billBytes))
    expect(billText).toContain("Papier")
    expect(billText).not.toContain("Fußzeile")
    expect(await extractImages(await getDocumentProxy(new Uint8Array(billBytes)), 1)).toEqual([])
  })

  it("prints the company's own name when the profile is empty, with no logo", async () => {
    const plain = await salesCompany(app, "Plain Name Co")
    const invoice = await plain.post("/v1/invoices", { contact_id: plain.customerId, doc_date: "2026-06-01", lines: [{ description: "Work", amount_cents: 100 }] })
    const result = await app.call("GET", `/v1/documents/${invoice.body.id}/pdf`, { token: plain.ownerKey, headers: { accept: "application/json" } })
    const bytes = new Uint8Array(Buffer.from(result.body.content_base64, "base64"))
    expect(flat(await textOf(bytes))).toContain("Plain Name Co")
    expect(await extractImages(await getDocumentProxy(new Uint8Array(bytes)), 1)).toEqual([])
  })
})

describe("the profile preview", () => {
  it("prints the profile as written", async () => {
    const update = await app.call("POST", "/v1/company/profile", { token: company.ownerKey, body: { legal_name: `${phrase} AG`, footer_text: `Footer ${phrase}` } })
    expect(update.status, JSON.stringify(update.body)).toBe(200)
    const text = flat(await textOf(await pdfOf("/v1/company/profile/preview?kind=invoice")))
    expect(text).toContain(`${phrase} AG`)
    expect(text).toContain(`Footer ${phrase}`)
  })
})

describe("the mileage log", () => {
  it("prints a trip's places and purpose as written", async () => {
    const post = async (path: string, body: Record<string, unknown>, status = 201) => {
      const result = await app.call("POST", path, { token: company.ownerKey, key: newKey(), body })
      expect(result.status, JSON.stringify(result.body)).toBe(status)
      return result.body
    }
    const car = await post("/v1/mileage/vehicles", { name: "Wagen", ownership: "owned", in_service_date: "2024-05-01" })
    await post("/v1/mileage/trips", { vehicle_id: car.id, trip_date: "2026-03-03", from_place: "Büro", to_place: "東京", miles: 12.3, purpose: "検査 €" })
    const text = flat(await textOf(await pdfOf("/v1/mileage/log?year=2026&format=base64")))
    expect(text).toContain("Büro")
    expect(text).toContain("東京")
    expect(text).toContain("検査 €")
  })
})
