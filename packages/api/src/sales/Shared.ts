import { Schema } from "effect"
import { Cents, DateString, Id, PositiveCents } from "../Common.ts"
import * as Limits from "../Limits.ts"
import * as Governed from "../ledger/Governed.ts"

/** An account code, as the ledger names accounts on the wire. */
export const AccountCode = Schema.String.check(Schema.isMinLength(1), Schema.isMaxLength(40))

/** A quantity: a decimal string with up to 4 places (DECISIONS.md, DocumentLineInput). */
export const Quantity = Schema.String.check(
  Schema.isPattern(new RegExp(`^\\d{1,${Limits.quantityIntegerDigitsMax}}(\\.\\d{1,${Limits.quantityDecimalPlacesMax}})?$`, "u"))
).annotate({ description: "A decimal string, up to 4 places, e.g. \"1.5\"." })

export const DocumentNumber = Schema.String.check(
  Schema.isMinLength(1),
  Schema.isMaxLength(Limits.documentNumberLengthMax)
).annotate({ description: "The number as printed; assigned from the kind's sequence (INV-, BILL-...) when omitted." })
export const Reference = Schema.String.check(Schema.isMaxLength(Limits.documentReferenceLengthMax)).annotate({
  description: "The other party's reference: a purchase order or their own document number."
})
export const TermsDays = Schema.Int.check(Schema.isBetween({ minimum: 0, maximum: Limits.termsDaysMax })).annotate({
  description: "Payment terms in days: the due date is the document date plus these days."
})
export const Confidence = Schema.Finite.check(Schema.isBetween({ minimum: 0, maximum: 1 })).annotate({
  description: "The agent's confidence, 0 to 1, recorded with the write."
})
export const SoftLockOverrideReason = Schema.String.check(Schema.isMinLength(1), Schema.isMaxLength(Limits.reasonLengthMax))
  .annotate({ description: "Needed to post on a date in a soft-locked period; recorded." })
export const EmailAddress = Schema.String.check(
  Schema.isMaxLength(Limits.emailAddressLengthMax),
  Schema.isPattern(/^[^\s@<>(),;:"]+@[^\s@<>(),;:"]+\.[^\s@<>(),;:"]+$/u)
).annotate({ description: "An email address." })

/** `DocumentLineInput` (DECISIONS.md). */
export const DocumentLineInput = Schema.Struct({
  item_id: Schema.optionalKey(Id),
  description: Schema.optionalKey(Schema.String.check(Schema.isMaxLength(Limits.lineDescriptionLengthMax))),
  account: Schema.optionalKey(AccountCode),
  quantity: Schema.optionalKey(Quantity),
  unit_price_cents: Schema.optionalKey(Cents),
  amount_cents: Schema.optionalKey(Cents),
  class: Schema.optionalKey(Schema.String.check(Schema.isMinLength(1), Schema.isMaxLength(Limits.nameLengthMax))),
  taxable: Schema.optionalKey(Schema.Boolean)
}).annotate({
  identifier: "DocumentLineInput",
  description: "amount_cents may be omitted when quantity and unit_price_cents are given (rounded half away from zero); " +
    "the account comes from the line, else the item, else the company's default income or expense account."
})
export type DocumentLineInput = typeof DocumentLineInput.Type

export const DocumentLines = Schema.Array(DocumentLineInput).check(
  Schema.isMinLength(1),
  Schema.isMaxLength(Limits.documentLinesMax)
).annotate({ description: "The document's lines, at least one: an item or account, quantity and price or an amount." })

/** Applications of payments and credits (DECISIONS.md). */
export const Application = Schema.Struct({ document_id: Id, amount_cents: PositiveCents })
export const Applications = Schema.Array(Application).check(Schema.isMaxLength(Limits.applicationsMax)).annotate({
  description: "Which open documents this pays or credits, and how much of each (document_id, amount_cents)."
})

/** The fields every governed write takes. */
export const governedFields = {
  dry_run: Schema.optionalKey(Schema.Boolean).annotate({ description: "Preview only: nothing is written, no number consumed." }),
  confidence: Schema.optionalKey(Confidence),
  soft_lock_override_reason: Schema.optionalKey(SoftLockOverrideReason)
}

/** The dry-run and queued responses beside a governed write's 201: the ledger's shapes (DECISIONS.md). */
export const governedResponses = { 200: Governed.Preview, 202: Governed.Queued }

export const IdPath = Schema.Struct({ id: Id })

export const AsOfQuery = Schema.optionalKey(DateString).annotate({ description: "Balances as of this date (default today)." })
