import { ApiError, type Operation } from "@ledger/api"
import type { Outcome } from "@ledger/engine"

/**
 * Web sessions travel as a cookie as well as a Bearer token (DECISIONS.md): `ledger_session`,
 * HttpOnly, SameSite=Lax, Secure except on loopback, set when a sign-in step answers 201 and
 * cleared by sign-out. A request without `Authorization` is authenticated by the cookie; a write
 * authenticated so must also send `X-Ledger-CSRF` (any value): a cross-site form cannot set a
 * header, and a cross-site script cannot without a CORS preflight this server never grants
 * (docs/decisions/1003-session-cookie-and-anti-forgery.md).
 */

export const cookieName = "ledger_session"
export const antiForgeryHeader = "x-ledger-csrf"
const maxAgeSeconds = 7 * 24 * 3600

const signInOperations = new Set(["signInWithEmailCode", "signInWithPasskey", "completeSecondFactor"])

/** The value of one cookie in a `Cookie` header, or null. */
export const readCookie = (header: string | null, name: string): string | null => {
  if (header === null) return null
  for (const part of header.split(";")) {
    const index = part.indexOf("=")
    if (index > 0 && part.slice(0, index).trim() === name) return part.slice(index + 1).trim() || null
  }
  return null
}

export interface Credential {
  readonly credential: string | null
  /** The request is refused before the pipeline: a cookie-authenticated write without the anti-forgery header. */
  readonly refusal: ApiError.LedgerError | null
}

/**
 * The request's credential: the Bearer token, else the session cookie (with the write check). The
 * cookie holds a person's web session (`ldgs_`) or a firm member's console session (`ldgf_`,
 * docs/decisions/1006-firm-members-sign-in.md): company operations take either (a firm session
 * in the client `X-Ledger-Company` names), firm operations a firm session.
 */
export const credentialOf = (
  operation: Operation.Any,
  bearer: string | null,
  headers: { readonly cookie: string | null; readonly antiForgery: string | null }
): Credential => {
  if (bearer !== null || (operation.credential !== "company" && operation.credential !== "firm")) return { credential: bearer, refusal: null }
  const session = readCookie(headers.cookie, cookieName)
  const accepted = operation.credential === "firm" ? ["ldgf_"] : ["ldgs_", "ldgf_"]
  if (session === null || !accepted.some((prefix) => session.startsWith(prefix))) return { credential: null, refusal: null }
  if (operation.method === "POST" && headers.antiForgery === null) {
    return {
      credential: null,
      refusal: ApiError.fail("forbidden", "A write made with the session cookie must send the X-Ledger-CSRF header.", { header: "X-Ledger-CSRF" })
    }
  }
  return { credential: session, refusal: null }
}

const isLoopback = (host: string | null): boolean => {
  if (host === null) return false
  const name = host.startsWith("[") ? host.slice(1, host.indexOf("]")) : host.split(":")[0]!
  return name === "localhost" || name === "::1" || name.startsWith("127.") || name.endsWith(".localhost")
}

const cookie = (value: string, maxAge: number, host: string | null) =>
  `${cookieName}=${value}; Path=/; HttpOnly; SameSite=Lax; Max-Age=${maxAge}${isLoopback(host) ? "" : "; Secure"}`

/** `Retry-After` of a refusal that says when to retry (the public sign-in steps' abuse limits, 429). */
const retryAfterOf = (outcome: Outcome): string | null => {
  if (outcome.status !== 429 || outcome.headers["Retry-After"] !== undefined) return null
  const seconds = (outcome.body as { readonly error?: { readonly details?: { readonly retry_after_seconds?: unknown } } } | null)
    ?.error?.details?.retry_after_seconds
  return typeof seconds === "number" && Number.isInteger(seconds) && seconds > 0 ? String(seconds) : null
}

/**
 * The outcome with its `Set-Cookie` (the new session on a sign-in, an expired cookie on sign-out)
 * and, on a 429 of a public step, its `Retry-After`.
 */
export const withCookie = (operation: Operation.Any, given: Outcome, host: string | null): Outcome => {
  const retryAfter = operation.credential === "none" ? retryAfterOf(given) : null
  const outcome = retryAfter === null ? given : { ...given, headers: { ...given.headers, "Retry-After": retryAfter } }
  const body = outcome.body as { readonly secret?: unknown } | null
  if (signInOperations.has(operation.id) && outcome.status === 201 && typeof body?.secret === "string" &&
    (body.secret.startsWith("ldgs_") || body.secret.startsWith("ldgf_"))) {
    return { ...outcome, headers: { ...outcome.headers, "Set-Cookie": cookie(body.secret, maxAgeSeconds, host) } }
  }
  if (operation.id === "signOut" && outcome.status === 200) {
    return { ...outcome, headers: { ...outcome.headers, "Set-Cookie": cookie("", 0, host) } }
  }
  return outcome
}
