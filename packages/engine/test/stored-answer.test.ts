import { inflateRawSync } from "node:zlib"
import fc from "fast-check"
import { Base64, Base64Url } from "effect/encoding"
import { Effect, Exit } from "effect"
import { describe, expect, it } from "vitest"
import { Row, StoredAnswer } from "@ledger/engine"
import * as Cursor from "../src/kernel/Cursor.ts"
import * as DeflateEncoder from "../src/pipeline/DeflateEncoder.ts"

/**
 * Stored answers (docs/decisions/0706-stored-answers-packed.md, 0800-encoding-libraries.md): an
 * idempotency record keeps its answer's JSON text packed, and a replay must be that very text. The
 * engine's DEFLATE encoder, read back by zlib. Cursors in Effect's base64url.
 */

const hex = (bytes: Uint8Array) => Buffer.from(bytes).toString("hex")
const fromHex = (text: string) => Uint8Array.from(Buffer.from(text, "hex"))

/** The answer of a posted journal entry, as `POST /v1/journal-entries/propose` gives it, with any values. */
const postedEntry = fc.record({
  id: fc.nat(),
  date: fc.date({ min: new Date("2000-01-01"), max: new Date("2099-12-31"), noInvalidDate: true }),
  memo: fc.option(fc.string({ unit: "grapheme", maxLength: 60 })),
  lines: fc.array(fc.record({
    account: fc.stringMatching(/^[0-9]{4}$/u),
    name: fc.string({ minLength: 1, maxLength: 40 }),
    cents: fc.integer({ min: 1, max: 1_000_000_000 }),
    memo: fc.option(fc.string({ maxLength: 40 }))
  }), { minLength: 2, maxLength: 12 }),
  by: fc.constantFrom("user", "api_key", "agent")
}).map(({ id, date, memo, lines, by }) => JSON.stringify({
  id,
  entry_id: id,
  entry_date: date.toISOString().slice(0, 10),
  memo,
  lines: lines.map((line, index) => ({
    line_no: index + 1,
    account: line.account,
    account_name: line.name,
    debit_cents: index % 2 === 0 ? line.cents : 0,
    credit_cents: index % 2 === 0 ? 0 : line.cents,
    memo: line.memo,
    class: null,
    contact_id: null
  })),
  total_cents: lines.reduce((total, line, index) => total + (index % 2 === 0 ? line.cents : 0), 0),
  source: { kind: "journal_entry", id: null },
  reverses_entry_id: null,
  reversed_by_entry_id: null,
  proposal_id: null,
  soft_lock_override_reason: null,
  confidence: null,
  posted_by: { type: by, id: 1, name: "Owner" },
  agent_model: null,
  posted_at: date.toISOString()
}))

/** The entry both format vectors hold. */
const rentEntry = {
  id: 42,
  entry_id: 42,
  entry_date: "2026-03-14",
  memo: "Rent",
  lines: [
    { line_no: 1, account: "6100", account_name: "Rent", debit_cents: 120000, credit_cents: 0, memo: null, class: null, contact_id: null },
    { line_no: 2, account: "1010", account_name: "Checking", debit_cents: 0, credit_cents: 120000, memo: null, class: null, contact_id: null }
  ],
  total_cents: 120000
}

