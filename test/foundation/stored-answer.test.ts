import { constants, deflateRawSync, inflateRawSync } from "node:zlib"
import fc from "fast-check"
import { describe, expect, it } from "vitest"
import { Base64, Row, StoredAnswer } from "@ledger/engine"
import * as Deflate from "../../packages/engine/src/pipeline/Deflate.ts"

/**
 * Stored answers (docs/decisions/0706-stored-answers-packed.md): an idempotency record keeps its
 * answer's JSON text packed, and a replay must be that very text.
 */

const hex = (bytes: Uint8Array) => Buffer.from(bytes).toString("hex")

describe("stored answers", () => {
  it("unpack to the very text packed, whatever the JSON", () => {
    const text = fc.oneof(
      fc.jsonValue({ maxDepth: 4 }).map((value) => JSON.stringify(value)),
      fc.string({ unit: "grapheme", maxLength: 400 }).map((value) => JSON.stringify({ memo: value })),
      fc.string({ unit: "binary", maxLength: 400 }).map((value) => JSON.stringify([value]))
    )
    fc.assert(fc.property(text, (json) => {
      const packed = StoredAnswer.pack(json)
      expect(packed[0]).toBe(StoredAnswer.formatCurrent)
      expect(StoredAnswer.unpack(packed)).toBe(json)
    }), { numRuns: 300 })
  })

  it("unpack large answers too (a long list, an import's summary)", () => {
    const rows = Array.from({ length: 5_000 }, (_, index) => ({ id: index, name: `Row ${index}`, amount_cents: index * 37 }))
    const json = JSON.stringify({ data: rows, has_more: false })
    const packed = StoredAnswer.pack(json)
    expect(StoredAnswer.unpack(packed)).toBe(json)
    expect(packed.length).toBeLessThan(json.length / 3)
  })

  it("read format 1 with the dictionary it was written with, forever", () => {
    // Packed when format 1 was made. If this fails, format 1's dictionary changed, and every record
    // written with it would unpack to something else: add a format instead.
    const packed = Uint8Array.from(Buffer.from(
      "0183243513600c21bc82e0a12436635d43137862530a82e42942c9cd0c98de30631baa1925b20d8d802ea2519a333430c496e833529381e9209d60b283398dfcb40731a11600",
      "hex"
    ))
    expect(JSON.parse(StoredAnswer.unpack(packed))).toEqual({
      id: 42,
      entry_id: 42,
      entry_date: "2026-03-14",
      memo: "Rent",
      lines: [
        { line_no: 1, account: "6100", account_name: "Rent", debit_cents: 120000, credit_cents: 0, memo: null, class: null, contact_id: null },
        { line_no: 2, account: "1010", account_name: "Checking", debit_cents: 0, credit_cents: 120000, memo: null, class: null, contact_id: null }
      ],
      total_cents: 120000
    })
  })

  it("refuse bytes of a format this engine does not know", () => {
    const packed = StoredAnswer.pack("{}")
    expect(() => StoredAnswer.unpack(Uint8Array.from([9, ...packed.subarray(1)]))).toThrow(/unknown format 9/)
    expect(() => StoredAnswer.unpack(new Uint8Array(0))).toThrow(/unknown format/)
  })

  it("travel to SQL as the base64 of their bytes, and come back from either driver's form", () => {
    fc.assert(fc.property(fc.uint8Array({ maxLength: 70_000 }), (bytes) => {
      expect(Base64.encode(bytes)).toBe(Buffer.from(bytes).toString("base64"))
      // node-postgres and postgres.js give a Buffer, PGlite a Uint8Array, an untyped driver `\x…` text.
      expect(hex(Row.bytesOrNull(Buffer.from(bytes))!)).toBe(hex(bytes))
      expect(hex(Row.bytesOrNull(`\\x${hex(bytes)}`)!)).toBe(hex(bytes))
    }), { numRuns: 60 })
    expect(Row.bytesOrNull(null)).toBeNull()
    expect(() => Row.bytesOrNull(42)).toThrow(/expected bytea/)
  })
})

describe("base64url (secrets, sealed values, cursors)", () => {
  it("is RFC 4648's URL alphabet without padding, and reads back padded or not", () => {
    fc.assert(fc.property(fc.uint8Array({ maxLength: 2_000 }), (bytes) => {
      const text = Base64.encodeUrl(bytes)
      expect(text).toBe(Buffer.from(bytes).toString("base64url"))
      expect(text).toMatch(/^[A-Za-z0-9_-]*$/)
      expect(hex(Base64.decodeUrl(text))).toBe(hex(bytes))
      expect(hex(Base64.decodeUrl(Buffer.from(bytes).toString("base64")))).toBe(hex(bytes))
    }), { numRuns: 200 })
    expect(() => Base64.decodeUrl("not base64!")).toThrow()
  })
})

