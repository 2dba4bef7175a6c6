import { base32 } from "@scure/base"
import { Auth } from "@ledger/api"
import * as Secret from "../../kernel/Secret.ts"

/**
 * The pure rules of sign-in (spec 1-concepts 5.5 and 8.2), tested with properties: what an email
 * code attempt comes to, when a session ends, how codes are made from random bytes and hashed.
 */

export const limits = Auth.Shared.limits

/** A person as sign-in rows name them: a company's person or a firm member (the firms seam). */
export type Person =
  | { readonly type: "user"; readonly companyId: string; readonly id: number }
  | { readonly type: "firm_member"; readonly firmId: number; readonly id: number }

export const personKey = (person: Person): string =>
  person.type === "user" ? `user:${person.companyId}:${person.id}` : `firm_member:${person.firmId}:${person.id}`

export const parsePerson = (key: string): Person | null => {
  const [type, scope, id] = key.split(":")
  if (type === "user" && scope !== undefined && id !== undefined) return { type, companyId: scope, id: Number(id) }
  if (type === "firm_member" && scope !== undefined && id !== undefined) return { type, firmId: Number(scope), id: Number(id) }
  return null
}

/** A 6-digit code from 4 random bytes; the bias of the modulo is below one in 4000. */
export const sixDigits = (bytes: Uint8Array): string => {
  const value = ((bytes[0]! << 24) >>> 0) + (bytes[1]! << 16) + (bytes[2]! << 8) + bytes[3]!
  return String(value % 1_000_000).padStart(6, "0")
}

/** A recovery code `xxxxx-xxxxx` from 7 random bytes (50 bits kept). */
export const recoveryCode = (bytes: Uint8Array): string => {
  const text = base32.encode(bytes).toLowerCase().replace(/=+$/u, "").slice(0, 10)
  return `${text.slice(0, 5)}-${text.slice(5, 10)}`
}

/** A code's stored form: bound to what it belongs to (a link, a person), so equal codes hash apart. */
export const codeHash = (boundTo: string, code: string): string => Secret.sha256Hex(`${boundTo}\u0000${code}`)

/** Compares two equal-length hex hashes without an early exit. */
export const sameHash = (left: string, right: string): boolean => {
  if (left.length !== right.length) return false
  let difference = 0
  for (let index = 0; index < left.length; index++) difference |= left.charCodeAt(index) ^ right.charCodeAt(index)
  return difference === 0
}

/** An email link as the code check sees it. */
export interface LinkState {
  readonly status: "pending" | "used" | "locked" | "replaced"
  readonly wrongCodes: number
  readonly expiresAtMs: number
  readonly matches: boolean
}

export type CodeOutcome =
  | { readonly _tag: "SignIn" }
  | { readonly _tag: "Refused"; readonly outcome: "locked" | "expired" | "used" | "replaced" | "invalid" }
  | { readonly _tag: "Wrong"; readonly attemptsLeft: number; readonly locks: boolean }

/**
 * What one code attempt comes to, against the browser's newest link (`latest`, or null when it
 * has none) and whether the code matches an older link of the same browser (`matchesOlder`).
 * A locked link refuses even the right code; five wrong codes lock.
 */
export const codeAttempt = (latest: LinkState | null, matchesOlder: "used" | "replaced" | null, nowMs: number): CodeOutcome => {
  if (latest === null) return matchesOlder === null ? { _tag: "Refused", outcome: "invalid" } : { _tag: "Refused", outcome: matchesOlder }
  if (latest.status === "locked") return { _tag: "Refused", outcome: "locked" }
  if (latest.matches) {
    if (latest.status === "used") return { _tag: "Refused", outcome: "used" }
    if (latest.status === "replaced") return { _tag: "Refused", outcome: "replaced" }
    if (nowMs >= latest.expiresAtMs) return { _tag: "Refused", outcome: "expired" }
    return { _tag: "SignIn" }
  }
  if (matchesOlder !== null) return { _tag: "Refused", outcome: matchesOlder }
  if (latest.status !== "pending") return { _tag: "Refused", outcome: latest.status }
  if (nowMs >= latest.expiresAtMs) return { _tag: "Refused", outcome: "expired" }
  const wrong = latest.wrongCodes + 1
  return { _tag: "Wrong", attemptsLeft: Math.max(0, limits.wrongCodesMax - wrong), locks: wrong >= limits.wrongCodesMax }
}

/** A session's two ends after a use at `nowMs`: idle 8 hours, at most 7 days from its start. */
export const sessionEnds = (createdAtMs: number, nowMs: number): { readonly idleExpiresAtMs: number; readonly expiresAtMs: number } => {
  const expiresAtMs = createdAtMs + limits.sessionMaxMs
  return { expiresAtMs, idleExpiresAtMs: Math.min(expiresAtMs, nowMs + limits.sessionIdleMs) }
}

/** Why a session may not act at `nowMs`, or null. */
export const sessionEndedBecause = (
  session: { readonly revokedAtMs: number | null; readonly expiresAtMs: number; readonly idleExpiresAtMs: number },
  nowMs: number
): string | null => {
  if (session.revokedAtMs !== null) return "The session has ended (signed out or revoked)."
  if (nowMs >= session.expiresAtMs) return "The session has expired: sign in again."
  if (nowMs >= session.idleExpiresAtMs) return "The session expired after 8 hours without use: sign in again."
  return null
}

/** A second-step ticket's wrong codes: the fifth ends it. */
export const ticketAttempt = (wrongCodes: number): { readonly attemptsLeft: number; readonly locks: boolean } => {
  const wrong = wrongCodes + 1
  return { attemptsLeft: Math.max(0, limits.wrongCodesMax - wrong), locks: wrong >= limits.wrongCodesMax }
}

/** Whether another step-up may be tried: at most 5 in any hour. */
export const stepUpAllowed = (attemptsInLastHour: number): boolean => attemptsInLastHour < limits.stepUpsPerHour

/**
 * One abuse limit's verdict over a sliding window (docs/decisions/1005-sign-in-abuse-limits.md):
 * `times` are the counted steps' times in the window, oldest first. Allowed while fewer than
 * `max`; else the step is refused until enough of them leave the window that one more fits,
 * which is when the `max`-th newest leaves it.
 */
export const throttleVerdict = (
  times: ReadonlyArray<number>,
  max: number,
  windowMs: number,
  nowMs: number
): { readonly allowed: true } | { readonly allowed: false; readonly retryAfterSeconds: number } => {
  const inWindow = times.filter((time) => time > nowMs - windowMs && time <= nowMs)
  if (inWindow.length < max) return { allowed: true }
  const freesAt = inWindow[inWindow.length - max]! + windowMs
  return { allowed: false, retryAfterSeconds: Math.max(1, Math.ceil((freesAt - nowMs) / 1000)) }
}
