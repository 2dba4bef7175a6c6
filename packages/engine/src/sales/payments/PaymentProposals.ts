import { Schema } from "effect"
import type { ResolvedPayment } from "./PaymentResolution.ts"

/**
 * What the sales area stores with a payment's proposal, as Schemas: a person's decision decodes
 * the stored request with them (ledger/Proposals.ts) instead of trusting its shape. Each is typed
 * against the value the area resolved, so a field added there and not here fails the type check.
 */

/** A resolved payment as a proposal stores it (JSON), decoded on the decision. */
const ResolvedPaymentStored: Schema.Decoder<ResolvedPayment> = Schema.Struct({
  direction: Schema.Literals(["received", "made"]),
  contactId: Schema.Number,
  contactName: Schema.String,
  paymentDate: Schema.String,
  account: Schema.String,
  controlAccount: Schema.String,
  amountCents: Schema.Number,
  applications: Schema.Array(Schema.Struct({ document_id: Schema.Number, amount_cents: Schema.Number })),
  number: Schema.NullOr(Schema.String),
  reference: Schema.NullOr(Schema.String),
  memo: Schema.NullOr(Schema.String),
  bankLineId: Schema.NullOr(Schema.Number)
})

/** A payment's proposal: the payment exactly as resolved. */
export const PaymentProposal = Schema.Struct({ payment: ResolvedPaymentStored })

/** A payment void's proposal: which payment, why and as of when. */
export const PaymentVoidProposal = Schema.Struct({ payment_id: Schema.Number, reason: Schema.String, void_date: Schema.String })
