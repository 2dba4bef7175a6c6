import { inflateSync } from "fflate"
import * as DeflateEncoder from "./DeflateEncoder.ts"

/**
 * STORED ANSWERS: the answer of an idempotent write as its idempotency record keeps it for
 * replays (docs/decisions/0706-stored-answers-packed.md, 0800-encoding-libraries.md).
 *
 * The answer's JSON text was more than half of what a posting stored (670 of 2,219 bytes), and
 * PostgreSQL does not compress a value in a row under about 2 KB. So the record keeps the text
 * packed: one format byte, the text's length in bytes, then the text deflated (RFC 1951) against
 * the dictionary, which holds the keys and values most answers repeat: written by the engine's
 * encoder (DeflateEncoder.ts: fflate's cost a posting far more CPU, ADR 0800), read by fflate. A
 * two-line posting's answer of about 670 bytes packs to about 105. Unpacking gives back the very
 * text, so a replay stays byte for byte the first answer.
 *
 * Format 2: the format byte 2; the text's length in bytes of UTF-8, unsigned LEB128 (one byte up to
 * 127, two up to 16,383); raw DEFLATE against the dictionary. The length lets a replay inflate into
 * a buffer of exactly that size, refused above `answerBytesMax` before anything is allocated
 * (without it fflate grows a 128 KiB buffer for every answer, which cost a replay about four times
 * the time, ADR 0800), and shows a stream that does not give back exactly that many bytes.
 * Format 1 (ADR 0706): the format byte 1, then raw DEFLATE against the same dictionary; still read,
 * never written.
 */

const textEncoder = new TextEncoder()
const textDecoder = new TextDecoder()

/**
 * The dictionary of formats 1 and 2: answers of the commonest writes (a posted journal entry last,
 * nearest the data, since deflate finds nearer matches with shorter codes; a queued proposal before
 * it). NEVER CHANGE IT: every record packed in these formats is read with these very bytes. A
 * better dictionary is a new format with a new number, and the old one stays readable for as long
 * as records of it may exist (Limits.idempotencyRetentionDays).
 */
const dictionary = textEncoder.encode(
  `{"id":1,"status":"open","name":"","created_at":"2026-01-01T00:00:00.000Z","updated_at":null,"company_id":null,` +
    `"number":"","date":"2026-01-01","due_date":null,"contact_id":null,"currency":"USD","amount_cents":0,` +
    `"balance_cents":0,"tax_cents":0,"subtotal_cents":0,"description":null,"quantity":1,"unit_price_cents":0}` +
    `{"status":"pending_approval","proposal":{"id":1,"kind":"journal_entry","summary":"Journal entry on 2026-01-01, 2 lines, ` +
    `$0.00","amount_cents":0,"created_by":{"type":"agent","id":1,"name":""},"created_at":"2026-01-01T00:00:00.000Z",` +
    `"reasons":[{"code":"over_threshold","message":"The total $0.00 is over the agent's posting threshold $0.00."}]}}` +
    `{"id":1,"entry_id":1,"entry_date":"2026-01-01","memo":null,"lines":[{"line_no":1,"account":"1000",` +
    `"account_name":"Cash","debit_cents":0,"credit_cents":0,"memo":null,"class":null,"contact_id":null},{"line_no":2,` +
    `"account":"4000","account_name":"Sales","debit_cents":0,"credit_cents":0,"memo":null,"class":null,"contact_id":null}],` +
    `"total_cents":0,"source":{"kind":"journal_entry","id":null},"reverses_entry_id":null,"reversed_by_entry_id":null,` +
    `"proposal_id":null,"soft_lock_override_reason":null,"confidence":null,"posted_by":{"type":"user","id":1,"name":"Owner"},` +
    `"agent_model":null,"posted_at":"2026-01-01T00:00:00.000Z"}`
)

/** The format `pack` writes. */
export const formatCurrent = 2

const encoder = DeflateEncoder.encoder(dictionary)

/**
 * The largest answer text packed, in bytes of UTF-8: an answer comes from a request of at most
 * `Limits.requestBodyBytesMax` (or a statement import's 64 MiB) and the rows it made, so anything
 * near this is a defect, not a workload.
 */
export const answerBytesMax = 256 * 1024 * 1024

/** The answer's JSON text, packed in the current format. */
export const pack = (text: string): Uint8Array => {
  const data = textEncoder.encode(text)
  if (data.length > answerBytesMax) throw new Error(`StoredAnswer.pack: an answer of ${data.length} bytes is over ${answerBytesMax}`)
  const deflated = encoder.deflate(data)
  const header = [formatCurrent]
  for (let length = data.length; ; length >>>= 7) {
    if (length < 0x80) {
      header.push(length)
      break
    }
    header.push((length & 0x7f) | 0x80)
  }
  const packed = new Uint8Array(header.length + deflated.length)
  packed.set(header)
  packed.set(deflated, header.length)
  return packed
}

/**
 * The JSON text of a packed answer. A format this engine does not know means the record was written
 * by a newer engine than the one reading it, or the bytes are not a packed answer: a defect either
 * way, never the caller's fault, and so are a length over `answerBytesMax` and a stream that does
 * not inflate to its length.
 */
export const unpack = (packed: Uint8Array): string => {
  const format = packed[0]
  if (format === 1) return textDecoder.decode(inflateSync(packed.subarray(1), { dictionary }))
  if (format !== formatCurrent) throw new Error(`StoredAnswer.unpack: unknown format ${format}`)
  let length = 0
  let position = 1
  for (let shift = 0; ; shift += 7) {
    const byte = packed[position++]
    if (byte === undefined || shift > 28) throw new Error("StoredAnswer.unpack: a length that does not end")
    length += (byte & 0x7f) * 2 ** shift
    if (byte < 0x80) break
  }
  if (length > answerBytesMax) throw new Error(`StoredAnswer.unpack: a length of ${length} bytes is over ${answerBytesMax}`)
  // One byte of room past the length, so that a stream longer than its length shows (fflate stops
  // writing at the end of the buffer it is given).
  const data = inflateSync(packed.subarray(position), { dictionary, out: new Uint8Array(length + 1) })
  if (data.length !== length) throw new Error(`StoredAnswer.unpack: the stream does not inflate to its length ${length}`)
  return textDecoder.decode(data)
}
