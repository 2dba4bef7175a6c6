import { Effect } from "effect"
import { SqlClient } from "effect/sql"
import { ApiError, Ledger, Limits } from "@ledger/api"
import * as Handler from "../../kernel/Handler.ts"
import { RequestContext } from "../../kernel/RequestContext.ts"
import * as Row from "../../kernel/Row.ts"
import * as AccountProtections from "./AccountProtections.ts"
import * as BalanceStore from "./BalanceStore.ts"
import * as AccountStore from "./AccountStore.ts"
import { requireCompanyId } from "../../kernel/CompanyContext.ts"
import * as Cursor from "../../kernel/Cursor.ts"
import { accountCount, lockChart } from "./Charts.ts"
import * as ReadReplica from "../../store/ReadReplica.ts"

/**
 * The chart of accounts: accounts and the default income and expense accounts. A starter chart
 * is applied in Charts.ts; classes are Classes.ts.
 */

const operations = Ledger.Accounts

const refuse = (message: string, field: string, issue: string) =>
  Effect.fail(ApiError.validationFailed(message, [{ path: ["body", field], message: issue }]))

/** How deep an account sits below its top-level ancestor (a top-level account is 0). */
const depthOf = Effect.fn("Accounts.depthOf")(function*(companyId: string, code: string) {
  const sql = yield* SqlClient.SqlClient
  const rows = yield* sql<{ depth: unknown }>`WITH RECURSIVE chain AS (
      SELECT code, parent_code, 0 AS depth FROM accounts WHERE company_id = ${companyId} AND code = ${code}
      UNION ALL
      SELECT a.code, a.parent_code, chain.depth + 1 FROM accounts a
        JOIN chain ON a.company_id = ${companyId} AND a.code = chain.parent_code
      WHERE chain.depth < 20
    ) SELECT max(depth) AS depth FROM chain`.pipe(Effect.orDie)
  return Row.int(rows[0]?.depth ?? 0)
})

const checkDefault = Effect.fn("Accounts.checkDefault")(function*(
  companyId: string,
  field: "income" | "expense",
  code: string | null | undefined
) {
  if (code === undefined || code === null) return
  const row = yield* AccountStore.accountRow(companyId, code)
  if (row === undefined) return yield* Effect.fail(ApiError.fail("unknown_account", `No account ${code}.`, {
    issues: [{ path: ["body", field], message: `No account ${code}` }]
  }))
  if (row.type !== field) return yield* refuse(`The default ${field} account must be an ${field} account.`, field, `Account ${code} is ${String(row.type)}`)
  if (row.active !== true) return yield* Effect.fail(ApiError.fail("inactive_account", `Account ${code} is inactive.`, {
    issues: [{ path: ["body", field], message: `Account ${code} is inactive` }]
  }))
})

/**
 * The list with balances is a report of the books: read from the replica when one is fresh enough
 * (store/ReadReplica.ts); the plain list stays on the primary with the writes that change it.
 */
const balancesOnReplica = <A, E, R>(withBalances: boolean, read: Effect.Effect<A, E, R>) =>
  withBalances ? Effect.flatMap(requireCompanyId, (companyId) => ReadReplica.onReplica(companyId, read)) : read

