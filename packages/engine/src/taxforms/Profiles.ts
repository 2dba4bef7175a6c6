import { Effect } from "effect"
import { SqlClient } from "effect/sql"
import { ApiError, TaxForms } from "@ledger/api"
import { reference } from "../kernel/Actor.ts"
import { requireCompanyId } from "../kernel/CompanyContext.ts"
import * as Handler from "../kernel/Handler.ts"
import * as Row from "../kernel/Row.ts"
import { RequestContext } from "../kernel/RequestContext.ts"
import { InformationReturns } from "../ports/InformationReturns.ts"
import * as BooksStore from "./BooksStore.ts"
import * as FormsStore from "./FormsStore.ts"

/**
 * Vendors' tax profiles (their W-9 details): the TIN sealed at rest and masked on every read; the
 * full TIN only to a person holding `admin` (the right to see full tax ids, ADR 1304), each reveal
 * audit-logged; TIN matching through the filing provider, recorded.
 */

const currentRow = Effect.fn("Profiles.currentRow")(function*(company: string, contactId: number) {
  yield* BooksStore.vendor(company, contactId)
  const row = (yield* FormsStore.currentProfiles(company, [contactId])).get(contactId)
  if (row === undefined) return yield* Effect.fail(ApiError.fail("tax_profile_missing", "The vendor has no tax profile yet (POST /v1/vendors/{id}/tax-profile or a W-9 request)."))
  return row
})

export const notConfigured = ApiError.fail("tax_filing_not_configured", "No information-return filing provider is configured (LEDGER_TAX_FILING_URL).")

export const handlers = [
  Handler.make(TaxForms.Profiles.getVendorTaxProfile, ({ path }) =>
    Effect.gen(function*() {
      const company = yield* requireCompanyId
      const row = (yield* FormsStore.currentProfiles(company, [(yield* BooksStore.vendor(company, path.id)).id])).get(path.id)
      if (row === undefined) return yield* Effect.fail(ApiError.notFound("tax profile"))
      return { body: FormsStore.profile(row) }
    })),

  Handler.make(TaxForms.Profiles.setVendorTaxProfile, ({ path, body }) =>
    Effect.gen(function*() {
      const request = yield* RequestContext
      const company = yield* requireCompanyId
      yield* BooksStore.vendor(company, path.id)
      const row = yield* FormsStore.insertProfile(company, path.id, body, "entered", reference(request.actor), request.now)
      const created = FormsStore.profile(row)
      return { body: created, audit: { targetType: "contact", targetId: path.id, details: { profile_id: created.id, tin_masked: created.tin_masked } } }
    })),

  Handler.make(TaxForms.Profiles.revealVendorTin, ({ path }) =>
    Effect.gen(function*() {
      const request = yield* RequestContext
      if (!request.actor.isPerson || !request.actor.scopes.includes("admin")) {
        return yield* Effect.fail(ApiError.fail("insufficient_scope", "Only a person with the right to see full tax ids (admin) may reveal a TIN."))
      }
      const company = yield* requireCompanyId
      const row = yield* currentRow(company, path.id)
      const tin = yield* FormsStore.open(String(row.tin_sealed), FormsStore.vendorBinding(company, path.id))
      // The pipeline writes this operation's audit event (mode "-"), with what was revealed.
      return {
        body: { contact_id: path.id, profile_id: Row.int(row.id), tin_type: row.tin_type as "SSN", tin },
        audit: { targetType: "contact", targetId: path.id, details: { revealed: "tin", profile_id: Row.int(row.id) } }
      }
    })),

  Handler.make(TaxForms.Profiles.matchVendorTin, ({ path }) =>
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      const request = yield* RequestContext
      const filer = yield* InformationReturns
      const company = yield* requireCompanyId
      const row = yield* currentRow(company, path.id)
      if (!filer.configured) return yield* Effect.fail(notConfigured)
      const tin = yield* FormsStore.open(String(row.tin_sealed), FormsStore.vendorBinding(company, path.id))
      const answer = yield* filer.matchTin({ name: String(row.legal_name), tin, tinType: row.tin_type as "SSN" }).pipe(
        Effect.catchTag("FilingFailure", () => Effect.succeed({ result: "unavailable" as const, reference: null }))
      )
      const inserted = yield* sql<Record<string, unknown>>`INSERT INTO tax_tin_matches ${sql.insert({
        company_id: company,
        contact_id: path.id,
        profile_id: Row.int(row.id),
        result: answer.result,
        provider_reference: answer.reference,
        created_by: reference(request.actor),
        created_at: request.now
      })} RETURNING *`.pipe(Effect.orDie)
      yield* sql`UPDATE tax_vendor_profiles SET tin_match = ${answer.result}, tin_match_at = ${request.now}
        WHERE company_id = ${company} AND id = ${Row.int(row.id)}`.pipe(Effect.orDie)
      const match = inserted[0]!
      return {
        body: {
          id: Row.int(match.id),
          contact_id: path.id,
          profile_id: Row.int(row.id),
          result: answer.result,
          provider_reference: answer.reference,
          created_by: String(match.created_by),
          created_at: Row.iso(match.created_at)
        },
        audit: { targetType: "contact", targetId: path.id, details: { tin_match: answer.result } }
      }
    }))
]
