import { Effect } from "effect"
import { SqlClient } from "effect/sql"
import { ApiError, type TaxForms } from "@ledger/api"
import * as Pagination from "../kernel/Pagination.ts"
import * as Row from "../kernel/Row.ts"
import { TokenSealer } from "../ports/TokenSealer.ts"
import * as TinRules from "./TinRules.ts"

/**
 * The taxforms area's SQL for the payer, the boxes, vendors' tax profiles and prior amounts. A TIN
 * is written only sealed (TokenSealer, bound to the company and the vendor, so a sealed TIN copied
 * onto another row does not open) beside its last four digits; reads show it masked.
 */

type Box = TaxForms.Shared.Box

export const payerBinding = (company: string) => `tax-tin:${company}:payer`
export const vendorBinding = (company: string, contactId: number) => `tax-tin:${company}:vendor:${contactId}`

/** Seals a TIN (as its 9 digits); 503 when the deployment has no master key. */
export const seal = (tin: string, boundTo: string) => sealText(TinRules.digits(tin), boundTo)

/** Seals any text (a filing's file); 503 when the deployment has no master key. */
export const sealText = Effect.fn("FormsStore.sealText")(function*(text: string, boundTo: string) {
  const sealer = yield* TokenSealer
  if (!sealer.configured) {
    return yield* Effect.fail(ApiError.fail("tin_sealing_not_configured", "Tax ids are stored encrypted: configure a master key (LEDGER_MASTER_KEY)."))
  }
  return yield* sealer.seal(text, boundTo)
})

export const open = Effect.fn("FormsStore.open")(function*(sealed: string, boundTo: string) {
  const sealer = yield* TokenSealer
  if (!sealer.configured) {
    return yield* Effect.fail(ApiError.fail("tin_sealing_not_configured", "Tax ids are stored encrypted: configure a master key (LEDGER_MASTER_KEY)."))
  }
  return yield* sealer.open(sealed, boundTo)
})

export const payerRow = Effect.fn("FormsStore.payerRow")(function*(company: string) {
  const sql = yield* SqlClient.SqlClient
  const rows = yield* sql<Record<string, unknown>>`SELECT * FROM tax_payers WHERE company_id = ${company}`.pipe(Effect.orDie)
  return rows[0]
})

export const payer = (row: Record<string, unknown> | undefined): TaxForms.Payer.Payer => ({
  name: (row?.name as string | undefined) ?? null,
  name2: (row?.name2 as string | null | undefined) ?? null,
  address1: (row?.address1 as string | undefined) ?? null,
  address2: (row?.address2 as string | null | undefined) ?? null,
  city: (row?.city as string | undefined) ?? null,
  state: (row?.state as string | undefined) ?? null,
  zip: (row?.zip as string | undefined) ?? null,
  phone: (row?.phone as string | undefined) ?? null,
  tin_type: (row?.tin_type as "EIN" | "SSN" | "ITIN" | undefined) ?? null,
  tin_masked: row === undefined ? null : TinRules.mask(String(row.tin_type), String(row.tin_last4)),
  updated_at: row === undefined ? null : Row.iso(row.updated_at)
})

export const accountBoxes = Effect.fn("FormsStore.accountBoxes")(function*(company: string) {
  const sql = yield* SqlClient.SqlClient
  const rows = yield* sql<{ account_code: string; box: Box }>`SELECT account_code, box FROM tax_account_boxes
    WHERE company_id = ${company} ORDER BY account_code COLLATE "C"`.pipe(Effect.orDie)
  return new Map(rows.map((row) => [row.account_code, row.box]))
})

export const vendorBoxes = Effect.fn("FormsStore.vendorBoxes")(function*(company: string) {
  const sql = yield* SqlClient.SqlClient
  const rows = yield* sql<{ contact_id: unknown; box: Box }>`SELECT contact_id, box FROM tax_vendor_boxes WHERE company_id = ${company}`.pipe(Effect.orDie)
  return new Map(rows.map((row) => [Row.int(row.contact_id), row.box]))
})