describe("the engine's DEFLATE", () => {
  /** zlib's decoder (the reference) and the engine's read back exactly the input. */
  const expectInflates = (dictionary: Uint8Array, data: Uint8Array, deflated: Uint8Array) => {
    expect(hex(inflateRawSync(deflated, { dictionary }))).toBe(hex(data))
    expect(hex(Deflate.inflate(deflated, dictionary, data.length))).toBe(hex(data))
  }
  const alphabet = fc.constantFrom(...'ab{}\\":,0123 ')
  const textLike = fc.array(alphabet, { maxLength: 3_000 }).map((characters) => new TextEncoder().encode(characters.join("")))
  const anyData = fc.oneof(fc.uint8Array({ maxLength: 3_000 }), textLike)

  it("writes raw DEFLATE that zlib reads back to the input, whatever the dictionary and the data", () => {
    fc.assert(fc.property(fc.uint8Array({ maxLength: 2_000 }), anyData, (dictionary, data) => {
      const encoder = Deflate.encoder(dictionary)
      expectInflates(dictionary, data, encoder.deflate(data))
      // Calls share the encoder's tables: a second call is as good as a first.
      expectInflates(dictionary, data, encoder.deflate(data))
    }), { numRuns: 150 })
  })

  it("reads what zlib writes, at every level and strategy, with and without a dictionary", () => {
    const strategies = [constants.Z_DEFAULT_STRATEGY, constants.Z_FILTERED, constants.Z_HUFFMAN_ONLY, constants.Z_RLE, constants.Z_FIXED]
    fc.assert(fc.property(
      fc.uint8Array({ maxLength: 2_000 }),
      anyData,
      fc.integer({ min: 0, max: 9 }),
      fc.constantFrom(...strategies),
      (dictionary, data, level, strategy) => {
        const deflated = deflateRawSync(data, { level, strategy, ...(dictionary.length === 0 ? {} : { dictionary }) })
        expect(hex(Deflate.inflate(deflated, dictionary, data.length))).toBe(hex(data))
      }
    ), { numRuns: 300 })
  })

  it("keeps every match within the window on data far longer than it", () => {
    const dictionary = new TextEncoder().encode(`{"id":1,"name":"Row","amount_cents":0}`)
    const encoder = Deflate.encoder(dictionary)
    const repetitive = new TextEncoder().encode(JSON.stringify(Array.from({ length: 20_000 }, (_, index) => ({ id: index % 97, name: `Row ${index % 13}` }))))
    const noisy = Uint8Array.from({ length: 200_000 }, (_, index) => (Math.imul(index, 2_654_435_761) >>> 13) % 7 + 97)
    for (const data of [repetitive, noisy, new Uint8Array(100_000)]) {
      expect(data.length).toBeGreaterThan(65_536)
      expectInflates(dictionary, data, encoder.deflate(data))
      expect(hex(Deflate.inflate(deflateRawSync(data, { dictionary }), dictionary, data.length))).toBe(hex(data))
    }
    // Either side of the size whose buffers the encoder keeps between calls.
    for (const length of [64 * 1024, 64 * 1024 + 1]) {
      const data = Uint8Array.from({ length }, (_, index) => (index * 7919) % 251)
      expectInflates(dictionary, data, encoder.deflate(data))
    }
    // Short again after long: nothing of the long data's tables leaks into the next call.
    const short = new TextEncoder().encode(`{"id":7,"name":"Row 7"}`)
    expectInflates(dictionary, short, encoder.deflate(short))
  })

  it("refuses a stream that would inflate past its limit, and never hangs or overruns on bytes that are not DEFLATE", () => {
    const zeros = deflateRawSync(new Uint8Array(1_000_000))
    expect(zeros.length).toBeLessThan(2_000)
    expect(() => Deflate.inflate(zeros, new Uint8Array(0), 999_999)).toThrow(/more than 999999 bytes/)
    expect(Deflate.inflate(zeros, new Uint8Array(0), 1_000_000).length).toBe(1_000_000)
    fc.assert(fc.property(fc.uint8Array({ maxLength: 600 }), fc.uint8Array({ maxLength: 64 }), (garbage, dictionary) => {
      try {
        expect(Deflate.inflate(garbage, dictionary, 10_000).length).toBeLessThanOrEqual(10_000)
      } catch (error) {
        expect(String(error)).toMatch(/Deflate\.inflate/)
      }
    }), { numRuns: 2_000 })
  })

  it("refuses a dictionary that would not leave room for a match in the window", () => {
    expect(() => Deflate.encoder(new Uint8Array(32_768))).toThrow(/larger than the window/)
  })
})
