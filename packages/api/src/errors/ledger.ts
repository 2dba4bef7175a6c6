/**
 * The ledger area's error types (accounts, periods, entries, proposals, reports), each with the
 * HTTP status it always travels with. `ApiError.errorStatus` folds every area's table.
 */
export const errors = {
  single_line_entry: 422,
  zero_amount_line: 422,
  two_sided_line: 422,
  unknown_class: 422,
  unknown_contact: 422,
  invalid_period_transition: 422,
  entry_already_reversed: 409,
  entry_not_reversible: 409,
  control_account_line: 422,
  // A summed figure (a balance, a report total) past ±(2^53 − 1) cents: ADR 0717.
  amount_out_of_range: 422
} as const
