import { Schema } from "effect"
import { Cents, DateString, Id, NonNegativeCents, PositiveCents, Reason, Timestamp } from "../Common.ts"
import * as Governed from "../ledger/Governed.ts"
import * as Operation from "../Operation.ts"

const area = "4.10 Estimated taxes"
const TaxYear = Schema.Int.check(Schema.isBetween({ minimum: 2000, maximum: 2100 })).annotate({ description: "The tax year (a calendar year)." })
const AccountCode = Schema.String.check(Schema.isMinLength(1), Schema.isMaxLength(40))
const IdPath = Schema.Struct({ id: Id })

export const ReturnType = Schema.Literals(["SCHC", "1065", "1120S", "1120"]).annotate({
  description: "The business's return: SCHC (Schedule C), 1065 (partnership), 1120S (S corporation), 1120 (C corporation); default the tax profile's."
})
export const IncomeMethod = Schema.Literals(["annualized", "ytd", "manual"]).annotate({
  description: "annualized (default): the year to date scaled to a full year; ytd: the books' net income so far; manual: manual_income_cents."
})
export const FilingStatus = Schema.Literals(["single", "mfj", "mfs", "hoh"]).annotate({
  description: "The owner's filing status: single, married filing jointly (mfj) or separately (mfs), head of household (hoh)."
})
export const SafeHarbor = Schema.Literals(["lower", "current_year", "prior_year"]).annotate({
  description: "The required annual payment: lower (default) of the current-year and prior-year amounts, or one of them."
})
export const Method = Schema.Literals(["eftps", "direct_pay", "irs_account", "card", "check", "other"]).annotate({
  description: "How the payment was made."
})

/** The plan's inputs as saved (defaults filled in). */
export const PlanInputs = Schema.Struct({
  return_type: ReturnType,
  income_method: IncomeMethod,
  manual_income_cents: Schema.NullOr(Schema.Int),
  adjustments_cents: Schema.Int,
  owner_share_ppm: Schema.Int,
  se_tax: Schema.Boolean,
  filing_status: FilingStatus,
  other_income_cents: Schema.Int,
  investment_income_cents: Schema.Int.annotate({ description: "Of other_income_cents, the net investment income (Form 8960): the base of the 3.8% net investment income tax." }),
  wages_ss_cents: Schema.Int,
  deductions_cents: Schema.NullOr(Schema.Int),
  qbi_deduction_cents: Schema.NullOr(Schema.Int),
  credits_cents: Schema.Int,
  withholding_cents: Schema.Int,
  prior_year_tax_cents: Schema.NullOr(Schema.Int),
  prior_year_high_agi: Schema.Boolean,
  prior_year_full: Schema.Boolean,
  large_corporation: Schema.Boolean,
  safe_harbor: SafeHarbor,
  payment_account: Schema.NullOr(Schema.String),
  pay_from_account: Schema.NullOr(Schema.String),
  reminders: Schema.Boolean,
  reminder_days: Schema.Int
}).annotate({ identifier: "EstimatedTaxPlanInputs" })
export type PlanInputs = typeof PlanInputs.Type

export const Payment = Schema.Struct({
  id: Id,
  tax_year: Schema.Int,
  quarter: Schema.Int,
  paid_on: DateString,
  amount_cents: Schema.Int,
  method: Method,
  confirmation: Schema.NullOr(Schema.String),
  note: Schema.NullOr(Schema.String),
  payment_account: Schema.NullOr(Schema.String),
  pay_from_account: Schema.NullOr(Schema.String),
  outside_books: Schema.Boolean,
  entry_id: Schema.NullOr(Id),
  status: Schema.Literals(["recorded", "void"]),
  void_entry_id: Schema.NullOr(Id),
  void_reason: Schema.NullOr(Schema.String),
  created_by: Schema.String,
  created_at: Timestamp,
  voided_at: Schema.NullOr(Timestamp)
}).annotate({ identifier: "EstimatedTaxPayment" })
export type Payment = typeof Payment.Type

export const Quarter = Schema.Struct({
  quarter: Schema.Int,
  statutory_date: DateString,
  due_date: DateString.annotate({ description: "Moved to the next business day past a weekend or legal holiday." }),
  amount_cents: Schema.Int,
  paid_cents: Schema.Int,
  remaining_cents: Schema.Int
}).annotate({ identifier: "EstimatedTaxQuarter" })

