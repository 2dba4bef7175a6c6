import {
  ConnectionError,
  ConstraintError,
  DeadlockError,
  LockTimeoutError,
  SerializationError,
  SqlError,
  type SqlErrorReason,
  SqlSyntaxError,
  StatementTimeoutError,
  UniqueViolation,
  UnknownError
} from "effect/sql/SqlError"

/** PGlite's errors as `effect/sql`'s reasons, by SQLSTATE class, as `@effect/sql-pg` classifies them. */
export const classify = (cause: unknown, message: string, operation: string): SqlErrorReason => {
  const props = { cause, message, operation }
  const code = typeof cause === "object" && cause !== null && "code" in cause ? String(cause.code) : undefined
  if (code === undefined) return new UnknownError(props)
  if (code.startsWith("08")) return new ConnectionError(props)
  if (code.startsWith("42")) return new SqlSyntaxError(props)
  if (code === "23505") {
    const constraint = typeof cause === "object" && cause !== null && "constraint" in cause ? String(cause.constraint) : "unknown"
    return new UniqueViolation({ ...props, constraint })
  }
  if (code.startsWith("23")) return new ConstraintError(props)
  if (code === "40P01") return new DeadlockError(props)
  if (code === "40001") return new SerializationError(props)
  if (code === "55P03") return new LockTimeoutError(props)
  if (code === "57014") return new StatementTimeoutError(props)
  return new UnknownError(props)
}

/** A PGlite failure of `operation` as an `SqlError`. */
export const fail = (operation: string) => (cause: unknown) =>
  new SqlError({ reason: classify(cause, `PGlite: ${operation} failed`, operation) })
