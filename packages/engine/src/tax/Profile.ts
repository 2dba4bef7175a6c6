import { Effect } from "effect"
import { ApiError, Tax } from "@ledger/api"
import { reference } from "../kernel/Actor.ts"
import { requireCompanyId } from "../kernel/CompanyContext.ts"
import * as Handler from "../kernel/Handler.ts"
import * as Pagination from "../kernel/Pagination.ts"
import { RequestContext } from "../kernel/RequestContext.ts"
import * as ReturnLines from "./ReturnLines.ts"
import * as TaxStore from "./TaxStore.ts"

/** The return type a request means: the one it names, else the company's; refused when neither is set. */
export const returnTypeOf = Effect.fn("Tax.returnTypeOf")(function*(company: string, named: Tax.Shared.ReturnType | undefined) {
  if (named !== undefined) return named
  const profile = yield* TaxStore.profile(company)
  if (profile.return_type === null) {
    return yield* Effect.fail(ApiError.fail(
      "tax_return_type_required",
      "Name a return_type, or set the company's with POST /v1/tax/profile.",
      { issues: [{ path: ["return_type"], message: "Required while the company has no return type." }] }
    ))
  }
  return profile.return_type
})

export const handlers = [
  Handler.make(Tax.Lines.getTaxLines, ({ query }) =>
    Effect.gen(function*() {
      const company = yield* requireCompanyId
      const own = query.return_type ?? (yield* TaxStore.profile(company)).return_type
      const types = own === null ? ReturnLines.returnTypes : [own]
      const lines = types.flatMap((type) => ReturnLines.byReturnType[type])
      // Lines are data: the cursor is the position of the last line shown.
      const limit = Pagination.limitOf(query)
      const start = (yield* Pagination.afterId(query)) ?? 0
      const rows = lines.slice(start, start + limit + 1).map((line, index) => ({ line, position: start + index + 1 }))
      return { body: Pagination.page(rows, limit, (row) => row.position, (row) => row.line) }
    })),

  Handler.make(Tax.Lines.getTaxProfile, () =>
    Effect.gen(function*() {
      const company = yield* requireCompanyId
      return { body: yield* TaxStore.profile(company) }
    })),

  Handler.make(Tax.Lines.setTaxProfile, ({ body }) =>
    Effect.gen(function*() {
      const company = yield* requireCompanyId
      const request = yield* RequestContext
      const before = yield* TaxStore.profile(company)
      yield* TaxStore.setProfile(company, body.return_type, reference(request.actor), request.now)
      return {
        body: yield* TaxStore.profile(company),
        audit: { targetType: "tax_profile", targetId: company, details: { from: before.return_type, to: body.return_type } }
      }
    }))
]
