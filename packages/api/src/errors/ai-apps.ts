/**
 * The ai-apps area's error types, each with the HTTP status it always travels with.
 * `ApiError.errorStatus` folds every area's table.
 */
export const errors = {
  invalid_client: 400,
  invalid_redirect_uri: 400,
  invalid_code_challenge: 400,
  equity_account_refused: 422,
  connection_ended: 409
} as const
