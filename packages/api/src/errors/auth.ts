/**
 * The auth area's error types, each with the HTTP status it always travels with.
 * `ApiError.errorStatus` folds every area's table.
 */
export const errors = {
  step_up_required: 403,
  sign_in_refused: 401,
  second_factor_refused: 401,
  passkey_refused: 401,
  last_second_factor: 409,
  authenticator_apps_not_configured: 503
} as const
