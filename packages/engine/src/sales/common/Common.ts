import { Effect } from "effect"
import { SqlClient } from "effect/sql"
import { ApiError } from "@ledger/api"
import { reference } from "../../kernel/Actor.ts"
import { RequestContext } from "../../kernel/RequestContext.ts"
import * as Row from "../../kernel/Row.ts"

/** The company the request acts in; every sales operation is a company operation. */

/** Who did it, as the audit log names principals: `user:12`, `agent:40`. */
export const actorReference = Effect.gen(function*() {
  const request = yield* RequestContext
  return reference(request.actor)
})

export const asOfOrToday = (asOf: string | undefined) =>
  Effect.gen(function*() {
    const request = yield* RequestContext
    return asOf ?? request.today
  })

export interface ContactRow {
  readonly id: number
  readonly kind: "customer" | "vendor"
  readonly name: string
  readonly email: string | null
  readonly terms_days: number | null
  readonly active: boolean
}

/** A contact of this company, of the kind the operation needs (customers for sales, vendors for purchases). */
export const loadContact = Effect.fn("Common.loadContact")(function*(
  company: string,
  id: number,
  kind: "customer" | "vendor" | null,
  path: ReadonlyArray<string | number> = ["body", "contact_id"]
) {
  const sql = yield* SqlClient.SqlClient
  const rows = yield* sql<Record<string, unknown>>`SELECT * FROM contacts WHERE company_id = ${company} AND id = ${id}`
    .pipe(Effect.orDie)
  const row = rows[0]
  if (row === undefined) return yield* Effect.fail(ApiError.validationFailed("No such contact.", [{ path, message: "Unknown contact" }]))
  if (kind !== null && row.kind !== kind) {
    return yield* Effect.fail(ApiError.validationFailed(`This needs a ${kind}.`, [{ path, message: `Contact ${id} is a ${String(row.kind)}` }]))
  }
  if (row.active !== true) {
    return yield* Effect.fail(ApiError.validationFailed("The contact is inactive.", [{ path, message: "Inactive contact" }]))
  }
  return {
    id: Row.int(row.id),
    kind: row.kind as "customer" | "vendor",
    name: String(row.name),
    email: (row.email as string | null) ?? null,
    terms_days: Row.intOrNull(row.terms_days),
    active: row.active === true
  } satisfies ContactRow
})

/** Rows for a multi-row insert; callers insert only when there is at least one. */
export const rowsToInsert = <A extends Record<string, unknown>>(rows: ReadonlyArray<A>) =>
  rows as unknown as readonly [A, ...Array<A>]
