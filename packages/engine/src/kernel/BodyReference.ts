import { Effect } from "effect"
import { ApiError } from "@ledger/api"

/**
 * An id inside a request's body that names nothing in the caller's company is a body that cannot be
 * carried out (422 `validation_failed`, pointing at the field), not a missing resource (404 is for
 * the path's own id): a client that sent `bank_account_id: 999` finds its mistake in the issues
 * (issue 19 item 13).
 */
export const inBody = (path: ReadonlyArray<string | number>, what: string) =>
<A, R>(effect: Effect.Effect<A, ApiError.LedgerError, R>): Effect.Effect<A, ApiError.LedgerError, R> =>
  Effect.catchIf(
    effect,
    (error) => error.type === "not_found",
    () => Effect.fail(ApiError.validationFailed(`No such ${what} in this company.`, [{ path: [...path], message: `Unknown ${what}` }]))
  )
