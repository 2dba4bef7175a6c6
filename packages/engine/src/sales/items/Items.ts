import { Effect } from "effect"
import { requireCompanyId } from "../../kernel/CompanyContext.ts"
import { SqlClient } from "effect/sql"
import { ApiError, Sales } from "@ledger/api"
import * as Handler from "../../kernel/Handler.ts"
import * as Pagination from "../../kernel/Pagination.ts"
import type { ProtectionCheck } from "../../kernel/Registry.ts"
import { RequestContext } from "../../kernel/RequestContext.ts"
import * as Row from "../../kernel/Row.ts"
import * as AccountStore from "../common/AccountStore.ts"

export const item = (row: Record<string, unknown>): Sales.Items.Item => ({
  id: Row.int(row.id),
  name: String(row.name),
  kind: row.kind as "service" | "non_inventory",
  description: (row.description as string | null) ?? null,
  sales_price_cents: Row.intOrNull(row.sales_price_cents),
  purchase_cost_cents: Row.intOrNull(row.purchase_cost_cents),
  income_account: (row.income_account as string | null) ?? null,
  expense_account: (row.expense_account as string | null) ?? null,
  taxable: row.taxable === true,
  active: row.active === true,
  created_at: Row.iso(row.created_at)
})

const checkAccounts = (company: string, income: string | null | undefined, expense: string | null | undefined) =>
  AccountStore.requireUsable(company, [
    ...(typeof income === "string" ? [{ code: income, path: ["body", "income_account"] }] : []),
    ...(typeof expense === "string" ? [{ code: expense, path: ["body", "expense_account"] }] : [])
  ])

const loadRow = Effect.fn("Items.loadRow")(function*(company: string, id: number) {
  const sql = yield* SqlClient.SqlClient
  const rows = yield* sql<Record<string, unknown>>`SELECT * FROM items WHERE company_id = ${company} AND id = ${id}`.pipe(Effect.orDie)
  if (rows[0] === undefined) return yield* Effect.fail(ApiError.notFound("item"))
  return rows[0]
})

export const handlers = [
  Handler.make(Sales.Items.createItem, ({ body }) =>
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      const request = yield* RequestContext
      const company = yield* requireCompanyId
      yield* checkAccounts(company, body.income_account, body.expense_account)
      const rows = yield* sql<Record<string, unknown>>`INSERT INTO items ${sql.insert({
        company_id: company,
        name: body.name,
        kind: body.kind,
        description: body.description ?? null,
        sales_price_cents: body.sales_price_cents ?? null,
        purchase_cost_cents: body.purchase_cost_cents ?? null,
        income_account: body.income_account ?? null,
        expense_account: body.expense_account ?? null,
        taxable: body.taxable ?? false,
        created_at: request.now,
        updated_at: request.now
      })} RETURNING *`.pipe(Effect.orDie)
      const created = item(rows[0]!)
      return { body: created, audit: { targetType: "item", targetId: created.id } }
    })),

  Handler.make(Sales.Items.listItems, ({ query }) =>
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      const company = yield* requireCompanyId
      const select = (after: number | null, limitPlusOne: number) =>
        sql<Record<string, unknown>>`SELECT * FROM items WHERE company_id = ${company}
        ${query.include_inactive === true ? sql`` : sql`AND active`}
        ${after === null ? sql`` : sql`AND id < ${after}`}
        ORDER BY id DESC LIMIT ${limitPlusOne}`.pipe(Effect.orDie)
      return { body: yield* Pagination.listPage(query, select, (row) => Row.int(row.id), item) }
    })),

  Handler.make(Sales.Items.getItem, ({ path }) =>
    Effect.gen(function*() {
      const company = yield* requireCompanyId
      return { body: item(yield* loadRow(company, path.id)) }
    })),

  Handler.make(Sales.Items.updateItem, ({ path, body }) =>
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      const request = yield* RequestContext
      const company = yield* requireCompanyId
      yield* loadRow(company, path.id)
      yield* checkAccounts(company, body.income_account, body.expense_account)
      const { reason: _reason, ...fields } = body
      const rows = yield* sql<Record<string, unknown>>`UPDATE items SET ${sql.update({ ...fields, updated_at: request.now })}
        WHERE company_id = ${company} AND id = ${path.id} RETURNING *`.pipe(Effect.orDie)
      return {
        body: item(rows[0]!),
        audit: { targetType: "item", targetId: path.id, reason: body.reason ?? null, details: { changed: Object.keys(fields) } }
      }
    }))
]

/** The income or expense account of an active item may not be deactivated (spec 7, `account_protected`). */
export const activeItemAccount: ProtectionCheck = {
  name: "active_item",
  check: (account) =>
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      const rows = yield* sql<{ name: string }>`SELECT name FROM items WHERE company_id = ${account.companyId} AND active
        AND (income_account = ${account.code} OR expense_account = ${account.code}) ORDER BY id LIMIT 5`.pipe(Effect.orDie)
      return rows.length === 0 ? null : `It is an account of active items (${rows.map((row) => row.name).join(", ")}).`
    })
}
