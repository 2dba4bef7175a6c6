/**
 * Drivers differ in what they return for `bigint` and `timestamptz` (strings, bigints, Dates).
 * Every read goes through these so that records look the same on PostgreSQL and PGlite.
 */
export const int = (value: unknown): number => {
  const number = typeof value === "bigint" ? Number(value) : typeof value === "string" ? Number(value) : (value as number)
  if (!Number.isSafeInteger(number)) throw new Error(`expected a safe integer, got ${String(value)}`)
  return number
}

export const intOrNull = (value: unknown): number | null => value === null || value === undefined ? null : int(value)

export const iso = (value: unknown): string =>
  value instanceof Date ? value.toISOString() : new Date(value as string).toISOString()

export const isoOrNull = (value: unknown): string | null => value === null || value === undefined ? null : iso(value)

/** A `date` column as YYYY-MM-DD, whatever the driver made of it. */
export const date = (value: unknown): string =>
  value instanceof Date ? value.toISOString().slice(0, 10) : String(value).slice(0, 10)

export const textArray = <T extends string>(value: unknown): Array<T> => {
  if (Array.isArray(value)) return value as Array<T>
  if (typeof value === "string" && value.startsWith("[")) return JSON.parse(value) as Array<T>
  if (typeof value === "string") {
    // `{a,b}` as some drivers return arrays of unknown element types.
    const inner = value.replace(/^\{|\}$/g, "")
    return (inner === "" ? [] : inner.split(",")) as Array<T>
  }
  return []
}

export const json = <T>(value: unknown): T => (typeof value === "string" ? JSON.parse(value) : value) as T

/**
 * A `bytea` column as bytes: a Buffer (node-postgres, postgres.js) or a Uint8Array (PGlite), or
 * PostgreSQL's hexadecimal text (`\x…`) from a driver that leaves the type unparsed.
 */
export const bytesOrNull = (value: unknown): Uint8Array | null => {
  if (value === null || value === undefined) return null
  if (value instanceof Uint8Array) return value
  if (typeof value === "string" && value.startsWith("\\x")) {
    const hex = value.slice(2)
    const bytes = new Uint8Array(hex.length / 2)
    for (let index = 0; index < bytes.length; index++) bytes[index] = Number.parseInt(hex.slice(index * 2, index * 2 + 2), 16)
    return bytes
  }
  throw new Error(`expected bytea, got ${typeof value}`)
}
