import { Effect } from "effect"
import { ApiError, Limits } from "@ledger/api"
import * as Row from "../kernel/Row.ts"
import { type JournalEntryRules, JournalEntryStore } from "../ledger/index.ts"
import { ImportedDocuments, insertContact, recordReceivedPayment } from "../sales/index.ts"
import type { SourceAccount, SourceOpenItem } from "./Staging.ts"
import { type Bundle, sideOf } from "./TieoutRules.ts"

/**
 * Lists and open documents at import (ADR 2111): the source's customers and vendors become
 * contacts (through sales), and the source's open invoices, bills and credits become sales
 * documents (and a customer's unapplied payment as a payment) that carry AR and AP from the as-of date. The history already put the source's AR and
 * AP balances in the books; one entry on the as-of date moves them to the migration's clearing
 * account, and each open document's own entry (as sales shapes it, against that account) takes
 * its part back, so the clearing account ends at zero and AR and AP equal their aging.
 */

interface Contact { readonly id: number; readonly name: string }

const emailPattern = /^[^\s@<>(),;:"]+@[^\s@<>(),;:"]+\.[^\s@<>(),;:"]+$/u

/** The source's first usable address: its Email field may hold several, or none that is one. */
const emailOf = (value: string | null | undefined): string | null =>
  (value ?? "").split(/[;,\s]+/).find((address) => address.length <= Limits.emailAddressLengthMax && emailPattern.test(address)) ?? null

/** Customers and vendors as contacts (inactive ones inactive); keyed `ar:`/`ap:` and the source's ListID and full name. */
export const createContacts = Effect.fn("OpenItems.createContacts")(function*(company: string, bundle: Bundle, now: string) {
  const contacts = new Map<string, Contact>()
  const lists = [["customer", "ar", bundle.customers], ["vendor", "ap", bundle.vendors]] as const
  for (const [kind, side, parties] of lists) {
    for (const party of parties) {
      const name = party.name.trim().slice(0, Limits.nameLengthMax) || party.id.slice(0, Limits.nameLengthMax)
      const row = yield* insertContact(company, { kind, name, email: emailOf(party.email), active: party.active ?? true }, now)
      const contact = { id: Row.int(row.id), name }
      contacts.set(`${side}:${party.id}`, contact)
      if (!contacts.has(`${side}:${party.name}`)) contacts.set(`${side}:${party.name}`, contact)
    }
  }
  return contacts
})


/** The ledger code of the AR or AP account an open item sits in: its own, else the first of its side. */
const controlOf = (bundle: Bundle, codes: ReadonlyMap<string, string>, item: SourceOpenItem): string | undefined => {
  const side = sideOf(item.kind)
  const own = item.account === null ? undefined : bundle.accounts.find((account) => account.id === item.account || account.name === item.account)
  const account = own ?? bundle.accounts.find((candidate) => candidate.special === side)
  return account === undefined ? undefined : codes.get(account.id)
}

const post = Effect.fn("OpenItems.post")(function*(entry: JournalEntryRules.DraftEntry) {
  const prepared = yield* JournalEntryStore.prepare(entry)
  return yield* JournalEntryStore.post(prepared, { sourceKind: "migration_import" })
})

/** The entry moving the source's AR and AP balances (natural cents on `asOf`) to the clearing account; null when all are zero. */
export const carryOver = (accounts: ReadonlyArray<SourceAccount>, codes: ReadonlyMap<string, string>, balances: Readonly<Record<string, number>>, clearing: string) => {
  const lines = accounts.flatMap((account) => {
    const cents = balances[account.id] ?? 0
    const code = codes.get(account.id)
    if ((account.special !== "ar" && account.special !== "ap") || cents === 0 || code === undefined) return []
    // AR (an asset) is credited its balance, AP (a liability) debited: both end at zero until the documents come.
    const debit = account.special === "ar" ? -cents : cents
    return [{ account: code, debit_cents: Math.max(debit, 0), credit_cents: Math.max(-debit, 0) }]
  })
  if (lines.length === 0) return null
  const net = lines.reduce((sum, line) => sum + line.debit_cents - line.credit_cents, 0)
  // AR and AP of the same size balance each other: no clearing line then.
  const sided = lines.map(({ debit_cents, credit_cents, account }) => ({ account, ...(debit_cents > 0 ? { debit_cents } : { credit_cents }) }))
  return net === 0 ? sided : [...sided, { account: clearing, ...(net > 0 ? { credit_cents: net } : { debit_cents: -net }) }]
}

/** A source number as the document's, unless missing, too long or already taken in this import (then the kind's next). */
const numberOf = (taken: Set<string>, item: SourceOpenItem, contact: Contact): string | null => {
  if (item.number === null || item.number.length > 40) return null
  const key = `${item.kind}:${sideOf(item.kind) === "ap" ? contact.id : ""}:${item.number}`
  if (taken.has(key)) return null
  taken.add(key)
  return item.number
}

interface Place {
  readonly contact: Contact
  readonly control: string
  readonly clearing: string
  readonly asOf: string
  readonly description: string
}

/** An open invoice, bill or credit: sales shapes it and its entry; its entry posts on the as-of date. */
const openDocument = Effect.fn("OpenItems.openDocument")(function*(item: SourceOpenItem, place: Place & { readonly number: string | null }) {
  const document: ImportedDocuments.ImportedDocument = {
    kind: item.kind as ImportedDocuments.ImportedDocument["kind"],
    contactId: place.contact.id,
    contactName: place.contact.name,
    number: place.number,
    docDate: item.date,
    dueDate: item.due,
    controlAccount: place.control,
    account: place.clearing,
    amountCents: item.openCents,
    description: place.description,
    entryDate: place.asOf
  }
  const entry = yield* post(ImportedDocuments.entryOf(document))
  yield* ImportedDocuments.persist(document, entry.id)
})

/**
 * A customer's payment not applied to any invoice: its unapplied part comes over as a payment
 * received into the clearing account (Dr clearing, Cr AR), applied to nothing, so it stands as the
 * customer's credit, as sales records any payment another area posted.
 */
const unappliedPayment = Effect.fn("OpenItems.unappliedPayment")(function*(item: SourceOpenItem, place: Place) {
  const entry = yield* post({
    date: place.asOf,
    memo: place.description,
    lines: [
      { account: place.clearing, debit_cents: item.openCents },
      { account: place.control, credit_cents: item.openCents, contact_id: place.contact.id }
    ]
  })
  yield* recordReceivedPayment({
    contactId: place.contact.id,
    paymentDate: item.date,
    account: place.clearing,
    controlAccount: place.control,
    amountCents: item.openCents,
    applications: [],
    reference: item.number,
    memo: place.description,
    entryId: entry.id
  })
})

/** The carry-over entry and every open document with its entry; answers how many entries were posted. */
export const carry = Effect.fn("OpenItems.carry")(function*(input: {
  readonly bundle: Bundle
  readonly asOf: string
  readonly codes: ReadonlyMap<string, string>
  readonly balances: Readonly<Record<string, number>>
  readonly clearing: string
  readonly contacts: ReadonlyMap<string, Contact>
  readonly label: string
}) {
  const { bundle, asOf, codes, clearing, contacts, label } = input
  let entries = 0
  const moved = carryOver(bundle.accounts, codes, input.balances, clearing)
  if (moved !== null && moved.length >= 2) {
    yield* post({ date: asOf, memo: `Imported from ${label}: AR and AP as of ${asOf}, carried by the open documents`, lines: moved })
    entries++
  }
  const taken = new Set<string>()
  for (const item of bundle.open ?? []) {
    const contact = item.party === null ? undefined : contacts.get(`${sideOf(item.kind)}:${item.party}`)
    const control = controlOf(bundle, codes, item)
    // The extraction's tie-out already refused a document without its customer or vendor.
    if (contact === undefined || control === undefined) {
      return yield* Effect.fail(ApiError.fail("tieout_failed", `The open ${item.kind} ${item.id} names no customer, vendor or account the extraction has.`))
    }
    const place = { contact, control, clearing, asOf, description: `${item.kind === "payment_received" ? "Unapplied payment" : "Open balance"} brought over from ${label}${item.number === null ? "" : ` (${item.number})`}`.slice(0, 200) }
    yield* item.kind === "payment_received" ? unappliedPayment(item, place) : openDocument(item, { ...place, number: numberOf(taken, item, contact) })
    entries++
  }
  return entries
})
