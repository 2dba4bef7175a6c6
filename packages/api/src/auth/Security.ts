import { Schema } from "effect"
import { Empty, Id, Name, Reason, Timestamp } from "../Common.ts"
import * as Operation from "../Operation.ts"
import { area, Email, RecoveryCode, Session, SixDigits, WebAuthnCredential, WebAuthnOptions } from "./Shared.ts"

/**
 * A person's own sign-in settings (spec 4.14): only the person's own browser session (`ldgs_` or
 * `ldgf_`) may use them; keys, agents and AI apps are refused with `insufficient_scope`. Changes
 * to passkeys and two-step need a step-up within the last 10 minutes (signing in counts as one).
 */

const own = {
  scope: "read",
  peopleOnly: true,
  browserSessionOnly: true,
  mcpTool: false
} as const

const securityErrors = ["conflict", "step_up_required", "service_unavailable"] as const

export const Passkey = Schema.Struct({
  id: Id,
  name: Schema.String,
  created_at: Timestamp,
  last_used_at: Schema.NullOr(Timestamp)
}).annotate({ identifier: "Passkey" })
export type Passkey = typeof Passkey.Type

export const SecuritySettings = Schema.Struct({
  email: Schema.NullOr(Schema.String),
  email_verified: Schema.Boolean,
  passkeys: Schema.Array(Passkey),
  authenticator_app: Schema.Struct({ enabled: Schema.Boolean, pending: Schema.Boolean, confirmed_at: Schema.NullOr(Timestamp) }),
  recovery_codes: Schema.Struct({ remaining: Schema.Int, created_at: Schema.NullOr(Timestamp) }),
  two_step_required: Schema.Boolean,
  session: Session
}).annotate({ identifier: "SecuritySettings" })
export type SecuritySettings = typeof SecuritySettings.Type

export const getSecurity = Operation.make({
  id: "getSecurity",
  method: "GET",
  path: "/v1/me/security",
  area,
  summary: "Your sign-in settings: email, passkeys, authenticator app, recovery codes, two-step requirement, this session.",
  mode: "R",
  ...own,
  success: SecuritySettings
})

export const stepUpChallenge = Operation.make({
  id: "stepUpChallenge",
  method: "POST",
  path: "/v1/me/step-up/challenge",
  area,
  summary: "Start a step-up: a single-use passkey challenge (5 minutes) and the methods you may use.",
  mode: "-",
  ...own,
  body: Empty,
  success: Schema.Struct({
    challenge: Schema.NullOr(Schema.String),
    options: Schema.NullOr(WebAuthnOptions),
    methods: Schema.Array(Schema.Literals(["passkey", "totp", "recovery_code"])),
    expires_at: Timestamp
  }),
  errors: securityErrors
})

export const stepUp = Operation.make({
  id: "stepUp",
  method: "POST",
  path: "/v1/me/step-up",
  area,
  summary: "Confirm it is you (passkey, authenticator code or recovery code): sensitive changes are allowed for 10 minutes.",
  description: "At most 5 step-ups an hour. Give `challenge` and `credential` for a passkey, or `totp_code`, or `recovery_code`.",
  mode: "-",
  ...own,
  body: Schema.Struct({
    challenge: Schema.optionalKey(Schema.String.check(Schema.isMaxLength(128))),
    credential: Schema.optionalKey(WebAuthnCredential),
    totp_code: Schema.optionalKey(SixDigits),
    recovery_code: Schema.optionalKey(RecoveryCode)
  }),
  success: Schema.Struct({ stepped_up_until: Timestamp, method: Schema.Literals(["passkey", "totp", "recovery_code"]) }),
  errors: securityErrors
})

export const passkeyRegistrationOptions = Operation.make({
  id: "passkeyRegistrationOptions",
  method: "POST",
  path: "/v1/me/passkeys/challenge",
  area,
  summary: "Creation options for a new passkey (discoverable credential, user verification required, attestation none).",
  mode: "-",
  ...own,
  body: Empty,
  success: Schema.Struct({ options: WebAuthnOptions, expires_at: Timestamp }),
  errors: securityErrors
})