export const handlers = [
  Handler.make(operations.createAccount, ({ body }) =>
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      const request = yield* RequestContext
      const companyId = yield* requireCompanyId
      const control = body.control ?? null
      if (control === "ar" && body.type !== "asset") return yield* refuse("An AR control account is an asset.", "control", "ar needs type asset")
      if (control === "ap" && body.type !== "liability") {
        return yield* refuse("An AP control account is a liability.", "control", "ap needs type liability")
      }
      yield* lockChart(companyId)
      if ((yield* accountCount(companyId)) >= Limits.accountsPerCompanyMax) {
        return yield* Effect.fail(ApiError.validationFailed(`A chart has at most ${Limits.accountsPerCompanyMax} accounts.`))
      }
      const parentCode = body.parent_code ?? null
      if (parentCode !== null) {
        const parent = yield* AccountStore.accountRow(companyId, parentCode)
        if (parent === undefined) return yield* refuse(`No parent account ${parentCode}.`, "parent_code", "Unknown account")
        if (parent.type !== body.type) {
          return yield* refuse("A sub-account has its parent's type.", "parent_code", `Parent ${parentCode} is ${String(parent.type)}`)
        }
        if (parent.active !== true) return yield* refuse("The parent account is inactive.", "parent_code", "Inactive parent")
        if ((yield* depthOf(companyId, parentCode)) + 1 > Limits.accountDepthMax) {
          return yield* refuse(`Sub-accounts nest at most ${Limits.accountDepthMax} levels.`, "parent_code", "Too deep")
        }
      }
      const rows = yield* sql<Record<string, unknown>>`INSERT INTO accounts ${sql.insert({
        company_id: companyId,
        code: body.code,
        name: body.name,
        type: body.type,
        subtype: body.subtype ?? null,
        parent_code: parentCode,
        control,
        created_at: request.now
      })} ON CONFLICT (company_id, code) DO NOTHING RETURNING *`.pipe(Effect.orDie)
      if (rows[0] === undefined) {
        return yield* Effect.fail(ApiError.fail("conflict", `Account ${body.code} already exists.`, { code: body.code }))
      }
      const account = AccountStore.account(rows[0], yield* AccountStore.defaults(companyId))
      return { body: account, audit: { targetType: "account", targetId: account.code, details: { type: account.type } } }
    })),

  Handler.make(operations.listAccounts, ({ query }) =>
    balancesOnReplica(query.include_balances === true, Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      const request = yield* RequestContext
      const companyId = yield* requireCompanyId
      const limit = Math.min(query.limit ?? Limits.pageSizeDefault, Limits.pageSizeMax)
      const after = yield* Cursor.decode(query.cursor)
      const asOf = query.as_of ?? request.today
      const withBalances = query.include_balances === true
      // One statement (ADR 0711): the page, cut first in the order the accounts index keeps accounts
      // in; the company's defaults; and, when asked, the page's totals as one object by account id
      // that each row looks up. Three statements in turn cost a read three round trips; a join of
      // the page with its totals would be planned from estimates that can make it a nested loop
      // costing a page squared.
      const rows = yield* sql<Record<string, unknown>>`WITH page AS (
          SELECT id, code, name, type, subtype, parent_code, control, active, created_at FROM accounts
          WHERE company_id = ${companyId}
          ${query.include_inactive === true ? sql`` : sql`AND active`}
          ${after === null ? sql`` : sql`AND code COLLATE "C" > ${after}`}
          ORDER BY code COLLATE "C" LIMIT ${limit + 1}
        )${withBalances
          ? sql`, totals AS MATERIALIZED (
            SELECT jsonb_object_agg(account_id, jsonb_build_array(debit_cents, credit_cents)) AS by_account
            FROM (${BalanceStore.totalsAsOfQuery(sql, companyId, asOf, sql`AND account_id = ANY (ARRAY(SELECT id FROM page))`)}) AS sums
          )`
          : sql``}
        SELECT page.*, d.income_code, d.expense_code
          ${withBalances
            ? sql`, (totals.by_account -> page.id::text ->> 0)::bigint AS debit_cents,
              (totals.by_account -> page.id::text ->> 1)::bigint AS credit_cents`
            : sql``}
        FROM page
        LEFT JOIN account_defaults d ON d.company_id = ${companyId}
        ${withBalances ? sql`CROSS JOIN totals` : sql``}
        ORDER BY page.code COLLATE "C"`.pipe(Effect.orDie)
      const shown = rows.slice(0, limit)
      // A page with no account has no row to bring the defaults along.
      const defaults = shown[0] === undefined ? yield* AccountStore.defaults(companyId) : AccountStore.defaultsOf(shown[0])
      const data = yield* Row.withSummedCents((cents) => shown.map((row) =>
        withBalances
          ? AccountStore.account(row, defaults, BalanceStore.natural(row.type as Ledger.Records.AccountType, BalanceStore.totalsOf(row, cents)))
          : AccountStore.account(row, defaults)
      ))
      const hasMore = rows.length > limit
      return {
        body: {
          data,
          has_more: hasMore,
          next_cursor: hasMore ? Cursor.encode(data[data.length - 1]!.code) : null,
          defaults,
          ...(withBalances ? { as_of: asOf } : {})
        }
      }
    }))),

  Handler.make(operations.updateAccount, ({ body, path }) =>
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      const request = yield* RequestContext
      const companyId = yield* requireCompanyId
      const row = yield* AccountStore.accountRow(companyId, path.code, body.dry_run !== true)
      if (row === undefined) return yield* Effect.fail(ApiError.notFound("account"))
      const wasActive = row.active === true
      const active = body.active ?? wasActive
      if (wasActive && !active) {
        const found = yield* AccountProtections.protections(AccountProtections.fromRow(companyId, row))
        if (found.length > 0) {
          return yield* Effect.fail(ApiError.fail(
            "account_protected",
            `Account ${path.code} cannot be deactivated: ${found.map((protection) => protection.message).join(" ")}`,
            { code: path.code, protections: found }
          ))
        }
      }
      if (!wasActive && active && row.parent_code !== null) {
        const parent = yield* AccountStore.accountRow(companyId, String(row.parent_code))
        if (parent?.active !== true) return yield* refuse("Reactivate the parent account first.", "active", `Parent ${String(row.parent_code)} is inactive`)
      }
      const defaults = yield* AccountStore.defaults(companyId)
      const after = { ...row, name: body.name ?? row.name, active }
      if (body.dry_run === true) return { status: 200, body: { dry_run: true, account: AccountStore.account(after, defaults) } }
      const updated = yield* sql<Record<string, unknown>>`UPDATE accounts SET name = ${String(after.name)}, active = ${active},
          deactivated_at = ${active ? null : wasActive ? request.now : row.deactivated_at ?? null}
        WHERE company_id = ${companyId} AND code = ${path.code} RETURNING *`.pipe(Effect.orDie)
      const account = AccountStore.account(updated[0]!, defaults)
      return {
        body: account,
        audit: {
          targetType: "account",
          targetId: account.code,
          reason: body.reason ?? null,
          details: {
            ...(body.name === undefined ? {} : { name_before: String(row.name), name_after: account.name }),
            ...(active === wasActive ? {} : { active_before: wasActive, active_after: active })
          }
        }
      }
    })),

  Handler.make(operations.setDefaultAccounts, ({ body }) =>
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      const companyId = yield* requireCompanyId
      yield* checkDefault(companyId, "income", body.income)
      yield* checkDefault(companyId, "expense", body.expense)
      const before = yield* AccountStore.defaults(companyId)
      const income = body.income === undefined ? before.income : body.income
      const expense = body.expense === undefined ? before.expense : body.expense
      yield* sql`INSERT INTO account_defaults ${sql.insert({ company_id: companyId, income_code: income, expense_code: expense })}
        ON CONFLICT (company_id) DO UPDATE SET income_code = excluded.income_code, expense_code = excluded.expense_code`
        .pipe(Effect.orDie)
      return {
        body: { income, expense },
        audit: { targetType: "account_defaults", targetId: companyId, details: { before, after: { income, expense } } }
      }
    }))
] as const
