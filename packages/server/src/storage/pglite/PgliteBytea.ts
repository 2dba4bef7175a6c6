/**
 * `bytea` to and from PostgreSQL's hex text form with Node's native hex codec. PGlite's own
 * serializer builds the text a byte at a time (`Array.from(bytes).map(...).join("")`) and its
 * parser parses it back a pair at a time: for a 25 MB receipt that held the event loop for about
 * 8 s each way (profiled under the mail flood of issue 41, ADR 2321). Native, it is milliseconds.
 */

/** PostgreSQL's type OID of `bytea`. */
export const byteaOid = 17

/** Bytes as a text parameter PostgreSQL reads into a `bytea` column (`\x` then hex). */
export const toText = (bytes: Uint8Array): string => `\\x${Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString("hex")}`

/** A `bytea` value's text (`\x` then hex, PostgreSQL's default output) as bytes. */
export const fromText = (text: string): Uint8Array => {
  if (!text.startsWith("\\x")) throw new Error("a bytea value PGlite answered is not in hex form")
  const decoded = Buffer.from(text.slice(2), "hex")
  return new Uint8Array(decoded.buffer, decoded.byteOffset, decoded.byteLength)
}

/**
 * Parameters with their bytes as hex text, so they take the protocol path as text
 * (PgliteConnection.ts), when every other parameter goes as text too. Otherwise they are left as
 * they are: `PGlite.query` serializes by the column's type and refuses text for a `bytea`.
 */
export const textParameters = (params: ReadonlyArray<unknown>, isText: (value: unknown) => boolean): ReadonlyArray<unknown> =>
  params.some((value) => value instanceof Uint8Array) && params.every((value) => value instanceof Uint8Array || isText(value))
    ? params.map((value) => (value instanceof Uint8Array ? toText(value) : value))
    : params
