import { Effect } from "effect"
import { SqlClient } from "effect/sql"
import { LedgerReaders } from "../ledger/index.ts"

/** Net debits (expenses) of these accounts in the year, from the posted journal lines (the ledger's reader). */
export const expensesInYear = (company: string, codes: ReadonlyArray<string>, year: number) =>
  LedgerReaders.netDebits(company, { codes, from: `${year}-01-01`, to: `${year}-12-31` })

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
