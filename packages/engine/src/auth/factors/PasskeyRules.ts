import {
  type AuthenticationResponseJSON,
  generateAuthenticationOptions,
  generateRegistrationOptions,
  type RegistrationResponseJSON,
  verifyAuthenticationResponse,
  verifyRegistrationResponse
} from "@simplewebauthn/server"
import { Effect, Result } from "effect"
import { Base64Url } from "effect/encoding"
import type { Auth } from "@ledger/api"
import type { RelyingPartyConfig } from "../../ports/RelyingParty.ts"

/**
 * Passkeys through @simplewebauthn/server: discoverable credentials, user verification required,
 * attestation `none`, ES256 or RS256. Every check of the protocol (origin, RP ID hash, challenge,
 * type, flags, signature, sign count) is the library's; this file only fixes the policy.
 */

export const algorithms = [-7, -257]

export interface StoredPasskey {
  readonly credentialId: string
  readonly publicKey: Uint8Array
  readonly signCount: number
  readonly transports: ReadonlyArray<string>
}

/** Why a passkey message was refused, in words for people (the library's message). */
export class PasskeyRefusal {
  readonly _tag = "PasskeyRefusal"
  constructor(readonly reason: string) {}
}

const attempt = <A>(run: () => Promise<A>) =>
  Effect.tryPromise({ try: run, catch: (error) => new PasskeyRefusal(error instanceof Error ? error.message : String(error)) })

export const registrationOptions = (rp: RelyingPartyConfig, user: { readonly handle: Uint8Array; readonly name: string }, challenge: Uint8Array, exclude: ReadonlyArray<string>) =>
  Effect.promise(() =>
    generateRegistrationOptions({
      rpName: rp.name,
      rpID: rp.id,
      userName: user.name,
      userID: new Uint8Array(user.handle),
      challenge: new Uint8Array(challenge),
      attestationType: "none",
      supportedAlgorithmIDs: algorithms,
      excludeCredentials: exclude.map((id) => ({ id })),
      authenticatorSelection: { residentKey: "required", requireResidentKey: true, userVerification: "required" }
    }))

export const authenticationOptions = (rp: RelyingPartyConfig, challenge: Uint8Array, allow: ReadonlyArray<string> = []) =>
  Effect.promise(() =>
    generateAuthenticationOptions({
      rpID: rp.id,
      challenge: new Uint8Array(challenge),
      userVerification: "required",
      allowCredentials: allow.map((id) => ({ id }))
    }))

/** The challenge a browser's message answers (from its clientDataJSON), or null when unreadable. */
export const challengeOf = (credential: Auth.Shared.WebAuthnCredential): string | null => {
  const bytes = Base64Url.decode(credential.response.clientDataJSON)
  if (Result.isFailure(bytes)) return null
  try {
    const data = JSON.parse(new TextDecoder().decode(bytes.success)) as { challenge?: unknown }
    return typeof data.challenge === "string" ? data.challenge : null
  } catch {
    return null
  }
}

export const verifyRegistration = (
  rp: RelyingPartyConfig,
  credential: Auth.Shared.WebAuthnCredential,
  expectedChallenge: string,
  requireUserVerification = true
) =>
  Effect.flatMap(
    attempt(() =>
      verifyRegistrationResponse({
        response: credential as unknown as RegistrationResponseJSON,
        expectedChallenge,
        expectedOrigin: rp.origin,
        expectedRPID: rp.id,
        requireUserVerification,
        supportedAlgorithmIDs: algorithms
      })),
    (verified) =>
      verified.verified && verified.registrationInfo !== undefined
        ? Effect.succeed<StoredPasskey>({
          credentialId: verified.registrationInfo.credential.id,
          publicKey: verified.registrationInfo.credential.publicKey,
          signCount: verified.registrationInfo.credential.counter,
          transports: verified.registrationInfo.credential.transports ?? []
        })
        : Effect.fail(new PasskeyRefusal("The registration could not be verified."))
  )

/** Verifies an assertion against a stored passkey: its new sign count. A count that did not grow is refused. */
export const verifyAssertion = (
  rp: RelyingPartyConfig,
  credential: Auth.Shared.WebAuthnCredential,
  expectedChallenge: string,
  stored: StoredPasskey,
  requireUserVerification = true
) =>
  Effect.flatMap(
    attempt(() =>
      verifyAuthenticationResponse({
        response: credential as unknown as AuthenticationResponseJSON,
        expectedChallenge,
        expectedOrigin: rp.origin,
        expectedRPID: rp.id,
        requireUserVerification,
        credential: {
          id: stored.credentialId,
          publicKey: new Uint8Array(stored.publicKey),
          counter: stored.signCount,
          transports: stored.transports as never
        }
      })),
    (verified) =>
      verified.verified
        ? Effect.succeed(verified.authenticationInfo.newCounter)
        : Effect.fail(new PasskeyRefusal("The passkey's signature could not be verified."))
  )
