import { Effect } from "effect"
import { ApiError, Tax } from "@ledger/api"
import { reference } from "../kernel/Actor.ts"
import { requireCompanyId } from "../kernel/CompanyContext.ts"
import * as Handler from "../kernel/Handler.ts"
import { RequestContext } from "../kernel/RequestContext.ts"
import * as MappingRules from "./MappingRules.ts"
import { returnTypeOf } from "./Profile.ts"
import * as ReturnLines from "./ReturnLines.ts"
import * as TaxStore from "./TaxStore.ts"

type ReturnType = Tax.Shared.ReturnType
type Change = { readonly account: string; readonly from: string | null; readonly to: string | null }

/** Every account of the chart that is active, with its line on `returnType` (null: unmapped). */
export const current = Effect.fn("TaxMapping.current")(function*(company: string, returnType: ReturnType) {
  const accounts = (yield* TaxStore.accounts(company)).filter((account) => account.active)
  const mapped = yield* TaxStore.mappings(company, returnType)
  const rows = accounts.map((account) => {
    const mapping = mapped.get(account.code)
    const line = mapping === undefined ? undefined : ReturnLines.find(returnType, mapping.line)
    return {
      account: account.code,
      name: account.name,
      type: account.type,
      subtype: account.subtype,
      line: mapping?.line ?? null,
      line_description: line === undefined ? null : `${line.form} line ${line.line}: ${line.description}`,
      source: mapping?.source ?? null,
      updated_at: mapping?.updatedAt ?? null
    }
  })
  return { return_type: returnType, accounts: rows, unmapped_count: rows.filter((row) => row.line === null).length }
})

const apply = Effect.fn("TaxMapping.apply")(function*(
  company: string,
  returnType: ReturnType,
  changes: ReadonlyArray<Change>,
  source: "manual" | "default",
  dryRun: boolean
) {
  const request = yield* RequestContext
  if (!dryRun) {
    for (const change of changes) {
      yield* TaxStore.writeMapping(company, returnType, { account: change.account, line: change.to, source }, reference(request.actor), request.now)
    }
  }
  const mapping = yield* current(company, returnType)
  return {
    body: { dry_run: dryRun, return_type: returnType, changes, mapping },
    audit: { targetType: "tax_mapping", targetId: returnType, details: { changes: changes.length, source } }
  }
})

const checkInput = Effect.fn("TaxMapping.checkInput")(function*(
  company: string,
  returnType: ReturnType,
  mappings: ReadonlyArray<{ readonly account: string; readonly line: string | null }>
) {
  const codes = new Set((yield* TaxStore.accounts(company)).map((account) => account.code))
  const unknownAccounts = mappings.flatMap((entry, index) => codes.has(entry.account) ? [] : [{ path: ["body", "mappings", index, "account"], message: `No account ${entry.account}.` }])
  if (unknownAccounts.length > 0) return yield* Effect.fail(ApiError.fail("unknown_account", "Some accounts do not exist.", { issues: unknownAccounts }))
  const unknownLines = mappings.flatMap((entry, index) =>
    entry.line === null || ReturnLines.find(returnType, entry.line) !== undefined ? [] : [{ path: ["body", "mappings", index, "line"], message: `No line ${entry.line} on ${returnType} (GET /v1/tax/lines).` }])
  if (unknownLines.length > 0) return yield* Effect.fail(ApiError.fail("unknown_tax_line", "Some lines are not lines of this return.", { issues: unknownLines }))
})

export const handlers = [
  Handler.make(Tax.Mapping.getTaxMapping, ({ query }) =>
    Effect.gen(function*() {
      const company = yield* requireCompanyId
      return { body: yield* current(company, yield* returnTypeOf(company, query.return_type)) }
    })),

  Handler.make(Tax.Mapping.setTaxMapping, ({ body }) =>
    Effect.gen(function*() {
      const company = yield* requireCompanyId
      const returnType = yield* returnTypeOf(company, body.return_type)
      yield* checkInput(company, returnType, body.mappings)
      const before = yield* TaxStore.mappings(company, returnType)
      // The last mention of an account wins, as a list of assignments read in order would.
      const last = new Map(body.mappings.map((entry) => [entry.account, entry.line] as const))
      const changes = [...last].flatMap(([account, line]): Array<Change> => {
        const from = before.get(account)?.line ?? null
        return from === line ? [] : [{ account, from, to: line }]
      })
      return yield* apply(company, returnType, changes, "manual", body.dry_run === true)
    })),

  Handler.make(Tax.Mapping.applyTaxMappingDefaults, ({ body }) =>
    Effect.gen(function*() {
      const company = yield* requireCompanyId
      const returnType = yield* returnTypeOf(company, body.return_type)
      const mapping = yield* current(company, returnType)
      const changes = mapping.accounts.flatMap((account): Array<Change> =>
        account.line !== null ? [] : [{ account: account.account, from: null, to: MappingRules.defaultLine(returnType, account) }])
      return yield* apply(company, returnType, changes, "default", body.dry_run === true)
    }))
]
