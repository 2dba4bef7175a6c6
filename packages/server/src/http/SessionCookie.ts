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

/** The request's credential: the Bearer token, else the session cookie (with the write check). */
export const credentialOf = (
  operation: Operation.Any,
  bearer: string | null,
  headers: { readonly cookie: string | null; readonly antiForgery: string | null }
): Credential => {
  if (bearer !== null || operation.credential !== "company") return { credential: bearer, refusal: null }
  const session = readCookie(headers.cookie, cookieName)
  if (session === null || !session.startsWith("ldgs_")) return { credential: null, refusal: null }
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

/** The outcome with its `Set-Cookie`: the new session on a sign-in, an expired cookie on sign-out. */
export const withCookie = (operation: Operation.Any, outcome: Outcome, host: string | null): Outcome => {
  const body = outcome.body as { readonly secret?: unknown } | null
  if (signInOperations.has(operation.id) && outcome.status === 201 && typeof body?.secret === "string" && body.secret.startsWith("ldgs_")) {
    return { ...outcome, headers: { ...outcome.headers, "Set-Cookie": cookie(body.secret, maxAgeSeconds, host) } }
  }
  if (operation.id === "signOut" && outcome.status === 200) {
    return { ...outcome, headers: { ...outcome.headers, "Set-Cookie": cookie("", 0, host) } }
  }
  return outcome
}
