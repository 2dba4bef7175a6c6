import { Schema } from "effect"
import { DateString, Id, Page, PageQuery, Reason, Timestamp } from "../Common.ts"
import * as Governed from "../ledger/Governed.ts"
import * as Operation from "../Operation.ts"
import { AccountCode, area, IdPath, Rationale } from "./Shared.ts"
import { RateUsed } from "./Deduction.ts"

export const Reimbursement = Schema.Struct({
  id: Id,
  vehicle_id: Id,
  payee: Schema.String,
  period_start: DateString,
  period_end: DateString,
  business_miles: Schema.Number,
  business_tenths: Schema.Int,
  amount_cents: Schema.Int,
  rates: Schema.Array(RateUsed),
  expense_account: Schema.String,
  pay_from_account: Schema.String,
  entry_date: DateString,
  entry_id: Id,
  status: Schema.Literals(["posted", "void"]),
  void_entry_id: Schema.NullOr(Id),
  void_reason: Schema.NullOr(Schema.String),
  voided_at: Schema.NullOr(Timestamp),
  created_at: Timestamp
}).annotate({ identifier: "MileageReimbursement" })
export type Reimbursement = typeof Reimbursement.Type

export const listReimbursements = Operation.make({
  id: "listMileageReimbursements",
  method: "GET",
  path: "/v1/mileage/reimbursements",
  area,
  summary: "Mileage reimbursements, newest first.",
  scope: "read",
  mode: "R",
  query: Schema.Struct({ include_voided: Schema.optionalKey(Schema.Boolean), ...PageQuery }),
  success: Page(Reimbursement)
})

export const createReimbursement = Operation.make({
  id: "createMileageReimbursement",
  method: "POST",
  path: "/v1/mileage/reimbursements",
  area,
  summary: "Reimburse a period's business miles at the standard rate, posted through the governed path.",
  description: "200 dry run (miles, rates and the entry in `document`), 201 posted, 202 an agent's proposal. The entry debits " +
    "expense_account and credits pay_from_account. Periods of one vehicle never overlap (reimbursement_overlaps).",
  scope: "propose",
  mode: "K",
  governed: true,
  body: Schema.Struct({
    vehicle_id: Id,
    payee: Schema.String.check(Schema.isMinLength(1), Schema.isMaxLength(200)).annotate({ description: "Who is reimbursed: the person who drove." }),
    period_start: DateString,
    period_end: DateString,
    expense_account: AccountCode,
    pay_from_account: AccountCode,
    entry_date: Schema.optionalKey(DateString),
    dry_run: Schema.optionalKey(Schema.Boolean),
    rationale: Schema.optionalKey(Rationale)
  }),
  success: Reimbursement,
  otherResponses: { 200: Governed.Preview, 202: Governed.Queued },
  errors: ["no_business_miles", "reimbursement_overlaps", "mileage_rate_unknown", "unknown_account", "inactive_account", "period_hard_locked", "amount_out_of_range", "soft_lock_reason_required"]
})

export const voidReimbursement = Operation.make({
  id: "voidMileageReimbursement",
  method: "POST",
  path: "/v1/mileage/reimbursements/{id}/void",
  area,
  summary: "Void a reimbursement: its entry is reversed through the governed path (202 when an agent's reversal waits).",
  scope: "approve",
  mode: "K",
  status: 200,
  pathParams: IdPath,
  body: Schema.Struct({ reason: Reason }),
  success: Reimbursement,
  otherResponses: { 202: Governed.Queued },
  errors: ["already_void", "entry_already_reversed", "period_hard_locked", "amount_out_of_range"]
})

export const operations = [listReimbursements, createReimbursement, voidReimbursement] as const
