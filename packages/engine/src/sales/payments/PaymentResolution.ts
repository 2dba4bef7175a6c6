import { Effect } from "effect"
import { SqlClient } from "effect/sql"
import { ApiError, type Sales } from "@ledger/api"
import * as Outbox from "../../pipeline/Outbox.ts"
import { RequestContext } from "../../kernel/RequestContext.ts"
import { requireCompanyId } from "../../kernel/CompanyContext.ts"
import * as Row from "../../kernel/Row.ts"
import * as AccountStore from "../common/AccountStore.ts"
import * as Applications from "../documents/Applications.ts"
import { actorReference, type ContactRow, loadContact } from "../common/Common.ts"
import { type Entry, paymentEntry } from "../documents/DocumentPosting.ts"

/**
 * Payments received from customers and made to vendors. A payment posts its whole amount against
 * AR or AP (Dr bank, Cr AR; Dr AP, Cr bank); applications set it against invoices or bills, and
 * whatever is not applied stays as credit on account, to apply later or refund.
 */
export type Direction = "received" | "made"

export interface ResolvedPayment {
  readonly direction: Direction
  readonly contactId: number
  readonly contactName: string
  readonly paymentDate: string
  readonly account: string
  readonly controlAccount: string
  readonly amountCents: number
  readonly applications: ReadonlyArray<Applications.ApplicationInput>
  readonly number: string | null
  readonly reference: string | null
  readonly memo: string | null
  readonly bankLineId: number | null
}

const sideOf = (direction: Direction) => direction === "received" ? "sales" as const : "purchases" as const

export const sourceOf = (payment: ResolvedPayment, paymentId: number | null, alreadyApplied = 0): Applications.Source => ({
  paymentId,
  creditDocumentId: null,
  contactId: payment.contactId,
  side: sideOf(payment.direction),
  controlAccount: payment.controlAccount,
  date: payment.paymentDate,
  availableCents: payment.amountCents - alreadyApplied
})

/** A bank line the payment categorizes: its account, date and amount fill what the body left out. */
export interface BankLineFacts {
  readonly account: string
  readonly date: string
  readonly amountCents: number
}

export const resolve = Effect.fn("PaymentResolution.resolve")(function*(
  company: string,
  direction: Direction,
  body: Sales.Payments.PaymentBody,
  bankLine: BankLineFacts | null
) {
  const request = yield* RequestContext
  const contact: ContactRow = yield* loadContact(company, body.contact_id, direction === "received" ? "customer" : "vendor")
  // The spec makes `account` optional: money received waits in undeposited funds until a deposit
  // moves it to the bank; money paid leaves the first bank account (ADR 0307).
  const account = body.account ?? bankLine?.account ?? (yield* AccountStore.defaultPaymentAccount(company, direction))
  const facts = yield* AccountStore.requireUsable(company, [{ code: account, path: ["body", "account"] }])
  const accountFacts = facts.get(account)!
  if (accountFacts.control !== null || !["asset", "liability"].includes(accountFacts.type)) {
    return yield* Effect.fail(ApiError.validationFailed("Payments go through a bank, cash or card account.", [{ path: ["body", "account"], message: "Not a bank, cash or card account" }]))
  }
  const control = direction === "received" ? "ar" : "ap"
  const controlAccount = body.control_account ?? (yield* AccountStore.defaultControl(company, control))
  const controlFacts = yield* AccountStore.requireUsable(company, [{ code: controlAccount, path: ["body", "control_account"] }])
  if (controlFacts.get(controlAccount)!.control !== control) {
    return yield* Effect.fail(ApiError.validationFailed(`The control account must be an ${control.toUpperCase()} account.`, [{ path: ["body", "control_account"], message: "Not a control account" }]))
  }
  const applications = body.applications ?? []
  const applied = applications.reduce((sum, application) => sum + application.amount_cents, 0)
  const amount = body.amount_cents ?? bankLine?.amountCents ?? (applied > 0 ? applied : undefined)
  if (amount === undefined) {
    return yield* Effect.fail(ApiError.validationFailed("Give amount_cents, applications or a bank line.", [{ path: ["body", "amount_cents"], message: "Required" }]))
  }
  if (bankLine !== null && amount !== bankLine.amountCents) {
    return yield* Effect.fail(ApiError.validationFailed(`The bank line is for ${bankLine.amountCents} cents.`, [{ path: ["body", "amount_cents"], message: "Differs from the bank line" }]))
  }
  if (bankLine !== null && bankLine.account !== account) {
    return yield* Effect.fail(ApiError.validationFailed(`The bank line is in account ${bankLine.account}.`, [{ path: ["body", "account"], message: "Differs from the bank line's account" }]))
  }
  const payment: ResolvedPayment = {
    direction,
    contactId: contact.id,
    contactName: contact.name,
    paymentDate: body.payment_date ?? bankLine?.date ?? request.today,
    account,
    controlAccount,
    amountCents: amount,
    applications,
    number: body.number ?? null,
    reference: body.reference ?? null,
    memo: body.memo ?? null,
    bankLineId: body.bank_line_id ?? null
  }
  yield* Applications.check(company, sourceOf(payment, null), applications, payment.paymentDate)
  return payment
})

