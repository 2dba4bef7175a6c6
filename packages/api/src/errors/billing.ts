/**
 * The billing area's error types, each with the HTTP status it always travels with.
 * `ApiError.errorStatus` folds every area's table.
 */
export const errors = {
  billing_not_configured: 503,
  billing_state: 409,
  billing_no_subscription: 409,
  books_read_only: 409,
  migration_consent_invalid: 422,
  download_token_invalid: 403,
  migration_connection_revoked: 409,
  migration_connection_not_locked: 409,
  bundle_not_ready: 409,
  tieout_failed: 422,
  books_not_empty: 409,
  migration_already_imported: 409,
  migration_not_passed: 422,
  migration_already_cut_over: 409,
  migration_not_authorized: 409,
  migration_estimate_required: 409,
  budget_exceeded: 422,
  online_migration_not_configured: 503,
  migration_connector_url_unusable: 503
} as const
