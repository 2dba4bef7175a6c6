import { Effect } from "effect"
import { SqlClient } from "effect/sql"
import { ApiError, type Mileage } from "@ledger/api"
import * as Row from "../kernel/Row.ts"

const reading = (row: Record<string, unknown>) => {
  const start = Row.int(row.start_miles)
  const end = Row.intOrNull(row.end_miles)
  return { tax_year: Row.int(row.tax_year), start_miles: start, end_miles: end, total_miles: end === null ? null : end - start }
}

/** Vehicles with their accounts and odometer readings, in the order of `rows`. */
export const withDetails = Effect.fn("VehicleStore.withDetails")(function*(company: string, rows: ReadonlyArray<Record<string, unknown>>) {
  const sql = yield* SqlClient.SqlClient
  if (rows.length === 0) return [] as Array<Mileage.Vehicles.Vehicle>
  const ids = rows.map((row) => Row.int(row.id))
  const accounts = yield* sql<Record<string, unknown>>`SELECT vehicle_id, account_code FROM vehicle_accounts
    WHERE company_id = ${company} AND vehicle_id IN ${sql.in(ids)} ORDER BY account_code`.pipe(Effect.orDie)
  const odometer = yield* sql<Record<string, unknown>>`SELECT * FROM vehicle_odometer
    WHERE company_id = ${company} AND vehicle_id IN ${sql.in(ids)} ORDER BY tax_year`.pipe(Effect.orDie)
  return rows.map((row): Mileage.Vehicles.Vehicle => {
    const id = Row.int(row.id)
    return {
      id,
      name: String(row.name),
      description: (row.description as string | null) ?? null,
      ownership: row.ownership as "owned" | "leased",
      in_service_date: Row.date(row.in_service_date),
      retired_on: row.retired_on === null ? null : Row.date(row.retired_on),
      accounts: accounts.filter((account) => Row.int(account.vehicle_id) === id).map((account) => String(account.account_code)),
      odometer: odometer.filter((one) => Row.int(one.vehicle_id) === id).map(reading),
      created_at: Row.iso(row.created_at)
    }
  })
})

export const loadRow = Effect.fn("VehicleStore.loadRow")(function*(company: string, id: number) {
  const sql = yield* SqlClient.SqlClient
  const rows = yield* sql<Record<string, unknown>>`SELECT * FROM vehicles WHERE company_id = ${company} AND id = ${id}`.pipe(Effect.orDie)
  if (rows[0] === undefined) return yield* Effect.fail(ApiError.notFound("vehicle"))
  return rows[0]
})

export const load = Effect.fn("VehicleStore.load")(function*(company: string, id: number) {
  return (yield* withDetails(company, [yield* loadRow(company, id)]))[0]!
})

/** A vehicle that may log a trip on this date: it exists, was in service and was not retired. */
export const requireInService = Effect.fn("VehicleStore.requireInService")(function*(company: string, id: number, date: string, path: ReadonlyArray<string>) {
  const row = yield* loadRow(company, id).pipe(
    Effect.catchTag("LedgerError", () =>
      Effect.fail(ApiError.validationFailed("Unknown vehicle.", [{ path: [...path, "vehicle_id"], message: "No such vehicle" }])))
  )
  const retired = row.retired_on === null ? null : Row.date(row.retired_on)
  if (retired !== null && date > retired) {
    return yield* Effect.fail(ApiError.fail("vehicle_retired", `The vehicle was retired on ${retired}.`, { vehicle_id: id, retired_on: retired }))
  }
  if (date < Row.date(row.in_service_date)) {
    return yield* Effect.fail(ApiError.validationFailed("The date is before the vehicle was in service.", [{ path: [...path, "trip_date"], message: `Before ${Row.date(row.in_service_date)}` }]))
  }
  return row
})

/** Replaces the vehicle's accounts; an account another vehicle holds is refused. */
export const setAccounts = Effect.fn("VehicleStore.setAccounts")(function*(company: string, id: number, codes: ReadonlyArray<string>) {
  const sql = yield* SqlClient.SqlClient
  const unique = Array.from(new Set(codes))
  if (unique.length > 0) {
    const taken = yield* sql<Record<string, unknown>>`SELECT account_code, vehicle_id FROM vehicle_accounts
      WHERE company_id = ${company} AND account_code IN ${sql.in(unique)} AND vehicle_id <> ${id}`.pipe(Effect.orDie)
    if (taken.length > 0) {
      return yield* Effect.fail(ApiError.fail("vehicle_account_taken", "An account belongs to one vehicle.", {
        accounts: taken.map((row) => ({ account: String(row.account_code), vehicle_id: Row.int(row.vehicle_id) }))
      }))
    }
  }
  yield* sql`DELETE FROM vehicle_accounts WHERE company_id = ${company} AND vehicle_id = ${id}`.pipe(Effect.orDie)
  for (const code of unique) {
    yield* sql`INSERT INTO vehicle_accounts ${sql.insert({ company_id: company, vehicle_id: id, account_code: code })}`.pipe(Effect.orDie)
  }
})
