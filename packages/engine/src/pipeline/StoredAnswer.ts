import * as Deflate from "./Deflate.ts"

/**
 * STORED ANSWERS: the answer of an idempotent write as its idempotency record keeps it for
 * replays (docs/decisions/0706-stored-answers-packed.md).
 *
 * The answer's JSON text was more than half of what a posting stored (670 of 2,219 bytes), and
 * PostgreSQL does not compress a value in a row under about 2 KB. So the record keeps the text
 * packed: one format byte, then the text deflated (RFC 1951) against that format's preset
 * dictionary, which holds the keys and values most answers repeat. A two-line posting's answer
 * packs to about 100 bytes. Unpacking gives back the very text, so a replay stays byte for byte
 * the first answer.
 *
 * Pure JavaScript and synchronous, as the engine's hashing is (ADR 0703), with the engine's own
 * DEFLATE (Deflate.ts): measured against zlib's and fflate's, its encoder cost a posting less Node
 * time and its decoder kept replays' tail where it was (ADR 0706).
 */

const textEncoder = new TextEncoder()
const textDecoder = new TextDecoder()

/**
 * Format 1's dictionary: answers of the commonest writes (a posted journal entry last, nearest the
 * data, since deflate finds nearer matches with shorter codes; a queued proposal before it).
 * NEVER CHANGE IT: every record packed in format 1 is read with these very bytes. A better
 * dictionary is a new format with a new number, and the old one stays readable for as long as
 * records of it may exist (Limits.idempotencyRetentionDays).
 */
const dictionaryFormat1 = textEncoder.encode(
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

/** The dictionaries of every format ever written, by format byte. */
const dictionaries: ReadonlyMap<number, Uint8Array> = new Map([[1, dictionaryFormat1]])

/** The format `pack` writes. */
export const formatCurrent = 1

const encoderCurrent = Deflate.encoder(dictionaryFormat1)

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
  const deflated = encoderCurrent.deflate(data)
  const packed = new Uint8Array(1 + deflated.length)
  packed[0] = formatCurrent
  packed.set(deflated, 1)
  return packed
}

/**
 * The JSON text of a packed answer. A format this engine does not know means the record was written
 * by a newer engine than the one reading it, or the bytes are not a packed answer: a defect either
 * way, never the caller's fault.
 */
export const unpack = (packed: Uint8Array): string => {
  const dictionary = packed.length === 0 ? undefined : dictionaries.get(packed[0]!)
  if (dictionary === undefined) throw new Error(`StoredAnswer.unpack: unknown format ${packed[0]}`)
  return textDecoder.decode(Deflate.inflate(packed.subarray(1), dictionary, answerBytesMax))
}
