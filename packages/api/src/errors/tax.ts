/**
 * The tax area's error types, each with the HTTP status it always travels with.
 * `ApiError.errorStatus` folds every area's table.
 */
export const errors = {
  tax_return_type_required: 422,
  unknown_tax_line: 422,
  tax_accounts_unmapped: 422,
  tax_export_not_tied: 422
} as const