export const profile = (row: Record<string, unknown>): TaxForms.Profiles.TaxProfile => ({
  id: Row.int(row.id),
  contact_id: Row.int(row.contact_id),
  legal_name: String(row.legal_name),
  business_name: (row.business_name as string | null) ?? null,
  tax_class: row.tax_class as TaxForms.Profiles.TaxProfile["tax_class"],
  tax_class_other: (row.tax_class_other as string | null) ?? null,
  foreign_partners: row.foreign_partners === true,
  exempt_payee_code: (row.exempt_payee_code as string | null) ?? null,
  fatca_code: (row.fatca_code as string | null) ?? null,
  address1: String(row.address1),
  address2: (row.address2 as string | null) ?? null,
  city: String(row.city),
  state: String(row.state),
  zip: String(row.zip),
  tin_type: row.tin_type as TaxForms.Profiles.TaxProfile["tin_type"],
  tin_masked: TinRules.mask(String(row.tin_type), String(row.tin_last4)),
  source: row.source as "entered" | "w9",
  tin_match: (row.tin_match as TaxForms.Profiles.TaxProfile["tin_match"]) ?? null,
  tin_match_at: Row.isoOrNull(row.tin_match_at),
  created_by: String(row.created_by),
  created_at: Row.iso(row.created_at)
})

/** Current profiles (raw rows, with the sealed TIN) of these vendors, or of all when `ids` is null. */
export const currentProfiles = Effect.fn("FormsStore.currentProfiles")(function*(company: string, ids: ReadonlyArray<number> | null) {
  const sql = yield* SqlClient.SqlClient
  if (ids !== null && ids.length === 0) return new Map<number, Record<string, unknown>>()
  const rows = yield* sql<Record<string, unknown>>`SELECT * FROM tax_vendor_profiles WHERE company_id = ${company}
    AND superseded_at IS NULL ${ids === null ? sql`` : sql`AND contact_id IN ${sql.in(ids)}`}`.pipe(Effect.orDie)
  return new Map(rows.map((row) => [Row.int(row.contact_id), row]))
})

/** Writes a new profile for the vendor, superseding the current one. */
export const insertProfile = Effect.fn("FormsStore.insertProfile")(function*(
  company: string,
  contactId: number,
  input: typeof TaxForms.Profiles.ProfileInput.Type,
  source: "entered" | "w9",
  by: string,
  now: string
) {
  const sql = yield* SqlClient.SqlClient
  const sealed = yield* seal(input.tin, vendorBinding(company, contactId))
  yield* sql`UPDATE tax_vendor_profiles SET superseded_at = ${now} WHERE company_id = ${company}
    AND contact_id = ${contactId} AND superseded_at IS NULL`.pipe(Effect.orDie)
  const { tin, ...fields } = input
  const rows = yield* sql<Record<string, unknown>>`INSERT INTO tax_vendor_profiles ${sql.insert({
    company_id: company,
    contact_id: contactId,
    ...fields,
    foreign_partners: fields.foreign_partners ?? false,
    tin_sealed: sealed,
    tin_last4: TinRules.lastFour(tin),
    source,
    created_by: by,
    created_at: now
  })} RETURNING *`.pipe(Effect.orDie)
  return rows[0]!
})

export const priorAmount = (row: Record<string, unknown>): TaxForms.Amounts.PriorAmount => ({
  id: Row.int(row.id),
  year: Row.int(row.year),
  contact_id: Row.int(row.contact_id),
  box: row.box as Box,
  amount_cents: Row.int(row.amount_cents),
  note: (row.note as string | null) ?? null,
  voided: row.voided === true,
  void_reason: (row.void_reason as string | null) ?? null,
  voided_at: Row.isoOrNull(row.voided_at),
  created_by: String(row.created_by),
  created_at: Row.iso(row.created_at)
})

export const priorAmounts = Effect.fn("FormsStore.priorAmounts")(function*(company: string, year: number, includeVoided: boolean) {
  const sql = yield* SqlClient.SqlClient
  const rows = yield* sql<Record<string, unknown>>`SELECT * FROM tax_prior_amounts WHERE company_id = ${company} AND year = ${year}
    ${includeVoided ? sql`` : sql`AND NOT voided`} ORDER BY id`.pipe(Effect.orDie)
  return rows.map(priorAmount)
})

/** A page of a year's prior amounts, newest first. */
export const priorAmountsPage = Effect.fn("FormsStore.priorAmountsPage")(function*(
  company: string,
  year: number,
  includeVoided: boolean,
  query: Pagination.PageRequest
) {
  const sql = yield* SqlClient.SqlClient
  const select = (after: number | null, limitPlusOne: number) =>
    sql<Record<string, unknown>>`SELECT * FROM tax_prior_amounts WHERE company_id = ${company} AND year = ${year}
    ${includeVoided ? sql`` : sql`AND NOT voided`} ${after === null ? sql`` : sql`AND id < ${after}`}
    ORDER BY id DESC LIMIT ${limitPlusOne}`.pipe(Effect.orDie)
  return yield* Pagination.listPage(query, select, (row) => Row.int(row.id), priorAmount)
})
