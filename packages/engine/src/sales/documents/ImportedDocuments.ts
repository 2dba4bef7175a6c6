import { Effect } from "effect"
import { Governed } from "../../ledger/index.ts"
import type { Entry } from "./DocumentPosting.ts"
import * as DocumentResolution from "./DocumentResolution.ts"
import * as DocumentStore from "./DocumentStore.ts"

/**
 * An open document brought over by a migration (ADR 2111): one line, its open balance, against the
 * account that carries the source's balance until the documents take it over. Sales shapes the
 * document and its entry as its own documents are; the migration posts the entry (dated when the
 * books are taken over, its source kind `migration_import`) and the document is written linked to
 * it here, so voiding it, paying it or applying a credit works as for any document.
 */
export interface ImportedDocument {
  readonly kind: "invoice" | "bill" | "credit_memo" | "vendor_credit"
  readonly contactId: number
  readonly contactName: string
  /** The source's number; null takes the kind's next number. */
  readonly number: string | null
  readonly docDate: string
  readonly dueDate: string | null
  readonly controlAccount: string
  /** The other side of the entry: the account the open balance is carried from. */
  readonly account: string
  readonly amountCents: number
  readonly description: string
  /** The entry's date (the document keeps its own date). */
  readonly entryDate: string
}

const resolved = (input: ImportedDocument): DocumentResolution.ResolvedDocument => ({
  kind: input.kind,
  contactId: input.contactId,
  contactName: input.contactName,
  number: input.number,
  docDate: input.docDate,
  dueDate: input.dueDate,
  termsDays: null,
  reference: null,
  memo: input.description,
  controlAccount: input.controlAccount,
  taxRateId: null,
  lines: [{
    lineNo: 1,
    itemId: null,
    description: input.description,
    account: input.account,
    quantity: null,
    unitPriceCents: null,
    amountCents: input.amountCents,
    class: null,
    taxable: false
  }],
  taxLines: [],
  subtotalCents: input.amountCents,
  taxCents: 0,
  totalCents: input.amountCents,
  estimateId: null,
  recurring: null
})

/** The entry the document stands for, as sales would post it, on the entry's date. */
export const entryOf = (input: ImportedDocument): Entry => ({ ...DocumentResolution.entryOf(resolved(input)), date: input.entryDate })

/** Writes the document linked to its posted entry (its number, line, event); answers its id. */
export const persist = (input: ImportedDocument, entryId: number) =>
  Effect.flatMap(Governed.reserveId(), (id) => DocumentStore.persist(resolved(input), entryId, id))
