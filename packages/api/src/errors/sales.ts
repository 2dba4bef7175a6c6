/**
 * The sales area's error types (contacts, items, documents, payments, estimates, recurring, tax,
 * email), each with the HTTP status it always travels with. `ApiError.errorStatus` folds every
 * area's table.
 */
export const errors = {
  document_has_applications: 409,
  already_void: 409,
  number_in_use: 409,
  invalid_transition: 409,
  over_application: 422,
  inactive_tax_rate: 422
} as const
