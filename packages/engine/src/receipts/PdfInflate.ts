import { Unzlib } from "fflate"

/** Input fed to the inflater per step: bounds what one step can produce (deflate expands at most about 1032 times). */
const inflateSliceBytes = 1024

/**
 * A zlib stream inflated up to `limit` bytes, or "over". A stream cut short gives the text it
 * has, as pdf-lib's inflater did; corrupt data before the end throws, as before.
 */
export const inflateBounded = (bytes: Uint8Array, limit: number): Uint8Array | "over" => {
  const chunks: Array<Uint8Array> = []
  let length = 0
  const inflater = new Unzlib((chunk) => {
    chunks.push(chunk)
    length += chunk.length
  })
  for (let at = 0; at < bytes.length && length <= limit; at += inflateSliceBytes) inflater.push(bytes.subarray(at, at + inflateSliceBytes))
  if (length > limit) return "over"
  // The inflater holds back the last bits of its input until told it is final; a stream cut short
  // then throws, and what came out before it is the text it has.
  try {
    inflater.push(new Uint8Array(0), true)
  } catch {
    // Unexpected end of data: keep what was inflated.
  }
  if (length > limit) return "over"
  const out = new Uint8Array(length)
  let offset = 0
  for (const chunk of chunks) {
    out.set(chunk, offset)
    offset += chunk.length
  }
  return out
}
