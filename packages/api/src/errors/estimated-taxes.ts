/**
 * The estimated-taxes area's error types, each with the HTTP status it always travels with.
 * `ApiError.errorStatus` folds every area's table.
 */
export const errors = {
  tax_year_unsupported: 422,
  payment_account_required: 422
} as const
