/**
 * The payroll area's error types, each with the HTTP status it always travels with.
 * `ApiError.errorStatus` folds every area's table.
 */
export const errors = {
  payroll_csv_invalid: 422,
  payroll_totals_mismatch: 422,
  payroll_import_exists: 409,
  payroll_summary_exists: 409,
  wages_already_recorded: 422
} as const
