import { Effect } from "effect"
import { SqlClient } from "effect/sql"
import { ApiError, Banking, Limits } from "@ledger/api"
import * as Handler from "../../kernel/Handler.ts"
import { requireCompanyId } from "../../kernel/CompanyContext.ts"
import { RequestContext } from "../../kernel/RequestContext.ts"
import * as BodyReference from "../../kernel/BodyReference.ts"
import * as Pagination from "../../kernel/Pagination.ts"
import * as Row from "../../kernel/Row.ts"
import { AccountStore } from "../../ledger/index.ts"
import * as BankAccounts from "../accounts/BankAccounts.ts"
import * as BankRuleStore from "./BankRuleStore.ts"

/** Bank rules (spec 4.5): added, listed in evaluation order, deactivated; never edited (a database trigger holds that). */

export const handlers = [
  Handler.make(Banking.BankLines.createBankRule, ({ body }) =>
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      const request = yield* RequestContext
      const companyId = yield* requireCompanyId
      const account = yield* AccountStore.accountRow(companyId, body.account)
      if (account === undefined) {
        return yield* Effect.fail(ApiError.fail("unknown_account", `No account ${body.account}.`, {
          issues: [{ path: ["body", "account"], message: "Unknown account" }]
        }))
      }
      if (!account.active) {
        return yield* Effect.fail(ApiError.fail("inactive_account", `Account ${body.account} is inactive.`, {
          issues: [{ path: ["body", "account"], message: "Inactive account" }]
        }))
      }
      if (body.class !== undefined) {
        const classes = yield* AccountStore.classesByName(companyId, [body.class])
        if (!classes.has(body.class)) {
          return yield* Effect.fail(ApiError.validationFailed(`No class ${body.class}.`, [{ path: ["body", "class"], message: "Unknown class" }]))
        }
      }
      if (body.bank_account_id !== undefined) {
        yield* BankAccounts.load(body.bank_account_id).pipe(BodyReference.inBody(["body", "bank_account_id"], "bank account"))
      }
      if (body.amount_min_cents !== undefined && body.amount_max_cents !== undefined && body.amount_min_cents > body.amount_max_cents) {
        return yield* Effect.fail(ApiError.validationFailed("amount_min_cents is above amount_max_cents.", [
          { path: ["body", "amount_min_cents"], message: "Above amount_max_cents" }
        ]))
      }
      const count = yield* sql<{ n: unknown }>`SELECT count(*) AS n FROM bank_rules WHERE company_id = ${companyId}`.pipe(Effect.orDie)
      if (Row.int(count[0]!.n) >= Limits.bankRulesPerCompanyMax) {
        return yield* Effect.fail(ApiError.validationFailed(`A company has at most ${Limits.bankRulesPerCompanyMax} rules.`))
      }
      const inserted = yield* sql<{ id: unknown }>`INSERT INTO bank_rules ${sql.insert({
        company_id: companyId,
        name: body.name,
        priority: body.priority,
        bank_account_id: body.bank_account_id ?? null,
        payee_contains: body.payee_contains ?? null,
        direction: body.direction ?? "any",
        amount_min_cents: body.amount_min_cents ?? null,
        amount_max_cents: body.amount_max_cents ?? null,
        account_id: Row.int(account.id),
        class_name: body.class ?? null,
        memo: body.memo ?? null,
        created_at: request.now
      })} RETURNING id`.pipe(Effect.orDie)
      const id = Row.int(inserted[0]!.id)
      const rows = yield* sql<Record<string, unknown>>`${BankRuleStore.selectRule(sql, companyId)} AND r.id = ${id}`.pipe(Effect.orDie)
      return { body: BankRuleStore.ruleRecord(rows[0]!), audit: { targetType: "bank_rule", targetId: id, details: { priority: body.priority } } }
    })),

  Handler.make(Banking.BankLines.listBankRules, ({ query }) =>
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      const companyId = yield* requireCompanyId
      // In the order rules are tried (priority, then age): the cursor's rule names where to go on.
      const select = (after: number | null, limitPlusOne: number) =>
        sql<Record<string, unknown>>`${BankRuleStore.selectRule(sql, companyId)}
        ${query.include_inactive === true ? sql`` : sql`AND r.active`}
        ${after === null ? sql`` : sql`AND (r.priority, r.created_at, r.id) > (SELECT priority, created_at, id FROM bank_rules WHERE company_id = ${companyId} AND id = ${after})`}
        ORDER BY r.priority, r.created_at, r.id LIMIT ${limitPlusOne}`.pipe(Effect.orDie)
      return { body: yield* Pagination.listPage(query, select, (row) => Row.int(row.id), BankRuleStore.ruleRecord) }
    })),

  Handler.make(Banking.BankLines.deactivateBankRule, ({ path, body }) =>
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      const request = yield* RequestContext
      const companyId = yield* requireCompanyId
      const rows = yield* sql<Record<string, unknown>>`SELECT active FROM bank_rules WHERE company_id = ${companyId}
        AND id = ${path.id} FOR UPDATE`.pipe(Effect.orDie)
      if (rows[0] === undefined) return yield* Effect.fail(ApiError.notFound("bank rule"))
      if (rows[0].active !== true) return yield* Effect.fail(ApiError.fail("conflict", "The rule is already inactive."))
      yield* sql`UPDATE bank_rules SET active = false, deactivated_reason = ${body.reason}, deactivated_at = ${request.now}
        WHERE company_id = ${companyId} AND id = ${path.id}`.pipe(Effect.orDie)
      const updated = yield* sql<Record<string, unknown>>`${BankRuleStore.selectRule(sql, companyId)} AND r.id = ${path.id}`.pipe(Effect.orDie)
      return { body: BankRuleStore.ruleRecord(updated[0]!), audit: { targetType: "bank_rule", targetId: path.id, reason: body.reason } }
    }))
] as const
