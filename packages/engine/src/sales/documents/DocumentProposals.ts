import { Schema } from "effect"
import type { ResolvedDocument } from "./DocumentResolution.ts"

/**
 * What the sales area stores with a document's proposal, as Schemas: a person's decision decodes
 * the stored request with them (ledger/Proposals.ts) instead of trusting its shape. Each is typed
 * against the value the area resolved, so a field added there and not here fails the type check.
 */

const ResolvedLineStored = Schema.Struct({
  lineNo: Schema.Number,
  itemId: Schema.NullOr(Schema.Number),
  description: Schema.NullOr(Schema.String),
  account: Schema.String,
  quantity: Schema.NullOr(Schema.String),
  unitPriceCents: Schema.NullOr(Schema.Number),
  amountCents: Schema.Number,
  class: Schema.NullOr(Schema.String),
  taxable: Schema.Boolean
})

const TaxLineStored = Schema.Struct({
  taxRateId: Schema.Number,
  name: Schema.String,
  agencyId: Schema.Number,
  ratePercent: Schema.String,
  payableAccount: Schema.String,
  taxableSubtotalCents: Schema.Number,
  taxCents: Schema.Number
})

/** A resolved document as a proposal stores it (JSON), decoded on the decision. */
const ResolvedDocumentStored: Schema.Decoder<ResolvedDocument> = Schema.Struct({
  kind: Schema.Literals(["invoice", "credit_memo", "bill", "vendor_credit", "sales_receipt", "refund", "vendor_refund"]),
  contactId: Schema.Number,
  contactName: Schema.String,
  number: Schema.NullOr(Schema.String),
  docDate: Schema.String,
  dueDate: Schema.NullOr(Schema.String),
  termsDays: Schema.NullOr(Schema.Number),
  reference: Schema.NullOr(Schema.String),
  memo: Schema.NullOr(Schema.String),
  controlAccount: Schema.String,
  taxRateId: Schema.NullOr(Schema.Number),
  lines: Schema.Array(ResolvedLineStored),
  taxLines: Schema.Array(TaxLineStored),
  subtotalCents: Schema.Number,
  taxCents: Schema.Number,
  totalCents: Schema.Number,
  estimateId: Schema.NullOr(Schema.Number),
  recurring: Schema.NullOr(Schema.Struct({ templateId: Schema.Number, occurrenceDate: Schema.String }))
})

/** A document kind's proposal: the document exactly as resolved. */
export const DocumentProposal = Schema.Struct({ document: ResolvedDocumentStored })

/** A void's proposal: which document, why and as of when. */
export const DocumentVoidProposal = Schema.Struct({ document_id: Schema.Number, reason: Schema.String, void_date: Schema.String })