export const entryOf = (payment: ResolvedPayment): Entry =>
  paymentEntry({
    direction: payment.direction,
    contactId: payment.contactId,
    date: payment.paymentDate,
    memo: payment.memo ?? `Payment ${payment.direction === "received" ? "from" : "to"} ${payment.contactName}`,
    account: payment.account,
    controlAccount: payment.controlAccount,
    amountCents: payment.amountCents
  })

export const summaryOf = (payment: ResolvedPayment): string =>
  `Payment ${payment.direction === "received" ? "from" : "to"} ${payment.contactName}, ${payment.amountCents} cents` +
  (payment.applications.length === 0 ? "" : `, applied to ${payment.applications.length} document${payment.applications.length === 1 ? "" : "s"}`)

export const preview = (payment: ResolvedPayment): Record<string, unknown> => {
  const applied = payment.applications.reduce((sum, application) => sum + application.amount_cents, 0)
  return {
    direction: payment.direction,
    contact_id: payment.contactId,
    payment_date: payment.paymentDate,
    account: payment.account,
    control_account: payment.controlAccount,
    amount_cents: payment.amountCents,
    applied_cents: applied,
    unapplied_cents: payment.amountCents - applied,
    applications: payment.applications,
    number: payment.number,
    reference: payment.reference,
    memo: payment.memo,
    bank_line_id: payment.bankLineId
  }
}

/** Writes a payment whose entry has posted, applies it, and emits its events. */
export const persist = Effect.fn("PaymentResolution.persist")(function*(payment: ResolvedPayment, entryId: number, id: number) {
  const sql = yield* SqlClient.SqlClient
  const request = yield* RequestContext
  const company = yield* requireCompanyId
  yield* sql`INSERT INTO payments ${sql.insert({
    id,
    company_id: company,
    direction: payment.direction,
    contact_id: payment.contactId,
    payment_date: payment.paymentDate,
    account: payment.account,
    control_account: payment.controlAccount,
    amount_cents: payment.amountCents,
    number: payment.number,
    reference: payment.reference,
    memo: payment.memo,
    bank_line_id: payment.bankLineId,
    entry_id: entryId,
    created_by: yield* actorReference,
    created_at: request.now
  })}`.pipe(Effect.orDie)
  yield* Applications.apply(company, sourceOf(payment, id), payment.applications, payment.paymentDate)
  yield* Outbox.emit(payment.direction === "received" ? "payment.received" : "payment.made", {
    payment_id: id,
    contact_id: payment.contactId,
    payment_date: payment.paymentDate,
    amount_cents: payment.amountCents,
    applications: payment.applications,
    entry_id: entryId
  }).pipe(Effect.orDie)
  return id
})

export const loadMany = Effect.fn("PaymentResolution.loadMany")(function*(company: string, ids: ReadonlyArray<number>) {
  const sql = yield* SqlClient.SqlClient
  if (ids.length === 0) return new Map<number, Sales.Payments.Payment>()
  const rows = yield* sql<Record<string, unknown>>`SELECT * FROM payments WHERE company_id = ${company} AND id IN ${sql.in(ids)}`
    .pipe(Effect.orDie)
  const applications = yield* sql<Record<string, unknown>>`SELECT a.*, d.number FROM applications a
    JOIN documents d ON d.company_id = a.company_id AND d.id = a.document_id
    WHERE a.company_id = ${company} AND a.payment_id IN ${sql.in(ids)} ORDER BY a.id`.pipe(Effect.orDie)
  return new Map(rows.map((row): [number, Sales.Payments.Payment] => {
    const id = Row.int(row.id)
    const mine = applications.filter((application) => Row.int(application.payment_id) === id)
    const applied = mine.filter((application) => application.voided_on === null)
      .reduce((sum, application) => sum + Row.int(application.amount_cents), 0)
    const voided = row.voided === true
    const amount = Row.int(row.amount_cents)
    return [id, {
      id,
      direction: row.direction as Direction,
      contact_id: Row.int(row.contact_id),
      payment_date: Row.date(row.payment_date),
      account: String(row.account),
      control_account: String(row.control_account),
      amount_cents: amount,
      applied_cents: applied,
      unapplied_cents: voided ? 0 : amount - applied,
      applications: mine.map((application) => ({
        application_id: Row.int(application.id),
        document_id: Row.int(application.document_id),
        document_number: String(application.number),
        amount_cents: Row.int(application.amount_cents),
        applied_on: Row.date(application.applied_on),
        active: application.voided_on === null
      })),
      number: (row.number as string | null) ?? null,
      reference: (row.reference as string | null) ?? null,
      memo: (row.memo as string | null) ?? null,
      bank_line_id: Row.intOrNull(row.bank_line_id),
      status: voided ? "void" : "posted",
      entry_id: Row.intOrNull(row.entry_id),
      void_entry_id: Row.intOrNull(row.void_entry_id),
      void_reason: (row.void_reason as string | null) ?? null,
      voided_at: Row.isoOrNull(row.voided_at),
      created_at: Row.iso(row.created_at)
    }]
  }))
})

export const load = Effect.fn("PaymentResolution.load")(function*(company: string, id: number) {
  const payment = (yield* loadMany(company, [id])).get(id)
  if (payment === undefined) return yield* Effect.fail(ApiError.notFound("payment"))
  return payment
})
