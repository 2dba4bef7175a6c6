import { Effect } from "effect"
import { requireCompanyId } from "../../kernel/CompanyContext.ts"
import { SqlClient } from "effect/sql"
import { ApiError, Sales } from "@ledger/api"
import * as Handler from "../../kernel/Handler.ts"
import * as Pagination from "../../kernel/Pagination.ts"
import { RequestContext } from "../../kernel/RequestContext.ts"
import * as Row from "../../kernel/Row.ts"
import * as AccountStore from "../common/AccountStore.ts"
import { loadContact, rowsToInsert } from "../common/Common.ts"
import { combinedRate } from "./SalesTaxRules.ts"
import * as SalesTaxStore from "./SalesTaxStore.ts"

const agency = (row: Record<string, unknown>) => ({
  id: Row.int(row.id),
  name: String(row.name),
  contact_id: Row.intOrNull(row.contact_id),
  active: row.active === true,
  created_at: Row.iso(row.created_at)
})

const loadRate = Effect.fn("SalesTax.loadRate")(function*(company: string, id: number) {
  const rate = (yield* SalesTaxStore.load(company, [id])).get(id)
  if (rate === undefined) return yield* Effect.fail(ApiError.notFound("tax rate"))
  return rate
})

export const handlers = [
  Handler.make(Sales.SalesTax.createTaxAgency, ({ body }) =>
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      const request = yield* RequestContext
      const company = yield* requireCompanyId
      if (body.contact_id !== undefined) yield* loadContact(company, body.contact_id, "vendor")
      const rows = yield* sql<Record<string, unknown>>`INSERT INTO tax_agencies ${sql.insert({
        company_id: company,
        name: body.name,
        contact_id: body.contact_id ?? null,
        created_at: request.now
      })} RETURNING *`.pipe(Effect.orDie)
      const created = agency(rows[0]!)
      return { body: created, audit: { targetType: "tax_agency", targetId: created.id } }
    })),

  Handler.make(Sales.SalesTax.listTaxAgencies, ({ query }) =>
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      const company = yield* requireCompanyId
      const select = (after: number | null, limitPlusOne: number) =>
        sql<Record<string, unknown>>`SELECT * FROM tax_agencies WHERE company_id = ${company}
        ${query.include_inactive === true ? sql`` : sql`AND active`}
        ${after === null ? sql`` : sql`AND id < ${after}`} ORDER BY id DESC LIMIT ${limitPlusOne}`.pipe(Effect.orDie)
      return { body: yield* Pagination.listPage(query, select, (row) => Row.int(row.id), agency) }
    })),

  Handler.make(Sales.SalesTax.createTaxRate, ({ body }) =>
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      const request = yield* RequestContext
      const company = yield* requireCompanyId
      const agencies = yield* sql<{ active: boolean }>`SELECT active FROM tax_agencies WHERE company_id = ${company} AND id = ${body.agency_id}`
        .pipe(Effect.orDie)
      if (agencies[0]?.active !== true) {
        return yield* Effect.fail(ApiError.validationFailed("No such active tax agency.", [{ path: ["body", "agency_id"], message: "Unknown or inactive agency" }]))
      }
      const accounts = yield* AccountStore.requireUsable(company, [{ code: body.payable_account, path: ["body", "payable_account"] }])
      if (accounts.get(body.payable_account)?.type !== "liability") {
        return yield* Effect.fail(ApiError.validationFailed("Sales tax is payable: the account must be a liability.", [{
          path: ["body", "payable_account"],
          message: "Not a liability account"
        }]))
      }
      const rows = yield* sql<{ id: unknown }>`INSERT INTO tax_rates ${sql.insert({
        company_id: company,
        name: body.name,
        combined: false,
        agency_id: body.agency_id,
        rate_percent: body.rate_percent,
        payable_account: body.payable_account,
        created_at: request.now
      })} RETURNING id`.pipe(Effect.orDie)
      const rate = yield* loadRate(company, Row.int(rows[0]!.id))
      return { body: rate, audit: { targetType: "tax_rate", targetId: rate.id, details: { rate_percent: rate.rate_percent } } }
    })),

  Handler.make(Sales.SalesTax.createCombinedTaxRate, ({ body }) =>
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      const request = yield* RequestContext
      const company = yield* requireCompanyId
      if (new Set(body.component_ids).size !== body.component_ids.length) {
        return yield* Effect.fail(ApiError.validationFailed("A component appears twice.", [{ path: ["body", "component_ids"], message: "Duplicate component" }]))
      }
      const components = yield* SalesTaxStore.load(company, body.component_ids)
      const issues = body.component_ids.flatMap((id, index) => {
        const component = components.get(id)
        if (component === undefined) return [{ path: ["body", "component_ids", index], message: "Unknown tax rate" }]
        if (component.combined) return [{ path: ["body", "component_ids", index], message: "Components are single-agency rates" }]
        if (!component.active) return [{ path: ["body", "component_ids", index], message: "Inactive tax rate" }]
        return []
      })
      if (issues.length > 0) return yield* Effect.fail(ApiError.validationFailed("Every component must be an active single-agency rate.", issues))
      const rows = yield* sql<{ id: unknown }>`INSERT INTO tax_rates ${sql.insert({
        company_id: company,
        name: body.name,
        combined: true,
        agency_id: null,
        rate_percent: combinedRate(body.component_ids.map((id) => components.get(id)!.rate_percent)),
        payable_account: null,
        created_at: request.now
      })} RETURNING id`.pipe(Effect.orDie)
      const id = Row.int(rows[0]!.id)
      yield* sql`INSERT INTO tax_rate_components ${sql.insert(rowsToInsert(body.component_ids.map((componentId, index) => ({
        company_id: company,
        combined_rate_id: id,
        position: index + 1,
        component_id: componentId
      }))))}`.pipe(Effect.orDie)
      const rate = yield* loadRate(company, id)
      return { body: rate, audit: { targetType: "tax_rate", targetId: id, details: { component_ids: body.component_ids } } }
    })),

  Handler.make(Sales.SalesTax.listTaxRates, ({ query }) =>
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      const company = yield* requireCompanyId
      const select = (after: number | null, limitPlusOne: number) =>
        sql<{ id: unknown }>`SELECT id FROM tax_rates WHERE company_id = ${company}
        ${query.include_inactive === true ? sql`` : sql`AND active`}
        ${after === null ? sql`` : sql`AND id < ${after}`} ORDER BY id DESC LIMIT ${limitPlusOne}`.pipe(Effect.orDie)
      const load = (shown: ReadonlyArray<{ id: unknown }>) =>
        Effect.map(SalesTaxStore.load(company, shown.map((row) => Row.int(row.id))), (rates) => shown.map((row) => rates.get(Row.int(row.id))!))
      return { body: yield* Pagination.listPageLoaded(query, select, (row) => Row.int(row.id), load) }
    })),

  Handler.make(Sales.SalesTax.setTaxRateStatus, ({ path, body }) =>
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      const request = yield* RequestContext
      const company = yield* requireCompanyId
      const rate = yield* loadRate(company, path.id)
      if (body.active && rate.combined && rate.components.some((component) => !component.active)) {
        return yield* Effect.fail(ApiError.validationFailed("A combined rate is active only while all its components are.", [{
          path: ["path", "id"],
          message: "Inactive component"
        }]))
      }
      const deactivatedAt = body.active ? null : request.now
      const deactivatedReason = body.active ? null : body.reason
      yield* sql`UPDATE tax_rates SET active = ${body.active}, deactivated_at = ${deactivatedAt}, deactivated_reason = ${deactivatedReason}
        WHERE company_id = ${company} AND id = ${path.id}`.pipe(Effect.orDie)
      let cascaded: ReadonlyArray<number> = []
      if (!body.active && !rate.combined) {
        // A combined rate cannot charge a jurisdiction that no longer taxes: it goes too.
        const rows = yield* sql<{ id: unknown }>`UPDATE tax_rates SET active = false, deactivated_at = ${request.now},
            deactivated_reason = ${`component ${path.id} deactivated: ${body.reason}`}
          WHERE company_id = ${company} AND active AND id IN (
            SELECT combined_rate_id FROM tax_rate_components WHERE company_id = ${company} AND component_id = ${path.id})
          RETURNING id`.pipe(Effect.orDie)
        cascaded = rows.map((row) => Row.int(row.id))
      }
      return {
        body: yield* loadRate(company, path.id),
        audit: { targetType: "tax_rate", targetId: path.id, reason: body.reason, details: { active: body.active, combined_deactivated: cascaded } }
      }
    }))
]
