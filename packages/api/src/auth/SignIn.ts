import { Schema } from "effect"
import { Empty, Timestamp } from "../Common.ts"
import * as Operation from "../Operation.ts"
import {
  area,
  Browser,
  Email,
  RecoveryCode,
  SecondStepRequired,
  SignedIn,
  SixDigits,
  Ticket,
  WebAuthnCredential,
  WebAuthnOptions
} from "./Shared.ts"

/**
 * The public sign-in steps (spec 4.14, marked P): no credential, not MCP tools, rate-limited per
 * address and per browser. Refusals of an email code carry `error.details.outcome`.
 */

const publicErrors = ["unauthorized", "conflict", "validation_failed", "rate_limited", "service_unavailable"] as const

export const requestEmailLink = Operation.make({
  id: "requestEmailLink",
  method: "POST",
  path: "/v1/auth/email-links",
  area,
  summary: "Mail a sign-in link and a 6-digit code (valid 15 minutes) to a person's address.",
  description: "Always 202, whether the address is known or not, so addresses cannot be probed. A new request replaces the unused codes of the same browser. Limited per client address, per email address and per browser (429 with Retry-After).",
  credential: "none",
  scope: "read",
  mode: "-",
  mcpTool: false,
  status: 202,
  body: Schema.Struct({
    email: Email,
    browser: Browser,
    principal_type: Schema.optionalKey(Schema.Literals(["user", "firm_member"]).annotate({
      description: "Who to sign in as when the address is both a company's person and a firm member: `user` (the web app, the default) or `firm_member` (the accountant console). The other is used when the address names only one."
    }))
  }),
  success: Schema.Struct({ status: Schema.Literal("sent"), expires_at: Timestamp }),
  errors: publicErrors
})

export const signInWithEmailCode = Operation.make({
  id: "signInWithEmailCode",
  method: "POST",
  path: "/v1/auth/email-links/code",
  area,
  summary: "Sign in with the emailed code: 201 signed in, or 200 when a second step is needed.",
  description: "The code works once, for 15 minutes, from the browser that asked for it; five wrong codes lock the request's codes. Refusals carry `error.details.outcome`: wrong_code (with attempts_left), locked, expired, used, replaced, invalid.",
  credential: "none",
  scope: "read",
  mode: "-",
  mcpTool: false,
  status: 201,
  body: Schema.Struct({ browser: Browser, code: SixDigits }),
  success: SignedIn,
  otherResponses: { 200: SecondStepRequired },
  errors: publicErrors
})

export const secondFactorStatus = Operation.make({
  id: "secondFactorStatus",
  method: "POST",
  path: "/v1/auth/second-factor/status",
  area,
  summary: "Whether a second-step ticket is still open, and how many wrong codes it has left.",
  credential: "none",
  scope: "read",
  mode: "R",
  mcpTool: false,
  body: Schema.Struct({ ticket: Ticket, browser: Browser }),
  success: Schema.Struct({
    status: Schema.Literals(["open", "used", "expired", "locked"]),
    methods: Schema.Array(Schema.Literals(["totp", "recovery_code"])),
    attempts_left: Schema.Int,
    expires_at: Timestamp
  }),
  errors: publicErrors
})

export const completeSecondFactor = Operation.make({
  id: "completeSecondFactor",
  method: "POST",
  path: "/v1/auth/second-factor",
  area,
  summary: "Finish signing in with an authenticator-app code or a recovery code.",
  credential: "none",
  scope: "read",
  mode: "-",
  mcpTool: false,
  status: 201,
  body: Schema.Struct({
    ticket: Ticket,
    browser: Browser,
    totp_code: Schema.optionalKey(SixDigits),
    recovery_code: Schema.optionalKey(RecoveryCode)
  }),
  success: SignedIn,
  errors: publicErrors
})

export const passkeyChallenge = Operation.make({
  id: "passkeyChallenge",
  method: "POST",
  path: "/v1/auth/passkey/challenge",
  area,
  summary: "A single-use WebAuthn challenge (5 minutes) for signing in with a passkey; user verification required.",
  credential: "none",
  scope: "read",
  mode: "-",
  mcpTool: false,
  body: Empty,
  success: Schema.Struct({ options: WebAuthnOptions, expires_at: Timestamp }),
  errors: publicErrors
})

export const signInWithPasskey = Operation.make({
  id: "signInWithPasskey",
  method: "POST",
  path: "/v1/auth/passkey/sign-in",
  area,
  summary: "Sign in with a passkey assertion (counts as two factors).",
  credential: "none",
  scope: "read",
  mode: "-",
  mcpTool: false,
  status: 201,
  body: Schema.Struct({ credential: WebAuthnCredential }),
  success: SignedIn,
  errors: publicErrors
})

export const signOut = Operation.make({
  id: "signOut",
  method: "POST",
  path: "/v1/auth/sign-out",
  area,
  summary: "End the calling session (its cookie is cleared).",
  scope: "read",
  mode: "-",
  peopleOnly: true,
  browserSessionOnly: true,
  mcpTool: false,
  body: Empty,
  success: Schema.Struct({ signed_out: Schema.Literal(true), session_id: Schema.Number })
})

export const operations = [
  requestEmailLink,
  signInWithEmailCode,
  secondFactorStatus,
  completeSecondFactor,
  passkeyChallenge,
  signInWithPasskey,
  signOut
] as const
