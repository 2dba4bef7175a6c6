import { Effect } from "effect"
import { SqlClient } from "effect/sql"
import { ApiError, TaxForms } from "@ledger/api"
import { reference } from "../kernel/Actor.ts"
import { requireCompanyId } from "../kernel/CompanyContext.ts"
import * as Handler from "../kernel/Handler.ts"
import * as Pagination from "../kernel/Pagination.ts"
import { RequestContext } from "../kernel/RequestContext.ts"
import * as BooksStore from "./BooksStore.ts"
import * as FormsStore from "./FormsStore.ts"
import * as TinRules from "./TinRules.ts"

/** The payer on the company's 1099s, and which box an account's or a vendor's payments go in. */

export const handlers = [
  Handler.make(TaxForms.Payer.getPayer, () =>
    Effect.gen(function*() {
      const company = yield* requireCompanyId
      return { body: FormsStore.payer(yield* FormsStore.payerRow(company)) }
    })),

  Handler.make(TaxForms.Payer.setPayer, ({ body }) =>
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      const request = yield* RequestContext
      const company = yield* requireCompanyId
      const before = yield* FormsStore.payerRow(company)
      if (before === undefined && body.tin === undefined) {
        return yield* Effect.fail(ApiError.fail("tin_required", "The payer's TIN is needed the first time.", { issues: [{ path: ["body", "tin"], message: "Required" }] }))
      }
      const tin = body.tin === undefined
        ? { tin_sealed: String(before!.tin_sealed), tin_last4: String(before!.tin_last4) }
        : { tin_sealed: yield* FormsStore.seal(body.tin, FormsStore.payerBinding(company)), tin_last4: TinRules.lastFour(body.tin) }
      const row = {
        company_id: company,
        name: body.name,
        name2: body.name2 ?? null,
        address1: body.address1,
        address2: body.address2 ?? null,
        city: body.city,
        state: body.state,
        zip: body.zip,
        phone: body.phone,
        tin_type: body.tin_type,
        ...tin,
        updated_by: reference(request.actor),
        updated_at: request.now
      }
      const { company_id: _company, ...changes } = row
      yield* sql`INSERT INTO tax_payers ${sql.insert(row)} ON CONFLICT (company_id) DO UPDATE SET ${sql.update(changes)}`.pipe(Effect.orDie)
      return {
        body: FormsStore.payer(yield* FormsStore.payerRow(company)),
        audit: { targetType: "tax_payer", targetId: company, details: { tin_changed: body.tin !== undefined } }
      }
    })),

  Handler.make(TaxForms.Payer.listAccountBoxes, ({ query }) =>
    Effect.gen(function*() {
      const company = yield* requireCompanyId
      const boxes = [...(yield* FormsStore.accountBoxes(company))].map(([account, box]) => ({ account, box }))
      // In account code order; the cursor is the position of the last one shown.
      const limit = Pagination.limitOf(query)
      const start = (yield* Pagination.afterId(query)) ?? 0
      const rows = boxes.slice(start, start + limit + 1).map((entry, index) => ({ entry, position: start + index + 1 }))
      return { body: Pagination.page(rows, limit, (row) => row.position, (row) => row.entry) }
    })),

  Handler.make(TaxForms.Payer.setAccountBox, ({ body }) =>
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      const request = yield* RequestContext
      const company = yield* requireCompanyId
      if (!(yield* BooksStore.accountExists(company, body.account))) {
        return yield* Effect.fail(ApiError.fail("unknown_account", `No account ${body.account}.`, { issues: [{ path: ["body", "account"], message: "No such account" }] }))
      }
      if (body.box === null) {
        yield* sql`DELETE FROM tax_account_boxes WHERE company_id = ${company} AND account_code = ${body.account}`.pipe(Effect.orDie)
      } else {
        yield* sql`INSERT INTO tax_account_boxes ${sql.insert({ company_id: company, account_code: body.account, box: body.box, updated_at: request.now })}
          ON CONFLICT (company_id, account_code) DO UPDATE SET box = EXCLUDED.box, updated_at = EXCLUDED.updated_at`.pipe(Effect.orDie)
      }
      return { body: { account: body.account, box: body.box }, audit: { targetType: "account", targetId: body.account, details: { box: body.box } } }
    })),

  Handler.make(TaxForms.Payer.setVendorBox, ({ path, body }) =>
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      const request = yield* RequestContext
      const company = yield* requireCompanyId
      yield* BooksStore.vendor(company, path.id)
      if (body.box === null) {
        yield* sql`DELETE FROM tax_vendor_boxes WHERE company_id = ${company} AND contact_id = ${path.id}`.pipe(Effect.orDie)
      } else {
        yield* sql`INSERT INTO tax_vendor_boxes ${sql.insert({ company_id: company, contact_id: path.id, box: body.box, updated_at: request.now })}
          ON CONFLICT (company_id, contact_id) DO UPDATE SET box = EXCLUDED.box, updated_at = EXCLUDED.updated_at`.pipe(Effect.orDie)
      }
      return { body: { contact_id: path.id, box: body.box }, audit: { targetType: "contact", targetId: path.id, details: { box: body.box } } }
    }))
]
