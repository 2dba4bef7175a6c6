import { isAcceptableRedirect } from "./ConnectionRules.ts"

/**
 * OAuth client ID metadata documents (MCP authorization spec, draft-ietf-oauth-client-id-metadata-
 * document; ADR 1706), as pure rules: a client whose `client_id` is an https URL publishes its
 * metadata at that URL. The server fetches it (http/OAuth.ts, through the webhooks' checked
 * transport), these rules judge the URL and the document, and OAuth.ts keeps the client in
 * `oauth_clients` until the document's cache time passes.
 */

/** Whether a client id names a metadata document rather than a registered `ldgc_` client. */
export const isDocumentClientId = (clientId: string): boolean => /^https?:\/\//iu.test(clientId)

export const clientIdLengthMax = 2_000

/**
 * Why a URL may not be a client id, or null: https (http only where private addresses are
 * allowed, for tests), a path other than `/`, no fragment, no user name or password, no `.` or
 * `..` segment.
 */
export const clientIdProblem = (clientId: string, allowHttp: boolean): string | null => {
  if (clientId.length > clientIdLengthMax) return `A client id URL has at most ${clientIdLengthMax} characters.`
  let url: URL
  try {
    url = new URL(clientId)
  } catch {
    return "The client id is not a URL."
  }
  if (url.protocol !== "https:" && !(allowHttp && url.protocol === "http:")) return "A client id URL must use https."
  if (url.hash !== "" || clientId.includes("#")) return "A client id URL may not have a fragment."
  if (url.username !== "" || url.password !== "") return "A client id URL may not carry a user name or password."
  if (url.pathname === "/" || url.pathname === "") return "A client id URL must have a path."
  const raw = clientId.slice(clientId.indexOf("//") + 2)
  const path = raw.includes("/") ? raw.slice(raw.indexOf("/")).split(/[?]/u)[0]! : ""
  if (path.split("/").some((segment) => segment === "." || segment === "..")) return "A client id URL may not have . or .. segments."
  return null
}

export const redirectUrisMax = 10
export const clientNameMax = 200

export interface DocumentClient {
  readonly clientName: string | null
  readonly redirectUris: ReadonlyArray<string>
  /** What is kept of the document (shown on the consent screen, audited). */
  readonly metadata: Record<string, unknown>
}

/**
 * The document at `clientId`, judged: a JSON object whose `client_id` is that URL exactly, with
 * 1 to 10 acceptable redirect URIs, a public client (`token_endpoint_auth_method` absent or
 * `none`, no secret), and only the grants and response types this server has.
 */
export const parseDocument = (clientId: string, text: string): DocumentClient | { readonly problem: string } => {
  let document: unknown
  try {
    document = JSON.parse(text)
  } catch {
    return { problem: "The client metadata document is not JSON." }
  }
  if (typeof document !== "object" || document === null || Array.isArray(document)) return { problem: "The client metadata document must be a JSON object." }
  const fields = document as Record<string, unknown>
  if (fields.client_id !== clientId) return { problem: "The client metadata document's client_id must be its own URL, exactly." }
  const uris = fields.redirect_uris
  if (!Array.isArray(uris) || uris.length === 0 || uris.length > redirectUrisMax) {
    return { problem: `The client metadata document must list 1 to ${redirectUrisMax} redirect_uris.` }
  }
  if (!uris.every((uri) => typeof uri === "string" && uri.length <= 2_000 && isAcceptableRedirect(uri))) {
    return { problem: "Each redirect URI must be https, http on a loopback host, or a private-use scheme, without a fragment." }
  }
  const method = fields.token_endpoint_auth_method
  if ((method !== undefined && method !== "none") || "client_secret" in fields || "client_secret_expires_at" in fields) {
    return { problem: "A client metadata document describes a public client: token_endpoint_auth_method none and no secret." }
  }
  const grants = fields.grant_types
  if (grants !== undefined && (!Array.isArray(grants) || grants.some((grant) => grant !== "authorization_code" && grant !== "refresh_token"))) {
    return { problem: "Only the authorization_code and refresh_token grants are supported." }
  }
  const responses = fields.response_types
  if (responses !== undefined && (!Array.isArray(responses) || responses.some((type) => type !== "code"))) {
    return { problem: "Only response_type code is supported." }
  }
  const name = typeof fields.client_name === "string" && fields.client_name.trim() !== "" ? fields.client_name.trim().slice(0, clientNameMax) : null
  const text200 = (value: unknown) => typeof value === "string" ? value.slice(0, 2_000) : null
  return {
    clientName: name,
    redirectUris: uris as Array<string>,
    metadata: { client_name: name, client_uri: text200(fields.client_uri), logo_uri: text200(fields.logo_uri), software_id: text200(fields.software_id), document: true }
  }
}

/** A document is trusted for its `max-age`, within 1 minute and 1 day; without one, an hour. */
export const cacheSecondsMin = 60
export const cacheSecondsMax = 86_400
export const cacheSecondsDefault = 3_600

export const cacheSecondsOf = (cacheControl: string | null): number => {
  if (cacheControl === null) return cacheSecondsDefault
  if (/\b(no-store|no-cache)\b/iu.test(cacheControl)) return cacheSecondsMin
  const maxAge = /\bmax-age\s*=\s*(\d{1,9})\b/iu.exec(cacheControl)?.[1]
  if (maxAge === undefined) return cacheSecondsDefault
  return Math.min(cacheSecondsMax, Math.max(cacheSecondsMin, Number(maxAge)))
}