export const Estimate = Schema.Struct({
  tax_year: Schema.Int,
  form: Schema.Literals(["1040-ES", "1120-W"]),
  saved: Schema.Boolean,
  saved_at: Schema.NullOr(Timestamp),
  plan: PlanInputs,
  income_cents: Schema.Int.annotate({ description: "The business income the method gave, before the owner's share." }),
  income_basis: Schema.String,
  worksheet: Schema.Array(Schema.Struct({ line: Schema.String, label: Schema.String, cents: Schema.Int })),
  safe_harbors: Schema.Struct({
    current_year_cents: Schema.Int,
    current_year_estimated: Schema.Boolean.annotate({
      description: "current_year_cents comes from another year's tables (tables_year), the tax year's not being in Ledger yet. ADR 2007."
    }),
    prior_year_cents: Schema.NullOr(Schema.Int).annotate({ description: "From the prior year's tax: needs no year's tables." }),
    required_annual_cents: Schema.Int,
    chosen: Schema.Literals(["current_year", "prior_year"]),
    payments_required: Schema.Boolean
  }),
  total_tax_cents: Schema.Int,
  quarters: Schema.Array(Quarter),
  total_due_cents: Schema.Int,
  paid_cents: Schema.Int,
  remaining_cents: Schema.Int,
  payments: Schema.Array(Payment),
  tables_year: Schema.NullOr(Schema.Int).annotate({
    description: "The year whose tables (brackets, standard deduction, wage base) the worksheet used; null for 1120, whose 21% needs none."
  }),
  tables_estimated: Schema.Boolean.annotate({
    description: "The tax year's own tables are not in Ledger yet: the worksheet, total_tax_cents and the current-year safe harbor " +
      "are estimated with tables_year's. Due dates, payments and the prior-year safe harbor never depend on it. ADR 2007."
  }),
  tables_source: Schema.String
}).annotate({ identifier: "EstimatedTaxEstimate" })

export const getEstimatedTaxes = Operation.make({
  id: "getEstimatedTaxes",
  method: "GET",
  path: "/v1/estimated-taxes",
  area,
  summary: "The year's planning estimate: worksheet lines, safe harbors, the four due dates, per-quarter amounts, paid and remaining.",
  description: "Any year from the first Ledger has tables for to next year (422 tax_year_unsupported outside them). A year whose " +
    "tables are not published yet is answered in full, its worksheet estimated with the latest tables (tables_estimated). ADR 2007.",
  scope: "read",
  mode: "R",
  query: Schema.Struct({ year: Schema.optionalKey(TaxYear) }),
  success: Estimate,
  errors: ["tax_year_unsupported"]
})

export const saveEstimatedTaxPlan = Operation.make({
  id: "saveEstimatedTaxPlan",
  method: "POST",
  path: "/v1/estimated-taxes/plan",
  area,
  summary: "Save the year's plan (its inputs); dry_run shows the estimate without saving.",
  description: "Unset fields keep the saved plan's value (or the default: SCHC, annualized, single, SE tax for SCHC and 1065, " +
    "standard deduction, safe harbor `lower`).",
  scope: "approve",
  mode: "-",
  peopleOnly: true,
  status: 200,
  body: Schema.Struct({
    year: TaxYear,
    return_type: Schema.optionalKey(ReturnType),
    income_method: Schema.optionalKey(IncomeMethod),
    manual_income_cents: Schema.optionalKey(Schema.NullOr(Cents)),
    adjustments_cents: Schema.optionalKey(Cents),
    owner_share_ppm: Schema.optionalKey(Schema.Int.check(Schema.isBetween({ minimum: 0, maximum: 1_000_000 })).annotate({
      description: "1065 and 1120S: the owner's share of the business in parts per million."
    })),
    se_tax: Schema.optionalKey(Schema.Boolean.annotate({ description: "Include self-employment tax (default on for SCHC and 1065)." })),
    filing_status: Schema.optionalKey(FilingStatus),
    other_income_cents: Schema.optionalKey(Cents),
    investment_income_cents: Schema.optionalKey(NonNegativeCents.annotate({
      description: "Beyond the spec's list: the part of other_income_cents that is net investment income (interest, dividends, gains, rents), for the net investment income tax. Default 0."
    })),
    wages_ss_cents: Schema.optionalKey(NonNegativeCents),
    deductions_cents: Schema.optionalKey(Schema.NullOr(NonNegativeCents)),
    qbi_deduction_cents: Schema.optionalKey(Schema.NullOr(NonNegativeCents)),
    credits_cents: Schema.optionalKey(NonNegativeCents),
    withholding_cents: Schema.optionalKey(NonNegativeCents),
    prior_year_tax_cents: Schema.optionalKey(Schema.NullOr(NonNegativeCents)),
    prior_year_high_agi: Schema.optionalKey(Schema.Boolean.annotate({
      description: "The prior year's AGI was over $150,000 ($75,000 married filing separately): its safe harbor is 110%."
    })),
    prior_year_full: Schema.optionalKey(Schema.Boolean.annotate({ description: "The prior year was a full 12-month year (its safe harbor counts only then)." })),
    large_corporation: Schema.optionalKey(Schema.Boolean.annotate({
      description: "1120: taxable income of $1 million or more in any of the three prior years."
    })),
    safe_harbor: Schema.optionalKey(SafeHarbor),
    payment_account: Schema.optionalKey(Schema.NullOr(AccountCode)),
    pay_from_account: Schema.optionalKey(Schema.NullOr(AccountCode)),
    reminders: Schema.optionalKey(Schema.Boolean.annotate({ description: "Email the owners before each installment is due." })),
    reminder_days: Schema.optionalKey(Schema.Int.check(Schema.isBetween({ minimum: 0, maximum: 60 })).annotate({
      description: "How many days before the due date the reminder goes (default 7)."
    })),
    dry_run: Schema.optionalKey(Schema.Boolean)
  }),
  success: Estimate,
  errors: ["tax_year_unsupported", "unknown_account"]
})

