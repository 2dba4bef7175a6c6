import { Effect } from "effect"
import { SqlClient } from "effect/sql"
import { ApiError, TaxForms } from "@ledger/api"
import { reference } from "../kernel/Actor.ts"
import { requireCompanyId } from "../kernel/CompanyContext.ts"
import * as Handler from "../kernel/Handler.ts"
import { RequestContext } from "../kernel/RequestContext.ts"
import * as AmountRules from "./AmountRules.ts"
import * as BooksStore from "./BooksStore.ts"
import * as FormsStore from "./FormsStore.ts"
import * as TinRules from "./TinRules.ts"

/** A year's 1099 amounts by vendor and box (AmountRules.ts), and prior amounts entered outside Ledger. */

type Box = TaxForms.Shared.Box
type Recipient = TaxForms.Amounts.Recipient

interface Totals {
  readonly boxes: Map<Box, number>
  prior: number
  card: number
  journal: number
}

/** Whether a recipient's amounts call for a form: NEC or any MISC box at its threshold. */
const formsDue = (boxes: ReadonlyMap<Box, number>, threshold: number): Array<"1099-NEC" | "1099-MISC"> => {
  const forms: Array<"1099-NEC" | "1099-MISC"> = []
  if ((boxes.get("NEC1") ?? 0) >= threshold && (boxes.get("NEC1") ?? 0) > 0) forms.push("1099-NEC")
  const misc = AmountRules.boxes.filter((box) => box !== "NEC1").some((box) => {
    const amount = boxes.get(box) ?? 0
    return amount > 0 && amount >= (box === "MISC2" ? AmountRules.royaltiesThreshold : threshold)
  })
  if (misc) forms.push("1099-MISC")
  return forms
}

type PriorAmount = TaxForms.Amounts.PriorAmount
type AccountBox = (account: string) => Box | undefined

/** Each vendor's totals by box: payments by their accounts' boxes, hand-posted entries, prior amounts; card payments apart (a card network reports them). */
const totalsOf = (
  payments: ReadonlyArray<AmountRules.Payment>, entries: ReadonlyArray<AmountRules.EntryPayment>, prior: ReadonlyArray<PriorAmount>, accountBox: AccountBox, vendorBoxes: ReadonlyMap<number, Box>
): Map<number, Totals> => {
  const totals = new Map<number, Totals>()
  const of = (id: number) => totals.get(id) ?? totals.set(id, { boxes: new Map(), prior: 0, card: 0, journal: 0 }).get(id)!
  const add = (entry: Totals, allocated: Iterable<readonly [Box, number]>) => {
    for (const [box, cents] of allocated) entry.boxes.set(box, (entry.boxes.get(box) ?? 0) + cents)
  }
  for (const payment of payments) {
    const entry = of(payment.contactId)
    if (payment.byCard) entry.card += payment.amountCents
    else add(entry, AmountRules.allocate(payment, accountBox, vendorBoxes.get(payment.contactId) ?? "NEC1"))
  }
  for (const payment of entries) {
    const entry = of(payment.contactId)
    if (payment.byCard) {
      entry.card += payment.amountCents
      continue
    }
    entry.journal += payment.amountCents
    add(entry, AmountRules.allocateEntry(payment, accountBox, vendorBoxes.get(payment.contactId) ?? "NEC1"))
  }
  for (const amount of prior) {
    const entry = of(amount.contact_id)
    add(entry, [[amount.box, amount.amount_cents]])
    entry.prior += amount.amount_cents
  }
  return totals
}

type Profile = Record<string, unknown>

/** One vendor's line of the summary: its boxes, the forms they call for, and what is missing to file them. */
const recipientOf = (id: number, entry: Totals, profile: Profile | undefined, vendorName: string, threshold: number): Recipient => {
  const forms = formsDue(entry.boxes, threshold)
  const nec = entry.boxes.get("NEC1") ?? 0
  const total = [...entry.boxes.values()].reduce((a, b) => a + b, 0)
  return {
    contact_id: id,
    name: profile === undefined ? vendorName : String(profile.legal_name),
    tin_masked: profile === undefined ? null : TinRules.mask(String(profile.tin_type), String(profile.tin_last4)),
    has_tax_profile: profile !== undefined,
    boxes: AmountRules.boxes.filter((box) => (entry.boxes.get(box) ?? 0) !== 0).map((box) => ({ box, amount_cents: entry.boxes.get(box)! })),
    nec_cents: nec,
    misc_cents: total - nec,
    prior_cents: entry.prior,
    journal_entry_cents: entry.journal,
    card_payments_excluded_cents: entry.card,
    forms,
    issues: forms.length > 0 && profile === undefined ? ["No tax profile (W-9): the TIN and address are missing."] : []
  }
}

