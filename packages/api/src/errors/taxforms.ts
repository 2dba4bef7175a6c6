/**
 * The taxforms area's error types, each with the HTTP status it always travels with.
 * `ApiError.errorStatus` folds every area's table.
 */
export const errors = {
  payer_not_set: 422,
  tin_required: 422,
  not_a_vendor: 422,
  tax_profile_missing: 422,
  w9_request_closed: 409,
  prior_amount_voided: 409,
  filing_not_pending: 409,
  filing_preview_mismatch: 409,
  filing_not_retryable: 409,
  filing_not_submitted: 409,
  filing_not_refreshable: 409,
  nothing_to_file: 422,
  tax_filing_not_configured: 503,
  tax_filing_failed: 502,
  tin_sealing_not_configured: 503
} as const