describe("stored answers", () => {
  it("unpack to the very text packed, whatever the JSON", () => {
    const text = fc.oneof(
      fc.jsonValue({ maxDepth: 4 }).map((value) => JSON.stringify(value)),
      fc.string({ unit: "grapheme", maxLength: 400 }).map((value) => JSON.stringify({ memo: value })),
      fc.string({ unit: "binary", maxLength: 400 }).map((value) => JSON.stringify([value])),
      postedEntry
    )
    fc.assert(fc.property(text, (json) => {
      const packed = StoredAnswer.pack(json)
      expect(packed[0]).toBe(StoredAnswer.formatCurrent)
      expect(StoredAnswer.unpack(packed)).toBe(json)
    }), { numRuns: 300 })
  })

  it("pack a posted entry's answer smaller than its JSON, whatever its values", () => {
    fc.assert(fc.property(postedEntry, (json) => {
      expect(StoredAnswer.pack(json).length).toBeLessThan(new TextEncoder().encode(json).length / 2)
    }), { numRuns: 200 })
  })

  it("unpack large answers too (a long list, an import's summary)", () => {
    const rows = Array.from({ length: 5_000 }, (_, index) => ({ id: index, name: `Row ${index}`, amount_cents: index * 37 }))
    const json = JSON.stringify({ data: rows, has_more: false })
    const packed = StoredAnswer.pack(json)
    expect(StoredAnswer.unpack(packed)).toBe(json)
    expect(packed.length).toBeLessThan(json.length / 3)
  })

  it("read format 2 as it was written, forever", () => {
    // Packed when format 2 was made: its byte, the text's length (366, LEB128 ee 02), raw DEFLATE.
    // If this fails, the dictionary or the layout changed: add a format instead.
    const packed = fromHex(
      "02ee0283243513600c21bc82e0a12436635d43137862530a82e42942c9cd0c98de30631baa1925b20d8d802ea2519a333430c496e833529381e9209d60b283398dfcb40731a11600"
    )
    expect(JSON.parse(StoredAnswer.unpack(packed))).toEqual(rentEntry)
  })

  it("read format 1 with the dictionary it was written with (records of ADR 0706, never written now)", () => {
    const packed = fromHex(
      "0183243513600c21bc82e0a12436635d43137862530a82e42942c9cd0c98de30631baa1925b20d8d802ea2519a333430c496e833529381e9209d60b283398dfcb40731a11600"
    )
    expect(JSON.parse(StoredAnswer.unpack(packed))).toEqual(rentEntry)
  })

  it("refuse bytes of a format this engine does not know, a length that does not hold, or a stream that is not its length", () => {
    const packed = StoredAnswer.pack("{}")
    expect(hex(packed.subarray(0, 2))).toBe("0202")
    expect(() => StoredAnswer.unpack(Uint8Array.from([9, ...packed.subarray(1)]))).toThrow(/unknown format 9/)
    expect(() => StoredAnswer.unpack(new Uint8Array(0))).toThrow(/unknown format/)
    expect(() => StoredAnswer.unpack(Uint8Array.from([2, 0x80]))).toThrow(/a length that does not end/)
    // 2^28 + 1 bytes: over the limit, refused before anything is allocated.
    expect(() => StoredAnswer.unpack(Uint8Array.from([2, 0x81, 0x80, 0x80, 0x80, 0x01]))).toThrow(/over 268435456/)
    // The stream of "{}" said to be one byte shorter, then one longer.
    expect(() => StoredAnswer.unpack(Uint8Array.from([2, 1, ...packed.subarray(2)]))).toThrow(/does not inflate to its length 1/)
    expect(() => StoredAnswer.unpack(Uint8Array.from([2, 3, ...packed.subarray(2)]))).toThrow(/does not inflate to its length 3/)
  })

  it("never hang, overrun or return another length on bytes that are not DEFLATE", () => {
    fc.assert(fc.property(fc.integer({ min: 0, max: 5_000 }), fc.uint8Array({ maxLength: 600 }), (length, garbage) => {
      const header = length < 0x80 ? [2, length] : [2, (length & 0x7f) | 0x80, length >>> 7]
      try {
        expect(new TextEncoder().encode(StoredAnswer.unpack(Uint8Array.from([...header, ...garbage]))).length).toBeLessThanOrEqual(length)
      } catch (error) {
        expect(error).toBeInstanceOf(Error)
      }
    }), { numRuns: 1_000 })
  })

  it("travel to SQL as the base64 of their bytes, and come back from either driver's form", () => {
    fc.assert(fc.property(fc.uint8Array({ maxLength: 70_000 }), (bytes) => {
      // PostgreSQL's decode(…, 'base64') reads RFC 4648 with padding, which Effect's Base64 writes.
      expect(Base64.encode(bytes)).toBe(Buffer.from(bytes).toString("base64"))
      // node-postgres and postgres.js give a Buffer, PGlite a Uint8Array, an untyped driver `\x…` text.
      expect(hex(Row.bytesOrNull(Buffer.from(bytes))!)).toBe(hex(bytes))
      expect(hex(Row.bytesOrNull(`\\x${hex(bytes)}`)!)).toBe(hex(bytes))
    }), { numRuns: 60 })
    expect(Row.bytesOrNull(null)).toBeNull()
    expect(() => Row.bytesOrNull(42)).toThrow(/expected bytea/)
  })
})

