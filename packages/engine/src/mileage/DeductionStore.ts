import { Effect } from "effect"
import { SqlClient } from "effect/sql"
import * as Row from "../kernel/Row.ts"

/** Net debits (expenses) of these accounts in the year, from the posted journal lines. */
export const expensesInYear = Effect.fn("DeductionStore.expensesInYear")(function*(company: string, codes: ReadonlyArray<string>, year: number) {
  const sql = yield* SqlClient.SqlClient
  if (codes.length === 0) return 0
  const rows = yield* sql<{ total: unknown }>`SELECT coalesce(sum(l.amount_cents), 0) AS total
    FROM journal_lines l JOIN accounts a ON a.company_id = l.company_id AND a.id = l.account_id
    WHERE l.company_id = ${company} AND a.code IN ${sql.in(codes)}
      AND l.entry_date BETWEEN ${`${year}-01-01`} AND ${`${year}-12-31`}`.pipe(Effect.orDie)
  return Row.int(rows[0]?.total ?? 0)
})

/** The vehicles that have trips in the year or were in service during it. */
export const vehiclesOfYear = Effect.fn("DeductionStore.vehiclesOfYear")(function*(company: string, year: number, vehicleId?: number) {
  const sql = yield* SqlClient.SqlClient
  return yield* sql<Record<string, unknown>>`SELECT * FROM vehicles WHERE company_id = ${company}
    ${vehicleId === undefined ? sql`` : sql`AND id = ${vehicleId}`}
    AND in_service_date <= ${`${year}-12-31`} AND (retired_on IS NULL OR retired_on >= ${`${year}-01-01`})
    ORDER BY id`.pipe(Effect.orDie)
})

export const companyName = Effect.fn("DeductionStore.companyName")(function*(company: string) {
  const sql = yield* SqlClient.SqlClient
  const rows = yield* sql<{ name: string }>`SELECT name FROM companies WHERE company_id = ${company}`.pipe(Effect.orDie)
  return rows[0]?.name ?? ""
})
