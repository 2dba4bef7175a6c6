/**
 * The webhooks area's error types, each with the HTTP status it always travels with.
 * `ApiError.errorStatus` folds every area's table.
 */
export const errors = {
  webhook_limit_reached: 422,
  webhook_url_not_allowed: 422,
  webhook_not_redeliverable: 409,
  webhook_endpoint_disabled: 409,
  webhooks_not_configured: 503
} as const
