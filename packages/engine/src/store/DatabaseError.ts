import { SqlError } from "effect/sql"

/**
 * What the database said, by its typed reason (Effect's `SqlError`, classified by SQLSTATE in both
 * drivers), never by matching the text of a message.
 */

/** The violated unique constraint's name, or null when `error` is not a unique violation. */
export const uniqueViolation = (error: unknown): string | null => {
  const sqlError = SqlError.isSqlError(error) ? error : SqlError.isSqlError((error as { cause?: unknown })?.cause) ? (error as { cause: SqlError.SqlError }).cause : null
  if (sqlError === null || sqlError.reason._tag !== "UniqueViolation") return null
  return sqlError.reason.constraint
}

/** True when `error` is a unique violation, of `constraint` when one is named. */
export const isUniqueViolation = (error: unknown, constraint?: string): boolean => {
  const violated = uniqueViolation(error)
  return violated !== null && (constraint === undefined || violated === constraint)
}

/**
 * A failure that running the whole transaction again may cure: a serialization failure (40001) or
 * a deadlock (40P01). Nothing of the failed attempt was kept, so a retry is safe.
 */
export const isTransient = (error: unknown): boolean =>
  SqlError.isSqlError(error) && (error.reason._tag === "SerializationError" || error.reason._tag === "DeadlockError")

/** The SQLSTATE of a failed statement, as both drivers keep it on the error's cause. */
export const sqlState = (error: unknown): string | undefined => {
  if (!SqlError.isSqlError(error)) return undefined
  const cause = error.reason.cause
  return typeof cause === "object" && cause !== null && "code" in cause ? String(cause.code) : undefined
}

/**
 * The lines' statement would take an account's all-time debit or credit turnover past
 * Number.MAX_SAFE_INTEGER cents (LD013, migration 0045, ADR 0717): the posting is refused.
 */
export const isTurnoverPastBound = (error: unknown): boolean => sqlState(error) === "LD013"
