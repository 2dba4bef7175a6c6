/**
 * Where the consent screen's Decline sends the browser: the server's `/oauth/decline` with the
 * request's client, redirect URI and state, nothing the person chose. The server checks the client
 * and redirect URI again and answers with the redirect back to the app carrying
 * `error=access_denied` and the state (RFC 6749 4.1.2.1, docs/ai-apps.md).
 */
export const declineUrl = (params: URLSearchParams): string => {
  const query = new URLSearchParams()
  for (const name of ["client_id", "redirect_uri", "state"] as const) {
    const value = params.get(name)
    if (value !== null) query.set(name, value)
  }
  return `/oauth/decline?${query.toString()}`
}
