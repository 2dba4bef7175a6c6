/**
 * The integrations area's error types, each with the HTTP status it always travels with.
 * `ApiError.errorStatus` folds every area's table.
 */
export const errors = {
  integration_not_available: 422,
  integration_provider_not_configured: 503,
  integration_consent_invalid: 422,
  integration_consent_denied: 422,
  integration_disconnected: 409,
  integration_paused: 409,
  integration_mapping_incomplete: 422
} as const
