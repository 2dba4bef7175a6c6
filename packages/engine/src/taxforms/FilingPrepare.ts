import { Effect } from "effect"
import { SqlClient } from "effect/sql"
import { ApiError, type TaxForms } from "@ledger/api"
import * as Amounts from "./Amounts.ts"
import type { Box } from "./AmountRules.ts"
import * as FilingContent from "./FilingContent.ts"
import * as FormsStore from "./FormsStore.ts"

/**
 * What a filing files, read from the books and the profiles: the payer, and a B record's worth
 * per recipient and form. An original files every recipient at the threshold (or those named);
 * a correction files the named recipients as Publication 1220 describes: `amounts` one G record
 * with the right amounts, `name_tin` a G record of the superseded profile with zero amounts and a
 * C record of the current one.
 */

type Body = typeof TaxForms.Filings.createFiling.body.Type

const personOf = (row: Record<string, unknown>, tin: string): FilingContent.Person => ({
  name: String(row.legal_name ?? row.name),
  name2: (row.business_name as string | null | undefined) ?? (row.name2 as string | null | undefined) ?? null,
  address: [row.address1, row.address2].filter((part) => typeof part === "string" && part !== "").join(" "),
  city: String(row.city),
  state: String(row.state),
  zip: String(row.zip).replace(/\D/g, ""),
  tinType: String(row.tin_type),
  tin,
  individual: row.tax_class === "individual" || (row.tax_class === undefined && row.tin_type !== "EIN")
})

const superseded = Effect.fn("FilingPrepare.superseded")(function*(company: string, contactId: number) {
  const sql = yield* SqlClient.SqlClient
  const rows = yield* sql<Record<string, unknown>>`SELECT * FROM tax_vendor_profiles WHERE company_id = ${company}
    AND contact_id = ${contactId} AND superseded_at IS NOT NULL ORDER BY superseded_at DESC, id DESC LIMIT 1`.pipe(Effect.orDie)
  return rows[0]
})

export const prepare = Effect.fn("FilingPrepare.prepare")(function*(company: string, body: Body) {
  const payerRow = yield* FormsStore.payerRow(company)
  if (payerRow === undefined) return yield* Effect.fail(ApiError.fail("payer_not_set", "Set the payer first (POST /v1/tax-forms/payer)."))
  const kind = body.kind ?? "original"
  const corrections = body.corrections ?? []
  if (kind === "correction" && corrections.length === 0) {
    return yield* Effect.fail(ApiError.validationFailed("A correction names the recipients it corrects.", [{ path: ["body", "corrections"], message: "Required for a correction" }]))
  }
  const summary = yield* Amounts.summary(company, body.year, body.threshold_cents)
  const everyone = [...summary.recipients, ...summary.below_threshold]
  const chosen = kind === "correction"
    ? corrections.map((correction) => everyone.find((recipient) => recipient.contact_id === correction.contact_id) ?? null)
    : summary.recipients.filter((recipient) => body.contact_ids === undefined || body.contact_ids.includes(recipient.contact_id))
  const recipients = chosen.filter((recipient) => recipient !== null)
  const ids = recipients.map((recipient) => recipient.contact_id)
  const profiles = yield* FormsStore.currentProfiles(company, ids)
  const missing = ids.filter((id) => !profiles.has(id))
  if (missing.length > 0) return yield* Effect.fail(ApiError.fail("tax_profile_missing", "Some recipients have no tax profile (W-9).", { contact_ids: missing }))
  const payees: Array<FilingContent.Payee> = []
  for (const recipient of recipients) {
    const row = profiles.get(recipient.contact_id)!
    const person = personOf(row, yield* FormsStore.open(String(row.tin_sealed), FormsStore.vendorBinding(company, recipient.contact_id)))
    const boxes = new Map<Box, number>(recipient.boxes.map((entry) => [entry.box, entry.amount_cents]))
    const forms = kind === "correction" ? [...new Set(recipient.boxes.map((entry) => entry.box === "NEC1" ? "1099-NEC" as const : "1099-MISC" as const))] : recipient.forms
    const type = corrections.find((correction) => correction.contact_id === recipient.contact_id)?.type
    for (const form of forms) {
      if (type === "name_tin") {
        const old = yield* superseded(company, recipient.contact_id)
        if (old !== undefined) {
          const oldPerson = personOf(old, yield* FormsStore.open(String(old.tin_sealed), FormsStore.vendorBinding(company, recipient.contact_id)))
          payees.push({ contactId: recipient.contact_id, form, corrected: "G", person: oldPerson, boxes: new Map() })
        }
        payees.push({ contactId: recipient.contact_id, form, corrected: "C", person, boxes })
      } else {
        payees.push({ contactId: recipient.contact_id, form, corrected: type === "amounts" ? "G" : "", person, boxes })
      }
    }
  }
  if (payees.length === 0) return yield* Effect.fail(ApiError.fail("nothing_to_file", `No recipient reaches the threshold for ${body.year}.`, { threshold_cents: summary.threshold_cents }))
  const payerTin = yield* FormsStore.open(String(payerRow.tin_sealed), FormsStore.payerBinding(company))
  const input: FilingContent.Input = {
    year: body.year,
    test: body.provider === "partner_mock",
    payer: { ...personOf(payerRow, payerTin), phone: String(payerRow.phone), email: null, individual: payerRow.tin_type !== "EIN" },
    payees
  }
  const nec = payees.filter((payee) => payee.form === "1099-NEC").reduce((sum, payee) => sum + (payee.boxes.get("NEC1") ?? 0), 0)
  const misc = payees.filter((payee) => payee.form === "1099-MISC").reduce((sum, payee) => sum + [...payee.boxes].reduce((total, [box, cents]) => total + (box === "NEC1" ? 0 : cents), 0), 0)
  return { input, kind, threshold: summary.threshold_cents, contactIds: [...new Set(ids)], corrections, totals: { nec, misc }, payeeCount: payees.length }
})

