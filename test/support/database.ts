import { expect } from "vitest"
import type { TestApp, TestCompany } from "./app.ts"

/** Reads of the app's tables, for what a test cannot see through the API. */

/** Row counts of every table of the app's schema, and the id sequence's position. */
export const snapshot = async (app: Pick<TestApp, "query">): Promise<Record<string, number>> => {
  const tables = await app.query<{ table_name: string }>(
    `SELECT table_name FROM information_schema.tables WHERE table_schema = current_schema() AND table_type = 'BASE TABLE'
     ORDER BY table_name`
  )
  const counts: Record<string, number> = {}
  for (const { table_name } of tables) {
    const rows = await app.query<{ count: string }>(`SELECT count(*) AS count FROM "${table_name}"`)
    counts[table_name] = Number(rows[0]!.count)
  }
  const sequence = await app.query<{ last_value: string }>(`SELECT last_value FROM ledger_ids`)
  counts["sequence ledger_ids"] = Number(sequence[0]!.last_value)
  return counts
}

/** Every posted line of the company summed per account code, from the journal itself. */
export const accountTotals = async (app: Pick<TestApp, "query">, companyId: string): Promise<Map<string, number>> => {
  const rows = await app.query<{ code: string; total: string | number }>(
    `SELECT a.code, sum(l.amount_cents) AS total FROM journal_lines l
     JOIN accounts a ON a.company_id = l.company_id AND a.id = l.account_id
     WHERE l.company_id = $1 GROUP BY a.code`,
    [companyId]
  )
  return new Map(rows.map((row) => [row.code, Number(row.total)]))
}

/** The trial balance from the journal's lines: debits minus credits over every account. */
export const trialBalanceDifference = async (app: Pick<TestApp, "query">, companyId: string): Promise<number> => {
  const rows = await app.query<{ difference: string | number | null }>(
    `SELECT coalesce(sum(amount_cents), 0) AS difference FROM journal_lines WHERE company_id = $1`,
    [companyId]
  )
  return Number(rows[0]!.difference)
}

/** Every account's daily totals agree with its lines, and its monthly totals with its daily ones. */
export const expectTotalsMatchLines = async (target: Pick<TestApp, "query">, company: Pick<TestCompany, "companyId">) => {
  const drift = await target.query(
    `SELECT coalesce(t.account_id, l.account_id) AS account_id FROM
       (SELECT account_id, day, debit_cents - credit_cents AS cents FROM account_daily_totals WHERE company_id = $1) t
     FULL JOIN
       (SELECT account_id, entry_date AS day, sum(amount_cents) AS cents FROM journal_lines WHERE company_id = $1
        GROUP BY account_id, entry_date) l
     ON t.account_id = l.account_id AND t.day = l.day
     WHERE t.cents IS DISTINCT FROM l.cents`,
    [company.companyId]
  )
  expect(drift).toEqual([])
  const monthly = await target.query(
    `SELECT m.account_id FROM account_monthly_totals m
     JOIN (SELECT account_id, date_trunc('month', day)::date AS month, sum(debit_cents) AS debit, sum(credit_cents) AS credit
           FROM account_daily_totals WHERE company_id = $1 GROUP BY 1, 2) d
       ON d.account_id = m.account_id AND d.month = m.month
     WHERE m.company_id = $1 AND (m.debit_cents <> d.debit OR m.credit_cents <> d.credit)`,
    [company.companyId]
  )
  expect(monthly).toEqual([])
}