export const addPasskey = Operation.make({
  id: "addPasskey",
  method: "POST",
  path: "/v1/me/passkeys",
  area,
  summary: "Register a passkey from the browser's registration response. Needs a recent step-up.",
  mode: "-",
  status: 201,
  ...own,
  body: Schema.Struct({ credential: WebAuthnCredential, name: Schema.optionalKey(Name) }),
  success: Passkey,
  errors: securityErrors
})

export const removePasskey = Operation.make({
  id: "removePasskey",
  method: "POST",
  path: "/v1/me/passkeys/{id}/remove",
  area,
  summary: "Remove a passkey. Not the last second factor when the company requires two-step sign-in. Needs a recent step-up.",
  mode: "-",
  ...own,
  pathParams: Schema.Struct({ id: Id }),
  body: Schema.Struct({ reason: Schema.optionalKey(Reason) }),
  success: Schema.Struct({ removed: Schema.Literal(true), id: Id }),
  errors: securityErrors
})

export const enrolTotp = Operation.make({
  id: "enrolTotp",
  method: "POST",
  path: "/v1/me/totp",
  area,
  summary: "Start adding an authenticator app: its secret, shown once, as text and as an otpauth URI. Needs a recent step-up.",
  mode: "-",
  ...own,
  body: Empty,
  success: Schema.Struct({ secret: Schema.String, otpauth_uri: Schema.String, confirmed: Schema.Literal(false) }),
  errors: securityErrors
})

export const confirmTotp = Operation.make({
  id: "confirmTotp",
  method: "POST",
  path: "/v1/me/totp/confirm",
  area,
  summary: "Turn the authenticator app on with a code from it.",
  mode: "-",
  ...own,
  body: Schema.Struct({ code: SixDigits }),
  success: Schema.Struct({ enabled: Schema.Literal(true), confirmed_at: Timestamp }),
  errors: securityErrors
})

export const disableTotp = Operation.make({
  id: "disableTotp",
  method: "POST",
  path: "/v1/me/totp/disable",
  area,
  summary: "Turn the authenticator app off with a code from it. Needs a recent step-up.",
  mode: "-",
  ...own,
  body: Schema.Struct({ code: SixDigits }),
  success: Schema.Struct({ enabled: Schema.Literal(false) }),
  errors: securityErrors
})

export const createRecoveryCodes = Operation.make({
  id: "createRecoveryCodes",
  method: "POST",
  path: "/v1/me/recovery-codes",
  area,
  summary: "10 new recovery codes, shown once; the unused old ones stop working. Needs a recent step-up.",
  mode: "-",
  ...own,
  body: Empty,
  success: Schema.Struct({ codes: Schema.Array(RecoveryCode), created_at: Timestamp }),
  errors: securityErrors
})

export const revokeOtherSessions = Operation.make({
  id: "revokeOtherSessions",
  method: "POST",
  path: "/v1/me/sessions/revoke-others",
  area,
  summary: "Sign out every other session of yours.",
  mode: "-",
  ...own,
  body: Schema.Struct({ reason: Schema.optionalKey(Reason) }),
  success: Schema.Struct({ revoked: Schema.Int }),
  errors: securityErrors
})

export const changeEmail = Operation.make({
  id: "changeEmail",
  method: "POST",
  path: "/v1/me/email",
  area,
  summary: "Set your sign-in address (verified by its first email-link sign-in), or omit it to resend the verification.",
  mode: "-",
  ...own,
  body: Schema.Struct({ email: Schema.optionalKey(Email) }),
  success: Schema.Struct({ email: Schema.String, email_verified: Schema.Boolean, verification_sent: Schema.Boolean }),
  errors: securityErrors
})

export const operations = [
  getSecurity,
  stepUpChallenge,
  stepUp,
  passkeyRegistrationOptions,
  addPasskey,
  removePasskey,
  enrolTotp,
  confirmTotp,
  disableTotp,
  createRecoveryCodes,
  revokeOtherSessions,
  changeEmail
] as const
