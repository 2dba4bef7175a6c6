import { Effect } from "effect"
import { SqlClient } from "effect/sql"
import { ApiError, Banking, Limits } from "@ledger/api"
import * as Handler from "../../kernel/Handler.ts"
import { requireCompanyId } from "../../kernel/CompanyContext.ts"
import * as Pagination from "../../kernel/Pagination.ts"
import { exists } from "../../kernel/Registry.ts"
import { RequestContext } from "../../kernel/RequestContext.ts"
import * as Row from "../../kernel/Row.ts"
import { AccountStore } from "../../ledger/index.ts"
import * as BankingRows from "../common/BankingRows.ts"

/**
 * Bank accounts (spec 4.5): each tied for good to one ledger account, an asset for checking and
 * savings, a liability for a credit card. Reads carry the ledger balance, line counts by state,
 * the reconciliation status and the feed link.
 */

type BankAccount = typeof Banking.Records.BankAccount.Type
type NewBankAccount = typeof Banking.BankAccounts.NewBankAccount.Type

const typesByKind: Record<NewBankAccount["kind"], ReadonlyArray<string>> = {
  checking: ["asset"],
  savings: ["asset"],
  credit_card: ["liability"],
  other: ["asset", "liability"]
}

/** The bank account row, locked when it is about to change or be written under; 404 when it is another company's. */
export const load = Effect.fn("BankAccounts.load")(function*(id: number, lock: "share" | "update" | "none" = "none") {
  const sql = yield* SqlClient.SqlClient
  const companyId = yield* requireCompanyId
  const rows = yield* sql<Record<string, unknown>>`SELECT b.*, a.code AS account_code, a.type AS account_type
    FROM bank_accounts b JOIN accounts a ON a.company_id = b.company_id AND a.id = b.account_id
    WHERE b.company_id = ${companyId} AND b.id = ${id}
    ${lock === "update" ? sql`FOR UPDATE OF b` : lock === "share" ? sql`FOR SHARE OF b` : sql``}`.pipe(Effect.orDie)
  const row = rows[0]
  if (row === undefined) return yield* Effect.fail(ApiError.notFound("bank account"))
  return row
})

/** Natural sign of a ledger account type: assets grow with debits, liabilities with credits. */
export const naturalSign = (type: string): 1 | -1 => (type === "asset" || type === "expense" ? 1 : -1)

/** Bank accounts as the API shows them, with their summaries, in the order of `rows`. */
export const withSummaries = Effect.fn("BankAccounts.withSummaries")(function*(rows: ReadonlyArray<Record<string, unknown>>) {
  const sql = yield* SqlClient.SqlClient
  const companyId = yield* requireCompanyId
  if (rows.length === 0) return [] as Array<BankAccount>
  const ids = rows.map((row) => Row.int(row.id))
  const accountIds = rows.map((row) => Row.int(row.account_id))
  const balances = yield* sql<Record<string, unknown>>`SELECT account_id, sum(debit_cents) - sum(credit_cents) AS net
    FROM account_daily_totals WHERE company_id = ${companyId} AND account_id IN ${sql.in(accountIds)}
    GROUP BY account_id`.pipe(Effect.orDie)
  const counts = yield* sql<Record<string, unknown>>`SELECT bank_account_id, status, count(*) AS n FROM bank_lines
    WHERE company_id = ${companyId} AND bank_account_id IN ${sql.in(ids)} AND withdrawn_at IS NULL
    GROUP BY bank_account_id, status`.pipe(Effect.orDie)
  const finished = yield* sql<Record<string, unknown>>`SELECT DISTINCT ON (bank_account_id) bank_account_id, statement_date,
      statement_ending_balance_cents
    FROM reconciliations WHERE company_id = ${companyId} AND bank_account_id IN ${sql.in(ids)} AND status = 'finished'
    ORDER BY bank_account_id, statement_date DESC, id DESC`.pipe(Effect.orDie)
  const running = yield* sql<Record<string, unknown>>`SELECT bank_account_id, id FROM reconciliations
    WHERE company_id = ${companyId} AND bank_account_id IN ${sql.in(ids)} AND status = 'in_progress'`.pipe(Effect.orDie)
  const feeds = yield* sql<Record<string, unknown>>`SELECT bank_account_id, bank_feed_id, account FROM bank_feed_accounts
    WHERE company_id = ${companyId} AND bank_account_id IN ${sql.in(ids)}`.pipe(Effect.orDie)
  const netByAccount = yield* Row.withSummedCents((cents) => new Map(balances.map((row) => [Row.int(row.account_id), cents(row.net)])))
  return rows.map((row): BankAccount => {
    const id = Row.int(row.id)
    const lineCounts = { unmatched: 0, proposed: 0, matched: 0, categorized: 0, excluded: 0 }
    for (const count of counts) {
      if (Row.int(count.bank_account_id) === id) lineCounts[count.status as keyof typeof lineCounts] = Row.int(count.n)
    }
    const last = finished.find((item) => Row.int(item.bank_account_id) === id)
    const open = running.find((item) => Row.int(item.bank_account_id) === id)
    const feed = feeds.find((item) => Row.int(item.bank_account_id) === id)
    return {
      id,
      name: String(row.name),
      kind: row.kind as BankAccount["kind"],
      ledger_account: String(row.account_code),
      institution: row.institution === null ? null : String(row.institution),
      mask: row.mask === null ? null : String(row.mask),
      csv_profile: row.csv_profile === null ? null : Row.json(row.csv_profile),
      ledger_balance_cents: naturalSign(String(row.account_type)) * (netByAccount.get(Row.int(row.account_id)) ?? 0),
      line_counts: lineCounts,
      reconciliation: {
        last_statement_date: last === undefined ? null : Row.date(last.statement_date),
        last_statement_ending_balance_cents: last === undefined ? null : Row.int(last.statement_ending_balance_cents),
        in_progress_reconciliation_id: open === undefined ? null : Row.int(open.id)
      },
      feed: feed === undefined ? null : { bank_feed_id: Row.int(feed.bank_feed_id), feed_account: String(feed.account) },
      created_at: Row.iso(row.created_at)
    }
  })
})

