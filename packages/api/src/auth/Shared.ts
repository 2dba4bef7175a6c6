import { Schema } from "effect"
import { Id, Timestamp } from "../Common.ts"

/** What the sign-in and security operations share: limits, the session, the WebAuthn credential. */

export const area = "4.14 Sign-in and security"

/** Limits of spec 1-concepts 8.2 for sign-in (the engine's rules read them from here). */
export const limits = {
  emailCodeDigits: 6,
  emailCodeValidMs: 15 * 60_000,
  wrongCodesMax: 5,
  challengeValidMs: 5 * 60_000,
  stepUpValidMs: 10 * 60_000,
  stepUpsPerHour: 5,
  sessionIdleMs: 8 * 3_600_000,
  sessionMaxMs: 7 * 24 * 3_600_000,
  recoveryCodesIssued: 10,
  /** Email links asked for by one browser within the window (`throttleWindowMs`). */
  emailLinksPerWindow: 5,
  /** The sliding window of every abuse limit of the public steps (docs/decisions/1005-sign-in-abuse-limits.md). */
  throttleWindowMs: 15 * 60_000,
  /** Public sign-in steps of every kind from one client network address within the window. */
  publicStepsPerClient: 100,
  /** Email links asked for from one client network address within the window, whatever the addresses. */
  emailLinksPerClient: 20,
  /** Email links for one email address from one client network address within the window. */
  emailLinksPerEmailPerClient: 5,
  /** Email links for one email address within the window, from anywhere: what mail one address can be sent. */
  emailLinksPerEmail: 10,
  passkeysPerPersonMax: 20,
  emailLengthMax: 254,
  browserLengthMin: 16,
  browserLengthMax: 128,
  webauthnFieldLengthMax: 16_384
} as const

export const Email = Schema.String.check(
  Schema.isMaxLength(limits.emailLengthMax),
  Schema.isPattern(/^[^\s@]+@[^\s@]+\.[^\s@]+$/u)
).annotate({ description: "An email address." })

export const Browser = Schema.String.check(
  Schema.isMinLength(limits.browserLengthMin),
  Schema.isMaxLength(limits.browserLengthMax),
  Schema.isPattern(/^[A-Za-z0-9_-]+$/u)
).annotate({ description: "The random value the web app keeps in an HttpOnly cookie for this browser (16-128 base64url characters)." })

export const SixDigits = Schema.String.check(Schema.isPattern(/^\d{6}$/u)).annotate({ description: "A 6-digit code." })

export const RecoveryCode = Schema.String.check(Schema.isPattern(/^[a-z2-7]{5}-[a-z2-7]{5}$/u))
  .annotate({ description: "A recovery code: `xxxxx-xxxxx` (lower-case base32)." })

export const Ticket = Schema.String.check(Schema.isMinLength(16), Schema.isMaxLength(128))

const Field = Schema.String.check(Schema.isMaxLength(limits.webauthnFieldLengthMax))

/** A WebAuthn credential as browsers serialise it (`PublicKeyCredential.toJSON()`), registration or assertion. */
export const WebAuthnCredential = Schema.Struct({
  id: Field,
  rawId: Field,
  type: Schema.Literal("public-key"),
  response: Schema.Struct({
    clientDataJSON: Field,
    attestationObject: Schema.optionalKey(Field),
    authenticatorData: Schema.optionalKey(Field),
    signature: Schema.optionalKey(Field),
    userHandle: Schema.optionalKey(Schema.NullOr(Field)),
    transports: Schema.optionalKey(Schema.Array(Schema.String.check(Schema.isMaxLength(32))).check(Schema.isMaxLength(8))),
    publicKey: Schema.optionalKey(Field),
    publicKeyAlgorithm: Schema.optionalKey(Schema.Int),
  }),
  authenticatorAttachment: Schema.optionalKey(Schema.NullOr(Schema.Literals(["platform", "cross-platform"]))),
  clientExtensionResults: Schema.optionalKey(Schema.Record(Schema.String, Schema.Unknown))
}).annotate({ identifier: "WebAuthnCredential" })
export type WebAuthnCredential = typeof WebAuthnCredential.Type

/** WebAuthn options for the browser (`PublicKeyCredentialCreationOptionsJSON` / `...RequestOptionsJSON`). */
export const WebAuthnOptions = Schema.Record(Schema.String, Schema.Unknown).annotate({ identifier: "WebAuthnOptions" })

export const SessionPrincipal = Schema.Struct({
  type: Schema.Literals(["user", "firm_member"]),
  id: Id,
  name: Schema.String,
  company_id: Schema.NullOr(Schema.String),
  firm_id: Schema.NullOr(Id)
})

export const Session = Schema.Struct({
  id: Id,
  kind: Schema.Literals(["web", "firm"]),
  principal: SessionPrincipal,
  method: Schema.String.annotate({ description: "How it was signed in: passkey, email_code, email_code+totp, email_code+recovery_code." }),
  created_at: Timestamp,
  expires_at: Timestamp,
  idle_expires_at: Timestamp,
  stepped_up_until: Schema.NullOr(Timestamp)
}).annotate({ identifier: "Session" })
export type Session = typeof Session.Type

/** 201 signed in: the session and its token, shown once (also set as the `ledger_session` cookie). */
export const SignedIn = Schema.Struct({ session: Session, secret: Schema.String }).annotate({ identifier: "SignedIn" })
export type SignedIn = typeof SignedIn.Type

/** 200 a second step is needed. */
export const SecondStepRequired = Schema.Struct({
  second_factor_required: Schema.Literal(true),
  ticket: Schema.String,
  methods: Schema.Array(Schema.Literals(["totp", "recovery_code"])),
  expires_at: Timestamp
}).annotate({ identifier: "SecondStepRequired" })
export type SecondStepRequired = typeof SecondStepRequired.Type
