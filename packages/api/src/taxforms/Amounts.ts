import { Schema } from "effect"
import { Id, NonNegativeCents, Page, PageQuery, PositiveCents, Reason, Timestamp } from "../Common.ts"
import * as Operation from "../Operation.ts"
import { area, Box, MaskedTin, Year } from "./Shared.ts"

export const BoxAmount = Schema.Struct({ box: Box, amount_cents: Schema.Int })

export const Recipient = Schema.Struct({
  contact_id: Id,
  name: Schema.String,
  tin_masked: MaskedTin,
  has_tax_profile: Schema.Boolean,
  boxes: Schema.Array(BoxAmount),
  nec_cents: Schema.Int,
  misc_cents: Schema.Int,
  prior_cents: Schema.Int.annotate({ description: "Of the totals, what prior amounts (entered outside Ledger) add." }),
  journal_entry_cents: Schema.Int.annotate({ description: "Of the totals, what hand-posted journal entries naming the vendor and paying from a money account add." }),
  card_payments_excluded_cents: Schema.Int.annotate({ description: "Paid by card or through a payment processor: reported by them on 1099-K." }),
  forms: Schema.Array(Schema.Literals(["1099-NEC", "1099-MISC"])),
  issues: Schema.Array(Schema.String)
}).annotate({ identifier: "Form1099Recipient" })
export type Recipient = typeof Recipient.Type

export const Summary = Schema.Struct({
  year: Year,
  threshold_cents: Schema.Int,
  threshold_source: Schema.String,
  recipients: Schema.Array(Recipient),
  below_threshold: Schema.Array(Recipient),
  total_nec_cents: Schema.Int,
  total_misc_cents: Schema.Int,
  issues: Schema.Array(Schema.String).annotate({ description: "What may make the amounts incomplete (for example more hand-posted entries than are read at once)." })
}).annotate({ identifier: "Form1099Summary" })
export type Summary = typeof Summary.Type

export const get1099Summary = Operation.make({
  id: "get1099Summary",
  method: "GET",
  path: "/v1/tax-forms/1099",
  area,
  summary: "1099-NEC and 1099-MISC amounts by vendor for a year (cash basis, card payments excluded), against the threshold.",
  scope: "read",
  mode: "R",
  query: Schema.Struct({ year: Year, threshold_cents: Schema.optionalKey(NonNegativeCents) }),
  success: Summary
})

export const PriorAmount = Schema.Struct({
  id: Id,
  year: Year,
  contact_id: Id,
  box: Box,
  amount_cents: Schema.Int,
  note: Schema.NullOr(Schema.String),
  voided: Schema.Boolean,
  void_reason: Schema.NullOr(Schema.String),
  voided_at: Schema.NullOr(Timestamp),
  created_by: Schema.String,
  created_at: Timestamp
}).annotate({ identifier: "PriorAmount" })
export type PriorAmount = typeof PriorAmount.Type

export const listPriorAmounts = Operation.make({
  id: "listPriorAmounts",
  method: "GET",
  path: "/v1/tax-forms/prior-amounts",
  area,
  summary: "Amounts paid outside Ledger that count toward a year's 1099s.",
  scope: "read",
  mode: "R",
  query: Schema.Struct({ year: Year, include_voided: Schema.optionalKey(Schema.Boolean), ...PageQuery }),
  success: Page(PriorAmount)
})

export const PriorAmountInput = Schema.Struct({
  year: Year,
  contact_id: Id,
  box: Box,
  amount_cents: PositiveCents,
  note: Schema.optionalKey(Schema.String.check(Schema.isMaxLength(500)))
}).annotate({ identifier: "PriorAmountInput" })

export const createPriorAmounts = Operation.make({
  id: "createPriorAmounts",
  method: "POST",
  path: "/v1/tax-forms/prior-amounts",
  area,
  summary: "Enter amounts paid before Ledger or outside it; never edited (void and re-enter).",
  scope: "propose",
  mode: "K",
  body: Schema.Struct({
    amounts: Schema.Array(PriorAmountInput).check(Schema.isMinLength(1), Schema.isMaxLength(500)).annotate({ description: "Amounts paid before Ledger or outside it, each by year, vendor, box and cents; they add to that year and box." })
  }),
  success: Schema.Struct({ data: Schema.Array(PriorAmount) }),
  errors: ["not_a_vendor"]
})

export const voidPriorAmount = Operation.make({
  id: "voidPriorAmount",
  method: "POST",
  path: "/v1/tax-forms/prior-amounts/{id}/void",
  area,
  summary: "Void a prior amount.",
  scope: "propose",
  mode: "K",
  status: 200,
  pathParams: Schema.Struct({ id: Id }),
  body: Schema.Struct({ reason: Reason }),
  success: PriorAmount,
  errors: ["prior_amount_voided"]
})
