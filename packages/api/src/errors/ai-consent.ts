/**
 * The ai-consent area's error types, each with the HTTP status it always travels with.
 * `ApiError.errorStatus` folds every area's table.
 */
export const errors = {
  consent_not_pending: 409,
  consent_not_signed: 409,
  consent_invalid_pdf: 422,
  consent_not_owner: 403,
  consent_required: 403
} as const
