import { Effect } from "effect"
import { SqlClient } from "effect/sql"
import type { Profile } from "@ledger/api"
import * as Row from "../kernel/Row.ts"
import * as ProfileRules from "./ProfileRules.ts"

/** SQL of the company profile: one row per company, made on its first change. */

export const textFields = [
  "legal_name", "dba", "address_line1", "address_line2", "city", "region", "postal_code", "phone", "email", "website",
  "sales_tax_id", "payment_instructions", "footer_text"
] as const

export const load = Effect.fn("ProfileStore.load")(function*(company: string, lock = false) {
  const sql = yield* SqlClient.SqlClient
  const rows = yield* sql<Record<string, unknown>>`SELECT * FROM company_profiles WHERE company_id = ${company} ${lock ? sql`FOR UPDATE` : sql``}`
    .pipe(Effect.orDie)
  return rows[0] ?? null
})

export const upsert = Effect.fn("ProfileStore.upsert")(function*(company: string, values: Record<string, unknown>, now: string) {
  const sql = yield* SqlClient.SqlClient
  yield* sql`INSERT INTO company_profiles (company_id, updated_at) VALUES (${company}, ${now}) ON CONFLICT (company_id) DO NOTHING`.pipe(Effect.orDie)
  const rows = yield* sql<Record<string, unknown>>`UPDATE company_profiles SET ${sql.update({ ...values, updated_at: now })}
    WHERE company_id = ${company} RETURNING *`.pipe(Effect.orDie)
  return rows[0]!
})

const text = (value: unknown) => (value as string | null | undefined) ?? null

export const present = (row: Record<string, unknown> | null, admin: boolean): Profile.Records.Profile => {
  const value = row ?? {}
  return {
    legal_name: text(value.legal_name),
    dba: text(value.dba),
    address_line1: text(value.address_line1),
    address_line2: text(value.address_line2),
    city: text(value.city),
    region: text(value.region),
    postal_code: text(value.postal_code),
    country: text(value.country) ?? "US",
    phone: text(value.phone),
    email: text(value.email),
    website: text(value.website),
    ein: ProfileRules.showEin(text(value.ein), admin),
    show_ein: value.show_ein === true,
    sales_tax_id: text(value.sales_tax_id),
    brand_color: text(value.brand_color),
    payment_instructions: text(value.payment_instructions),
    footer_text: text(value.footer_text),
    logo: value.logo_media_type === null || value.logo_media_type === undefined
      ? null
      : {
        media_type: value.logo_media_type as "image/png" | "image/svg+xml",
        size_bytes: Row.bytesOrNull(value.logo)?.byteLength ?? 0,
        width: Row.intOrNull(value.logo_width),
        height: Row.intOrNull(value.logo_height),
        file_name: text(value.logo_file_name),
        updated_at: Row.iso(value.logo_updated_at)
      },
    updated_at: value.updated_at === undefined ? null : Row.iso(value.updated_at)
  }
}
