import { Effect } from "effect"
import { ApiError } from "@ledger/api"

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

/**
 * The refusal for a summed amount past what a JSON number states exactly in integer cents: each
 * line is bounded, but a SUM over many is not (ADR 0717), and such a figure is the data's, not a
 * programmer error, so it is a typed 422 rather than `int`'s throw.
 */
export const amountOutOfRange = (value: unknown): ApiError.LedgerError =>
  ApiError.fail(
    "amount_out_of_range",
    `A summed amount (${String(value)} cents) is past what the API can state exactly in integer cents (±9,007,199,254,740,991).`,
    { limit_cents: Number.MAX_SAFE_INTEGER }
  )

/**
 * Runs `read` with a reader for summed cents columns (SUM(...) money): the result, or
 * `amount_out_of_range` for the first figure past the safe integer range. One Effect for a whole
 * result set, so a report's thousands of cells cost no more than `int`.
 */
export const withSummedCents = <A>(
  read: (cents: (value: unknown) => number) => A
): Effect.Effect<A, ApiError.LedgerError> =>
  Effect.suspend(() => {
    let unsafe: { readonly value: unknown } | undefined
    const cents = (value: unknown): number => {
      const number = typeof value === "bigint" || typeof value === "string" ? Number(value) : (value as number)
      if (Number.isSafeInteger(number)) return number
      unsafe ??= { value }
      return 0
    }
    const result = read(cents)
    return unsafe === undefined ? Effect.succeed(result) : Effect.fail(amountOutOfRange(unsafe.value))
  })

/** One summed cents column: see `withSummedCents`. */
export const summedCents = (value: unknown): Effect.Effect<number, ApiError.LedgerError> =>
  withSummedCents((cents) => cents(value))

export const iso = (value: unknown): string =>
  value instanceof Date ? isoOfEpochMilliseconds(value.getTime()) : new Date(value as string).toISOString()

/** 9999-12-31T23:59:59.999Z and one: past it `toISOString` writes six-digit years. */
const fourDigitYearsEndMilliseconds = 253_402_300_800_000
const millisecondsPerDay = 86_400_000

/** The date part (`YYYY-MM-DDT`) of the day last formatted: a page's timestamps mostly share days. */
let lastDay = Number.NaN
let lastDayPrefix = ""

const twoDigits = (value: number): string => (value < 10 ? `0${value}` : `${value}`)
const threeDigits = (value: number): string => (value < 10 ? `00${value}` : value < 100 ? `0${value}` : `${value}`)

/**
 * An instant as `Date.prototype.toISOString` writes it (`2026-11-25T10:06:51.123Z`), computed from
 * its epoch milliseconds. Every timestamp a read shows goes through here, and `toISOString` took
 * 4 % of the engine's time answering lists of 100 accounts: this takes a tenth of its time for a
 * day already seen and less than half for a new one (docs/performance.md). Instants before 1970
 * or after year 9999 are left to `toISOString`.
 */
export const isoOfEpochMilliseconds = (milliseconds: number): string => {
  if (!(milliseconds >= 0 && milliseconds < fourDigitYearsEndMilliseconds)) return new Date(milliseconds).toISOString()
  const days = Math.floor(milliseconds / millisecondsPerDay)
  if (days !== lastDay) {
    lastDayPrefix = `${civilDate(days)}T`
    lastDay = days
  }
  let rest = milliseconds - days * millisecondsPerDay
  const hours = Math.floor(rest / 3_600_000)
  rest -= hours * 3_600_000
  const minutes = Math.floor(rest / 60_000)
  rest -= minutes * 60_000
  const seconds = Math.floor(rest / 1_000)
  return `${lastDayPrefix}${twoDigits(hours)}:${twoDigits(minutes)}:${twoDigits(seconds)}.${threeDigits(rest - seconds * 1_000)}Z`
}

/**
 * The proleptic Gregorian date `days` after 1970-01-01 as YYYY-MM-DD (Howard Hinnant's
 * `civil_from_days`: eras of 400 years of 146,097 days, years starting on March 1 so that the
 * leap day is the last day of a year).
 */
const civilDate = (days: number): string => {
  const shifted = days + 719_468
  const era = Math.floor(shifted / 146_097)
  const dayOfEra = shifted - era * 146_097
  const yearOfEra = Math.floor(
    (dayOfEra - Math.floor(dayOfEra / 1_460) + Math.floor(dayOfEra / 36_524) - Math.floor(dayOfEra / 146_096)) / 365
  )
  const dayOfYear = dayOfEra - (365 * yearOfEra + Math.floor(yearOfEra / 4) - Math.floor(yearOfEra / 100))
  const monthFromMarch = Math.floor((5 * dayOfYear + 2) / 153)
  const day = dayOfYear - Math.floor((153 * monthFromMarch + 2) / 5) + 1
  const month = monthFromMarch < 10 ? monthFromMarch + 3 : monthFromMarch - 9
  const year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0)
  return `${year}-${twoDigits(month)}-${twoDigits(day)}`
}

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
