import { Effect } from "effect"
import { SqlClient } from "effect/sql"
import { ApiError, Crypto } from "@ledger/api"
import * as Actor from "../kernel/Actor.ts"
import { requireCompanyId } from "../kernel/CompanyContext.ts"
import * as Handler from "../kernel/Handler.ts"
import * as Pagination from "../kernel/Pagination.ts"
import { RequestContext } from "../kernel/RequestContext.ts"
import * as Row from "../kernel/Row.ts"
import * as Access from "./Access.ts"
import * as Rows from "./core/Rows.ts"
import { momentOf } from "./core/UnitRules.ts"

/**
 * Valuations (spec 3.11): a price of an asset at a moment. A person's is confirmed at once; an
 * agent's is proposed, and the owner or CPA confirms or rejects it. The price port's answers are
 * kept here too (`manual: false`), so every price the books used can be listed.
 */

const create = Handler.make(Crypto.Valuations.createCryptoValuation, ({ body }) =>
  Effect.gen(function*() {
    const { company } = yield* Access.requireEnabled
    const sql = yield* SqlClient.SqlClient
    const request = yield* RequestContext
    const at = momentOf(body.at)
    if (at === null) return yield* Effect.fail(ApiError.validationFailed("Not a valid moment.", [{ path: ["body", "at"], message: "Not a valid moment." }]))
    if (at > request.now) return yield* Effect.fail(ApiError.validationFailed("A valuation is of a moment that has come.", [{ path: ["body", "at"], message: "In the future." }]))
    const person = request.actor.isPerson
    const rows = yield* sql<Record<string, unknown>>`INSERT INTO crypto_valuations ${sql.insert({
      company_id: company, asset: body.asset, at, price: body.price, reason: body.reason, status: person ? "confirmed" : "proposed", manual: true,
      proposed_by: Actor.reference(request.actor), decided_by: person ? Actor.reference(request.actor) : null, decided_at: person ? request.now : null,
      created_at: request.now
    })} RETURNING *`.pipe(Effect.orDie)
    const valuation = Rows.valuation(rows[0]!)
    return { body: valuation, audit: { targetType: "crypto_valuation", targetId: valuation.id, reason: body.reason, details: { status: valuation.status } } }
  }))

const decide = Handler.make(Crypto.Valuations.decideCryptoValuation, ({ path, body }) =>
  Effect.gen(function*() {
    yield* Access.requireOwnerOrCpa
    const sql = yield* SqlClient.SqlClient
    const request = yield* RequestContext
    const company = yield* requireCompanyId
    const rows = yield* sql<Record<string, unknown>>`SELECT * FROM crypto_valuations WHERE company_id = ${company} AND id = ${path.id} FOR UPDATE`
      .pipe(Effect.orDie)
    const row = rows[0]
    if (row === undefined) return yield* Effect.fail(ApiError.notFound("valuation"))
    if (row.status !== "proposed") return yield* Effect.fail(ApiError.fail("crypto_valuation_state", `The valuation is already ${String(row.status)}.`))
    if (row.proposed_by === Actor.reference(request.actor)) return yield* Effect.fail(ApiError.fail("self_approval_refused", "A valuation is decided by someone other than who proposed it."))
    const decided = yield* sql<Record<string, unknown>>`UPDATE crypto_valuations SET status = ${body.confirm ? "confirmed" : "rejected"},
      decided_by = ${Actor.reference(request.actor)}, decided_at = ${request.now} WHERE company_id = ${company} AND id = ${path.id} RETURNING *`.pipe(Effect.orDie)
    return { body: Rows.valuation(decided[0]!), audit: { targetType: "crypto_valuation", targetId: path.id, details: { confirm: body.confirm } } }
  }))

export const handlers = [
  create,
  decide,
  Handler.make(Crypto.Valuations.listCryptoValuations, ({ query }) =>
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      const company = yield* requireCompanyId
      const select = (after: number | null, limitPlusOne: number) =>
        sql<Record<string, unknown>>`SELECT * FROM crypto_valuations WHERE company_id = ${company}
        ${query.asset === undefined ? sql`` : sql`AND asset = ${query.asset}`}
        ${query.status === undefined ? sql`` : sql`AND status = ${query.status}`}
        ${query.manual === undefined ? sql`` : sql`AND manual = ${query.manual}`}
        ${after === null ? sql`` : sql`AND id < ${after}`} ORDER BY id DESC LIMIT ${limitPlusOne}`.pipe(Effect.orDie)
      return { body: yield* Pagination.listPage(query, select, (row) => Row.int(row.id), Rows.valuation) }
    }))
]
