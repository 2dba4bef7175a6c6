import { randomBytes } from "node:crypto"

/**
 * Intuit's OAuth 2.0 server as the online edition's fake needs it (issue 39), from Intuit's
 * published OAuth 2.0 documentation: the token endpoint (`/oauth2/v1/tokens/bearer`, a form, the
 * client by HTTP Basic) grants `authorization_code` and `refresh_token`; an access token lasts
 * `expires_in` (3,600 seconds) of the fake's clock, after which the API answers 401
 * AuthenticationFailed; each refresh answers a new refresh token and the one sent stops working
 * (Intuit rotates them: the client must keep the latest); the revoke endpoint
 * (`/v2/oauth2/tokens/revoke`, JSON `{token}`) ends the whole grant, as does the person
 * disconnecting the app (`disconnect`), after which a refresh is `invalid_grant`. Errors are RFC
 * 6749's `{error}`.
 */

type Json = Record<string, any>

/** The fake's time, in epoch milliseconds: the test's clock when it gives one. */
export interface FakeClock {
  readonly now: () => number
}

/** One consent: its current access and refresh tokens. */
interface Grant {
  access: string
  accessEnds: number
  refresh: string
  live: boolean
}

export interface State {
  readonly codes: Set<string>
  readonly grants: Array<Grant>
  readonly revoked: Array<string>
  readonly clock: FakeClock
  /** Refresh grants answered, for tests. */
  refreshes: number
}

export const accessLifeSeconds = 3_600
/** Intuit's refresh token lasts 100 days (`x_refresh_token_expires_in`). */
const refreshLifeSeconds = 8_640_000

export const makeState = (clock: FakeClock): State => ({ codes: new Set(), grants: [], revoked: [], clock, refreshes: 0 })

const json = (status: number, body: unknown) => new Response(JSON.stringify(body), { status, headers: { "content-type": "application/json" } })

const issue = (state: State, grant: Grant) => {
  grant.access = `qbo_${randomBytes(12).toString("hex")}`
  grant.accessEnds = state.clock.now() + accessLifeSeconds * 1000
  grant.refresh = `AB11${randomBytes(12).toString("hex")}`
  return json(200, {
    access_token: grant.access, token_type: "bearer", expires_in: accessLifeSeconds,
    refresh_token: grant.refresh, x_refresh_token_expires_in: refreshLifeSeconds
  })
}

/** Whether a bearer token opens the API now: issued, its grant live, its hour not over. */
export const accessOpens = (state: State, token: string): boolean =>
  state.grants.some((grant) => grant.live && grant.access === token && state.clock.now() < grant.accessEnds)

const grantOf = async (state: State, form: URLSearchParams): Promise<Response> => {
  const kind = form.get("grant_type")
  if (kind === "authorization_code") {
    if (!URL.canParse(form.get("redirect_uri") ?? "")) return json(400, { error: "invalid_request" })
    if (!state.codes.delete(form.get("code") ?? "")) return json(400, { error: "invalid_grant" })
    const grant: Grant = { access: "", accessEnds: 0, refresh: "", live: true }
    state.grants.push(grant)
    return issue(state, grant)
  }
  if (kind === "refresh_token") {
    const sent = form.get("refresh_token") ?? ""
    if (sent === "") return json(400, { error: "invalid_request" })
    // A rotated-out, revoked or unknown refresh token: only a new consent helps.
    const grant = state.grants.find((each) => each.live && each.refresh === sent)
    if (grant === undefined) return json(400, { error: "invalid_grant" })
    state.refreshes++
    return issue(state, grant)
  }
  return json(400, { error: "unsupported_grant_type" })
}

/** The OAuth endpoints' answer to a request, or null when the request is not for them. */
export const answer = async (state: State, request: Request, url: URL, clientBasic: string): Promise<Response | null> => {
  if (url.pathname !== "/oauth2/v1/tokens/bearer" && url.pathname !== "/v2/oauth2/tokens/revoke") return null
  if (request.method !== "POST") return json(405, { error: "invalid_request" })
  if (request.headers.get("authorization") !== clientBasic) return json(401, { error: "invalid_client" })
  if (url.pathname === "/oauth2/v1/tokens/bearer") return grantOf(state, new URLSearchParams(await request.text()))
  let body: Json
  try {
    body = await request.json() as Json
  } catch {
    return json(400, { error: "invalid_request" })
  }
  if (typeof body.token !== "string") return json(400, { error: "invalid_request" })
  // Either token of a grant revokes the grant (Intuit: revoking the refresh token revokes both).
  for (const grant of state.grants) if (grant.access === body.token || grant.refresh === body.token) grant.live = false
  state.revoked.push(body.token)
  return new Response(null, { status: 200 })
}

/** The person disconnects the app in the online edition: every grant ends, and refreshing is `invalid_grant`. */
export const disconnect = (state: State) => {
  for (const grant of state.grants) grant.live = false
}

/** Every access token ends now, before its hour (the client's clock then says it is fresh; the API says 401). */
export const endAccessTokens = (state: State) => {
  for (const grant of state.grants) grant.accessEnds = Math.min(grant.accessEnds, state.clock.now())
}