export const summary = Effect.fn("Amounts.summary")(function*(company: string, year: number, thresholdCents: number | undefined) {
  const threshold = thresholdCents ?? AmountRules.thresholdOf(year)
  const [payments, entries, accountBoxes, vendorBoxes, prior] = [
    yield* BooksStore.payments(company, year),
    yield* BooksStore.entryPayments(company, year),
    yield* FormsStore.accountBoxes(company),
    yield* FormsStore.vendorBoxes(company),
    yield* FormsStore.priorAmounts(company, year, false)
  ]
  const totals = totalsOf(payments, entries.paid, prior, (account) => accountBoxes.get(account), vendorBoxes)
  const ids = [...totals.keys()].sort((a, b) => a - b)
  const vendors = yield* BooksStore.vendors(company, ids)
  const profiles = yield* FormsStore.currentProfiles(company, ids)
  const recipients = ids.map((id) => recipientOf(id, totals.get(id)!, profiles.get(id), vendors.get(id)?.name ?? "", threshold))
  const due = recipients.filter((recipient) => recipient.forms.length > 0)
  return {
    year,
    threshold_cents: threshold,
    threshold_source: thresholdCents !== undefined ? "request" : year <= 2025 ? "IRC 6041: $600 for payments through 2025" : "IRC 6041 as amended by Public Law 119-21: $2,000 for payments after 2025",
    recipients: due,
    below_threshold: recipients.filter((recipient) => recipient.forms.length === 0),
    total_nec_cents: due.reduce((sum, recipient) => sum + (recipient.forms.includes("1099-NEC") ? recipient.nec_cents : 0), 0),
    total_misc_cents: due.reduce((sum, recipient) => sum + (recipient.forms.includes("1099-MISC") ? recipient.misc_cents : 0), 0),
    issues: entries.truncated ? ["More hand-posted journal entries name contacts this year than are read at once: amounts may be incomplete."] : []
  } satisfies TaxForms.Amounts.Summary
})

export const handlers = [
  Handler.make(TaxForms.Amounts.get1099Summary, ({ query }) =>
    Effect.gen(function*() {
      const company = yield* requireCompanyId
      return { body: yield* summary(company, query.year, query.threshold_cents) }
    })),

  Handler.make(TaxForms.Amounts.listPriorAmounts, ({ query }) =>
    Effect.gen(function*() {
      const company = yield* requireCompanyId
      const page = yield* FormsStore.priorAmountsPage(company, query.year, query.include_voided === true, query)
      return { body: page }
    })),

  Handler.make(TaxForms.Amounts.createPriorAmounts, ({ body }) =>
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      const request = yield* RequestContext
      const company = yield* requireCompanyId
      const ids = [...new Set(body.amounts.map((amount) => amount.contact_id))]
      const vendors = yield* BooksStore.vendors(company, ids)
      const issues = body.amounts.flatMap((amount, index) =>
        vendors.has(amount.contact_id) ? [] : [{ path: ["body", "amounts", index, "contact_id"], message: `Contact ${amount.contact_id} is not a vendor.` }])
      if (issues.length > 0) return yield* Effect.fail(ApiError.fail("not_a_vendor", "Prior amounts are for vendors.", { issues }))
      const values = body.amounts.map((amount) => ({
        company_id: company,
        year: amount.year,
        contact_id: amount.contact_id,
        box: amount.box,
        amount_cents: amount.amount_cents,
        note: amount.note ?? null,
        created_by: reference(request.actor),
        created_at: request.now
      }))
      const rows = yield* sql<Record<string, unknown>>`INSERT INTO tax_prior_amounts ${sql.insert(values as [typeof values[number], ...typeof values])} RETURNING *`.pipe(Effect.orDie)
      const data = rows.map(FormsStore.priorAmount).sort((a, b) => a.id - b.id)
      return { body: { data }, audit: { targetType: "prior_amounts", details: { ids: data.map((amount) => amount.id) } } }
    })),

  Handler.make(TaxForms.Amounts.voidPriorAmount, ({ path, body }) =>
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      const request = yield* RequestContext
      const company = yield* requireCompanyId
      const rows = yield* sql<Record<string, unknown>>`SELECT * FROM tax_prior_amounts WHERE company_id = ${company} AND id = ${path.id} FOR UPDATE`.pipe(Effect.orDie)
      if (rows[0] === undefined) return yield* Effect.fail(ApiError.notFound("prior amount"))
      if (rows[0].voided === true) return yield* Effect.fail(ApiError.fail("prior_amount_voided", "The prior amount is already void."))
      const updated = yield* sql<Record<string, unknown>>`UPDATE tax_prior_amounts SET voided = true, void_reason = ${body.reason},
        voided_at = ${request.now} WHERE company_id = ${company} AND id = ${path.id} RETURNING *`.pipe(Effect.orDie)
      return { body: FormsStore.priorAmount(updated[0]!), audit: { targetType: "prior_amount", targetId: path.id, reason: body.reason } }
    }))
]
