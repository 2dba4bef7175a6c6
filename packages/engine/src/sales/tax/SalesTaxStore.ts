import { Effect } from "effect"
import { SqlClient } from "effect/sql"
import { ApiError, Sales } from "@ledger/api"
import type { ProtectionCheck } from "../../kernel/Registry.ts"
import * as Row from "../../kernel/Row.ts"
import type { Jurisdiction } from "./SalesTaxRules.ts"

/** A tax rate as the API shows it, with its components when combined. */
export const load = Effect.fn("SalesTaxStore.load")(function*(company: string, ids: ReadonlyArray<number>) {
  const sql = yield* SqlClient.SqlClient
  if (ids.length === 0) return new Map<number, Sales.SalesTax.TaxRate>()
  const rows = yield* sql<Record<string, unknown>>`SELECT * FROM tax_rates WHERE company_id = ${company} AND id IN ${sql.in(ids)}`
    .pipe(Effect.orDie)
  const components = yield* sql<Record<string, unknown>>`
    SELECT c.combined_rate_id, c.position, r.* FROM tax_rate_components c
    JOIN tax_rates r ON r.company_id = c.company_id AND r.id = c.component_id
    WHERE c.company_id = ${company} AND c.combined_rate_id IN ${sql.in(ids)} ORDER BY c.combined_rate_id, c.position`
    .pipe(Effect.orDie)
  const byCombined = new Map<number, Array<Sales.SalesTax.TaxRate["components"][number]>>()
  for (const component of components) {
    const list = byCombined.get(Row.int(component.combined_rate_id)) ?? []
    list.push({
      id: Row.int(component.id),
      name: String(component.name),
      agency_id: Row.int(component.agency_id),
      rate_percent: String(component.rate_percent),
      payable_account: String(component.payable_account),
      active: component.active === true
    })
    byCombined.set(Row.int(component.combined_rate_id), list)
  }
  return new Map(rows.map((row): [number, Sales.SalesTax.TaxRate] => [Row.int(row.id), {
    id: Row.int(row.id),
    name: String(row.name),
    combined: row.combined === true,
    agency_id: Row.intOrNull(row.agency_id),
    rate_percent: String(row.rate_percent),
    payable_account: (row.payable_account as string | null) ?? null,
    components: byCombined.get(Row.int(row.id)) ?? [],
    active: row.active === true,
    deactivated_at: Row.isoOrNull(row.deactivated_at),
    deactivated_reason: (row.deactivated_reason as string | null) ?? null,
    created_at: Row.iso(row.created_at)
  }]))
})

/** The jurisdictions a rate charges: itself, or its components in display order. */
export const jurisdictions = (rate: Sales.SalesTax.TaxRate): ReadonlyArray<Jurisdiction> =>
  rate.combined
    ? rate.components.map((component) => ({
      taxRateId: component.id,
      name: component.name,
      agencyId: component.agency_id,
      ratePercent: component.rate_percent,
      payableAccount: component.payable_account
    }))
    : [{
      taxRateId: rate.id,
      name: rate.name,
      agencyId: rate.agency_id!,
      ratePercent: rate.rate_percent,
      payableAccount: rate.payable_account!
    }]

/** An active rate for a new document or estimate; documents already made keep the rate they used. */
export const requireActive = Effect.fn("SalesTaxStore.requireActive")(function*(company: string, id: number) {
  const rate = (yield* load(company, [id])).get(id)
  if (rate === undefined) {
    return yield* Effect.fail(ApiError.validationFailed("No such tax rate.", [{ path: ["body", "tax_rate_id"], message: "Unknown tax rate" }]))
  }
  if (!rate.active) {
    return yield* Effect.fail(ApiError.fail("inactive_tax_rate", `Tax rate ${rate.name} is inactive.`, {
      issues: [{ path: ["body", "tax_rate_id"], message: "Inactive tax rate" }]
    }))
  }
  return rate
})

/** The payable account of an active tax rate may not be deactivated (spec 7, `account_protected`). */
export const activeTaxRatePayable: ProtectionCheck = {
  name: "active_tax_rate",
  check: (account) =>
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      const rows = yield* sql<{ name: string }>`SELECT name FROM tax_rates WHERE company_id = ${account.companyId}
        AND active AND payable_account = ${account.code} ORDER BY id LIMIT 5`.pipe(Effect.orDie)
      return rows.length === 0 ? null : `It is the payable account of active tax rates (${rows.map((row) => row.name).join(", ")}).`
    })
}