export const PaymentPreview = Schema.Struct({ dry_run: Schema.Literal(true), payment: Payment }).annotate({ identifier: "EstimatedTaxPaymentPreview" })

export const recordEstimatedTaxPayment = Operation.make({
  id: "recordEstimatedTaxPayment",
  method: "POST",
  path: "/v1/estimated-taxes/payments",
  area,
  summary: "Record an estimated-tax payment: posted through the governed path (debit payment_account, credit pay_from_account), or outside the books.",
  description: "Accounts default to the plan's. outside_books (people only) records the payment without an entry. 200 dry run, 201 recorded, 202 an agent's proposal.",
  scope: "propose",
  mode: "K",
  governed: true,
  body: Schema.Struct({
    year: TaxYear,
    quarter: Schema.Int.check(Schema.isBetween({ minimum: 1, maximum: 4 })).annotate({ description: "The installment the payment is for, 1 to 4." }),
    paid_on: DateString,
    amount_cents: PositiveCents,
    method: Method,
    confirmation: Schema.optionalKey(Schema.String.check(Schema.isMaxLength(100)).annotate({ description: "The payment's confirmation number." })),
    note: Schema.optionalKey(Schema.String.check(Schema.isMaxLength(1000)).annotate({ description: "A note kept with the payment." })),
    payment_account: Schema.optionalKey(AccountCode),
    pay_from_account: Schema.optionalKey(AccountCode),
    outside_books: Schema.optionalKey(Schema.Boolean.annotate({ description: "People only: paid from outside the books; records the payment without an entry." })),
    dry_run: Schema.optionalKey(Schema.Boolean),
    rationale: Schema.optionalKey(Schema.String.check(Schema.isMaxLength(2000)).annotate({ description: "Why the agent proposes this, shown to the person who decides." }))
  }),
  success: Payment,
  otherResponses: { 200: Schema.Union([Governed.Preview, PaymentPreview]), 202: Governed.Queued },
  errors: ["payment_account_required", "unknown_account", "inactive_account", "period_hard_locked", "soft_lock_reason_required", "tax_year_unsupported"]
})

export const voidEstimatedTaxPayment = Operation.make({
  id: "voidEstimatedTaxPayment",
  method: "POST",
  path: "/v1/estimated-taxes/payments/{id}/void",
  area,
  summary: "Void a payment; its entry, if it posted one, is reversed.",
  scope: "approve",
  mode: "K",
  status: 200,
  peopleOnly: true,
  pathParams: IdPath,
  body: Schema.Struct({ reason: Reason }),
  success: Payment,
  errors: ["already_void", "entry_already_reversed", "period_hard_locked"]
})

export const operations = [getEstimatedTaxes, saveEstimatedTaxPlan, recordEstimatedTaxPayment, voidEstimatedTaxPayment] as const
