import { Effect } from "effect"
import { AccountStore, LedgerReaders } from "../ledger/index.ts"
import { VendorReaders } from "../sales/index.ts"
import type { EntryPayment, Payment } from "./AmountRules.ts"
import * as AmountRules from "./AmountRules.ts"

/**
 * What the 1099s read of the books, through the readers the owning areas offer (sales'
 * VendorReaders, the ledger's AccountStore and LedgerReaders): no query here touches their tables.
 */

export type Vendor = VendorReaders.Vendor

/** The vendor, or 404 for a contact of another company or none; 422 `not_a_vendor` for a customer. */
export const vendor = (company: string, id: number) => VendorReaders.vendor(company, id)

export const vendors = (company: string, ids: ReadonlyArray<number>) => VendorReaders.vendors(company, ids)

export const accountExists = Effect.fn("BooksStore.accountExists")(function*(company: string, code: string) {
  return (yield* AccountStore.accountRow(company, code)) !== undefined
})

/**
 * Payments made in `year` to vendors marked for 1099s, not voided, each with the bill lines its
 * live applications paid. `byCard`: paid from a card or processor account (reported on 1099-K).
 */
export const payments = Effect.fn("BooksStore.payments")(function*(company: string, year: number) {
  const made = yield* VendorReaders.paymentsMadeTo1099Vendors(company, `${year}-01-01`, `${year}-12-31`)
  return made.map((payment): Payment => ({
    id: payment.id,
    contactId: payment.contactId,
    amountCents: payment.amountCents,
    byCard: AmountRules.settledByThirdParty(payment.accountSubtype),
    lines: payment.lines
  }))
})

/**
 * What hand-posted journal entries dated in `year` paid 1099 vendors they name (AmountRules
 * entryPayments). `truncated` when the year held more such entries than the ledger reads at once.
 */
export const entryPayments = Effect.fn("BooksStore.entryPayments")(function*(company: string, year: number) {
  const { entries, truncated } = yield* LedgerReaders.manualEntriesNamingContacts(company, `${year}-01-01`, `${year}-12-31`)
  const ids = [...new Set(entries.flatMap((entry) => entry.lines.flatMap((line) => line.contactId === null ? [] : [line.contactId])))]
  const named = yield* VendorReaders.vendors(company, ids)
  const reportable = (id: number) => named.get(id)?.is1099 === true
  const paid: Array<EntryPayment> = entries.flatMap((entry) => AmountRules.entryPayments(entry.lines, reportable))
  return { paid, truncated }
})
