import { base32 } from "@scure/base"
import { generateURI, generateSync, verifySync } from "otplib"

/**
 * Authenticator apps (RFC 6238 through otplib): SHA-1, 6 digits, 30-second steps, one step of
 * clock drift either way. A code works once: the step it matched is kept, and a code of that step
 * or an earlier one is refused (`afterTimeStep`), so a code seen over a shoulder cannot be replayed.
 */

export const period = 30
export const digits = 6

/** The secret as authenticator apps take it: RFC 4648 base32, no padding. */
export const encodeSecret = (bytes: Uint8Array): string => base32.encode(bytes).replace(/=+$/u, "")

export const otpauthUri = (secret: string, label: string): string =>
  generateURI({ issuer: "Ledger", label, secret, algorithm: "sha1", digits, period })

/** The time step a code matched, or null when it does not match or was used already. */
export const matchedStep = (secret: string, code: string, nowMs: number, lastStep: number | null): number | null => {
  const result = verifySync({
    secret,
    token: code,
    algorithm: "sha1",
    digits,
    period,
    epoch: Math.floor(nowMs / 1000),
    epochTolerance: period,
    ...(lastStep === null ? {} : { afterTimeStep: lastStep })
  })
  // The TOTP strategy's result carries the step it matched (the union type also covers HOTP's).
  return result.valid && "timeStep" in result ? (result as { readonly timeStep: number }).timeStep : null
}

/** The code an app shows at `nowMs` (tests, and the software authenticator of the docs). */
export const codeAt = (secret: string, nowMs: number): string =>
  generateSync({ secret, algorithm: "sha1", digits, period, epoch: Math.floor(nowMs / 1000) })

/** A code with every parameter given (the RFC 6238 vectors use 8 digits and SHA-256/512 too). */
export const codeWith = (options: {
  readonly secret: string
  readonly algorithm: "sha1" | "sha256" | "sha512"
  readonly digits: 6 | 8
  readonly period: number
  readonly epochSeconds: number
}): string =>
  generateSync({ secret: options.secret, algorithm: options.algorithm, digits: options.digits, period: options.period, epoch: options.epochSeconds })