describe("the engine's DEFLATE encoder", () => {
  /** zlib's decoder, the reference, reads back exactly the input (fflate's, which replays use, reads every stored answer above). */
  const expectInflates = (dictionary: Uint8Array, data: Uint8Array, deflated: Uint8Array) => {
    expect(hex(inflateRawSync(deflated, { dictionary }))).toBe(hex(data))
  }
  const alphabet = fc.constantFrom(...'ab{}\\":,0123 ')
  const textLike = fc.array(alphabet, { maxLength: 3_000 }).map((characters) => new TextEncoder().encode(characters.join("")))
  const anyData = fc.oneof(fc.uint8Array({ maxLength: 3_000 }), textLike)

  it("writes raw DEFLATE that zlib reads back to the input, whatever the dictionary and the data", () => {
    fc.assert(fc.property(fc.uint8Array({ maxLength: 2_000 }), anyData, (dictionary, data) => {
      const encoder = DeflateEncoder.encoder(dictionary)
      expectInflates(dictionary, data, encoder.deflate(data))
      // Calls share the encoder's tables: a second call is as good as a first.
      expectInflates(dictionary, data, encoder.deflate(data))
    }), { numRuns: 150 })
  })

  it("keeps every match within the window on data far longer than it", () => {
    const dictionary = new TextEncoder().encode(`{"id":1,"name":"Row","amount_cents":0}`)
    const encoder = DeflateEncoder.encoder(dictionary)
    const repetitive = new TextEncoder().encode(JSON.stringify(Array.from({ length: 20_000 }, (_, index) => ({ id: index % 97, name: `Row ${index % 13}` }))))
    const noisy = Uint8Array.from({ length: 200_000 }, (_, index) => (Math.imul(index, 2_654_435_761) >>> 13) % 7 + 97)
    for (const data of [repetitive, noisy, new Uint8Array(100_000)]) {
      expect(data.length).toBeGreaterThan(65_536)
      expectInflates(dictionary, data, encoder.deflate(data))
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

  it("refuses a dictionary that would not leave room for a match in the window", () => {
    expect(() => DeflateEncoder.encoder(new Uint8Array(32_768))).toThrow(/larger than the window/)
  })
})

describe("cursors (base64url of the key, Effect's Base64Url)", () => {
  const decode = (cursor: string) => Effect.runSyncExit(Cursor.decode(cursor))

  it("keep the text they had: RFC 4648's URL alphabet without padding", () => {
    fc.assert(fc.property(fc.string({ unit: "grapheme", minLength: 1, maxLength: 200 }), (key) => {
      const cursor = Cursor.encode(key)
      expect(cursor).toBe(Buffer.from(key).toString("base64url"))
      expect(decode(cursor)).toEqual(Exit.succeed(key))
      // A padded one (the form email suppression cursors are issued in) reads back too.
      expect(decode(Base64Url.encodePadded(key))).toEqual(Exit.succeed(key))
    }), { numRuns: 200 })
  })

  it("refuse what no server issued, the standard alphabet's '+' and '/' among it", () => {
    expect(decode("YT8-")).toEqual(Exit.succeed("a?>"))
    // "YT8+" is the same key in the standard alphabet: atob read it before ADR 0800, no server wrote it.
    for (const forged of ["", "e", "not a cursor", "YT8+", "Pz8/", Buffer.from([0xff, 0xfe]).toString("base64url")]) {
      expect(Exit.isFailure(decode(forged))).toBe(true)
    }
  })
})
