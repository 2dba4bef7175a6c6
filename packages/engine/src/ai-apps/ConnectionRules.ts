import { sha256 } from "@noble/hashes/sha2.js"
import { Base64Url } from "effect/encoding"
import type { Scope } from "@ledger/api"

/**
 * The pure rules of AI app authorization (spec 5.6, DECISIONS "AI app authorization",
 * docs/decisions/1700-ai-app-authorization-server.md): what a level lets the app's agent do,
 * PKCE S256, exact redirect URIs, token lifetimes.
 */

export type Level = "read" | "suggest" | "post"

/** Access tokens live an hour, refresh tokens 30 days (rotated on each use), codes 60 seconds. */
export const accessTokenSeconds = 3_600
export const refreshTokenSeconds = 30 * 86_400
export const codeSeconds = 60

/** The largest threshold a bigint column and a JavaScript number agree on: "no per-entry cap". */
export const noCap = Number.MAX_SAFE_INTEGER

/**
 * The scopes the app's agent holds at a level. Reads only at `read`; writes need `propose`
 * at `suggest` and `post` (an agent's writes go through governance: at or under its threshold
 * they post, above it they become proposals). Never `approve` or `admin`: an app never decides
 * proposals nor administers.
 */
export const scopesOf = (level: Level): ReadonlyArray<Scope.Scope> => level === "read" ? ["read"] : ["read", "propose"]

/**
 * The agent's posting threshold at a level: at `suggest` every write is a proposal (0); at
 * `post` the per-entry cap, or no cap when none was set. The daily cap and the allowed accounts
 * bound it further, in the posting's transaction (PostingLimits.ts, ADR 1702).
 */
export const thresholdOf = (level: Level, perEntryCapCents: number | null | undefined): number =>
  level !== "post" ? 0 : perEntryCapCents ?? noCap

/** RFC 7636 4.1: 43 to 128 characters of the unreserved set. */
export const isVerifier = (verifier: string): boolean => /^[A-Za-z0-9._~-]{43,128}$/u.test(verifier)

/** RFC 7636 4.2, S256: BASE64URL(SHA256(ASCII(verifier))), the only method accepted. */
export const challengeOf = (verifier: string): string => Base64Url.encode(sha256(new TextEncoder().encode(verifier)))

export const verifies = (verifier: string, challenge: string): boolean => isVerifier(verifier) && challengeOf(verifier) === challenge

/** A challenge as S256 makes it: 43 base64url characters. */
export const isChallenge = (challenge: string): boolean => /^[A-Za-z0-9_-]{43}$/u.test(challenge)

/** Redirect URIs match exactly, character for character (OAuth 2.1 section 4.1.3). */
export const redirectMatches = (registered: ReadonlyArray<string>, given: string): boolean => registered.includes(given)

/**
 * A redirect URI a client may register: https, or http on a loopback host (native apps,
 * RFC 8252), or a private-use scheme with a dot; never a fragment or userinfo.
 */
export const isAcceptableRedirect = (uri: string): boolean => {
  let url: URL
  try {
    url = new URL(uri)
  } catch {
    return false
  }
  if (url.hash !== "" || uri.includes("#")) return false
  // Userinfo (RFC 3986 3.2.1) hides the real host from a reader of the URI; RFC 6819 5.2.3.5.
  if (url.username !== "" || url.password !== "" || /^[^:/?#]+:\/\/[^/?#]*@/u.test(uri)) return false
  if (url.protocol === "https:") return true
  if (url.protocol === "http:") return ["localhost", "127.0.0.1", "[::1]"].includes(url.hostname)
  return /^[a-z][a-z0-9+.-]*\.[a-z0-9+.-]+:$/u.test(url.protocol)
}

/** The authorization response's redirect: the URI with code and state added to its query. */
export const redirectWithCode = (redirectUri: string, code: string, state: string | undefined, issuer: string | null): string => {
  const url = new URL(redirectUri)
  url.searchParams.set("code", code)
  if (state !== undefined) url.searchParams.set("state", state)
  if (issuer !== null) url.searchParams.set("iss", issuer)
  return url.toString()
}

/** The `scope` a token response names: the level's, as `ledger:<level>`. */
export const scopeText = (level: Level): string => `ledger:${level}`

/**
 * Why a `post` app's entry may not post on its own account choice (ADR 1702): an equity account
 * (never an app's, whatever the list), or an account outside the connection's `account_codes`
 * (null: any). Null when every line is allowed.
 */
export const accountsRefusal = (
  allowed: ReadonlyArray<string> | null,
  accounts: ReadonlyArray<{ readonly code: string; readonly type: string }>
): { readonly type: string; readonly message: string } | null => {
  const equity = [...new Set(accounts.filter((account) => account.type === "equity").map((account) => account.code))]
  if (equity.length > 0) {
    return { type: "equity_account_not_allowed", message: `An AI app never posts to equity accounts (${equity.join(", ")}): a person decides.` }
  }
  if (allowed === null) return null
  const outside = [...new Set(accounts.map((account) => account.code).filter((code) => !allowed.includes(code)))]
  if (outside.length === 0) return null
  return { type: "account_not_allowed", message: `The accounts ${outside.join(", ")} are outside this AI app's allowed accounts: a person decides.` }
}

/** What the daily cap says of a posting of `totalCents` when `postedCents` were posted today: null when it fits. */
export const dailyCapRefusal = (
  capCents: number | null,
  postedCents: number,
  totalCents: number
): { readonly type: string; readonly message: string } | null =>
  capCents === null || postedCents + totalCents <= capCents ? null : {
    type: "over_daily_cap",
    message: `This AI app's daily cap is ${capCents} cents and ${postedCents} cents are posted today (UTC): ${totalCents} more is for a person to decide.`
  }