export const one = Effect.fn("BankAccounts.one")(function*(id: number) {
  const row = yield* load(id)
  return (yield* withSummaries([row]))[0]!
})

/** Creates a bank account; shared by POST /v1/bank-accounts and a feed link's `new_bank_account`. */
export const create = Effect.fn("BankAccounts.create")(function*(body: NewBankAccount, path: ReadonlyArray<string> = ["body"]) {
  const sql = yield* SqlClient.SqlClient
  const request = yield* RequestContext
  const companyId = yield* requireCompanyId
  const account = yield* AccountStore.accountRow(companyId, body.ledger_account)
  const issue = (message: string) =>
    Effect.fail(ApiError.validationFailed(message, [{ path: [...path, "ledger_account"], message }]))
  if (account === undefined) {
    return yield* Effect.fail(ApiError.fail("unknown_account", `No account ${body.ledger_account}.`, {
      issues: [{ path: [...path, "ledger_account"], message: "Unknown account" }]
    }))
  }
  if (!account.active) {
    return yield* Effect.fail(ApiError.fail("inactive_account", `Account ${body.ledger_account} is inactive.`, {
      issues: [{ path: [...path, "ledger_account"], message: "Inactive account" }]
    }))
  }
  if (account.control !== null) return yield* issue("A receivables or payables control account cannot be a bank account.")
  const allowed = typesByKind[body.kind]
  if (!allowed.includes(String(account.type))) {
    return yield* issue(`A ${body.kind} bank account needs an ${allowed.join(" or ")} ledger account; ${body.ledger_account} is ${String(account.type)}.`)
  }
  const taken = yield* sql`SELECT id FROM bank_accounts WHERE company_id = ${companyId} AND account_id = ${account.id}`.pipe(Effect.orDie)
  if (taken.length > 0) return yield* issue(`Account ${body.ledger_account} is already the ledger account of another bank account.`)
  const rows = yield* sql<Record<string, unknown>>`INSERT INTO bank_accounts ${sql.insert({
    company_id: companyId,
    name: body.name,
    kind: body.kind,
    account_id: Row.int(account.id),
    institution: body.institution ?? null,
    mask: body.mask ?? null,
    csv_profile: body.csv_profile === undefined ? null : JSON.stringify(body.csv_profile),
    created_at: request.now
  })} RETURNING id`.pipe(Effect.orDie)
  return yield* one(Row.int(rows[0]!.id))
})

export const handlers = [
  Handler.make(Banking.BankAccounts.createBankAccount, ({ body }) =>
    Effect.gen(function*() {
      const created = yield* create(body)
      return {
        body: created,
        audit: { targetType: "bank_account", targetId: created.id, details: { kind: created.kind, ledger_account: created.ledger_account } }
      }
    })),

  Handler.make(Banking.BankAccounts.listBankAccounts, ({ query }) =>
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      const companyId = yield* requireCompanyId
      const select = (after: number | null, limitPlusOne: number) =>
        sql<Record<string, unknown>>`SELECT b.*, a.code AS account_code, a.type AS account_type
        FROM bank_accounts b JOIN accounts a ON a.company_id = b.company_id AND a.id = b.account_id
        WHERE b.company_id = ${companyId} ${after === null ? sql`` : sql`AND b.id < ${after}`}
        ORDER BY b.id DESC LIMIT ${limitPlusOne}`.pipe(Effect.orDie)
      return { body: yield* Pagination.listPageLoaded(query, select, (row) => Row.int(row.id), withSummaries) }
    })),

  Handler.make(Banking.BankAccounts.getBankAccount, ({ path }) =>
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      const companyId = yield* requireCompanyId
      const account = yield* one(path.id)
      const imports = yield* sql<Record<string, unknown>>`SELECT * FROM statement_imports
        WHERE company_id = ${companyId} AND bank_account_id = ${path.id} ORDER BY id DESC LIMIT ${Limits.pageSizeDefault}`
        .pipe(Effect.orDie)
      return { body: { ...account, imports: imports.map(BankingRows.statementImport) } }
    })),

  Handler.make(Banking.BankAccounts.updateBankAccount, ({ path, body }) =>
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      const companyId = yield* requireCompanyId
      const before = yield* load(path.id, "update")
      const changes: Record<string, unknown> = {}
      if (body.name !== undefined) changes.name = body.name
      if (body.institution !== undefined) changes.institution = body.institution
      if (body.mask !== undefined) changes.mask = body.mask
      if (body.csv_profile !== undefined) changes.csv_profile = body.csv_profile === null ? null : JSON.stringify(body.csv_profile)
      if (Object.keys(changes).length > 0) {
        yield* sql`UPDATE bank_accounts SET ${sql.update(changes)} WHERE company_id = ${companyId} AND id = ${path.id}`.pipe(Effect.orDie)
      }
      return {
        body: yield* one(path.id),
        audit: {
          targetType: "bank_account",
          targetId: path.id,
          details: { changed: Object.keys(changes), name_before: String(before.name) }
        }
      }
    }))
] as const

/** A bank account's ledger account may not be deactivated (spec 7, `account_protected`). */
export const ledgerAccountProtection = exists("bank_account", "It is a bank account's ledger account.", (sql, account) =>
  sql`SELECT 1 FROM bank_accounts WHERE company_id = ${account.companyId} AND account_id = ${account.id}`)
