/**
 * The firms area's error types, each with the HTTP status it always travels with.
 * `ApiError.errorStatus` folds every area's table.
 */
export const errors = {
  last_firm_admin: 422,
  firm_access_required: 422,
  firm_access_revoked: 409,
  invitation_claimed: 409,
  firm_kill_switch_active: 403
} as const
