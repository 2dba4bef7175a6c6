import { type FormEvent, useState } from "react"
import { ApiFailure } from "../api.ts"
import { ErrorMessage, useAction } from "../useAction.tsx"

/**
 * The owner-invitation claim (spec 4.2, concepts 5.3): the owner of a company a firm created pastes
 * the single-use invitation (`ldgi_…`) and receives the owner's key, shown once. The invitation
 * itself is the credential of this one call, so it goes as `Authorization: Bearer` with no cookie
 * (a request carries exactly one credential); everything else in the app uses the session cookie.
 * No API lists invitations, so there is no pending/claimed list to show: a claimed invitation
 * answers the API's `conflict`, which means someone else used it (revoke the firm's access).
 */

interface NewKey { readonly secret: string; readonly key?: { readonly expires_at?: string | null } }

const claim = async (invitation: string): Promise<NewKey> => {
  const response = await fetch("/v1/owner-invites/claim", {
    method: "POST",
    credentials: "omit",
    headers: {
      accept: "application/json",
      authorization: `Bearer ${invitation}`,
      "content-type": "application/json",
      "idempotency-key": crypto.randomUUID()
    },
    body: "{}"
  }).catch(() => {
    throw new ApiFailure(0, { type: "network_error", message: "The server could not be reached. Check your connection and try again." })
  })
  const payload = (await response.json().catch(() => null)) as { error?: { type?: string; message?: string } } | null
  if (!response.ok) {
    throw new ApiFailure(response.status, { type: String(payload?.error?.type ?? "http_error"), message: payload?.error?.message ?? `The server answered ${response.status}.` })
  }
  return payload as unknown as NewKey
}

export const Claim = () => {
  const [invitation, setInvitation] = useState("")
  const [key, setKey] = useState<NewKey | null>(null)
  const { busy, error, run } = useAction()
  const submit = (event: FormEvent) => {
    event.preventDefault()
    void run(async () => {
      setKey(await claim(invitation.trim()))
      setInvitation("")
    })
  }
  return (
    <section aria-labelledby="claim-title" className="card narrow">
      <h1 id="claim-title">Claim your company</h1>
      {key === null ? (
        <form onSubmit={submit}>
          <p>Your accountant created your company's books and sent you a single-use invitation. Claim it to receive the owner's key.</p>
          <label htmlFor="invitation">Invitation (starts with ldgi_)</label>
          <input id="invitation" value={invitation} autoComplete="off" maxLength={200} onChange={(event) => setInvitation(event.target.value)} />
          <button type="submit" disabled={busy || invitation.trim() === ""}>Claim</button>
          <ErrorMessage error={error} />
        </form>
      ) : (
        <div role="status">
          <p>Claimed. This is your owner key; it is shown only this once, so store it somewhere safe:</p>
          <p><code aria-label="Owner key">{key.secret}</code></p>
        </div>
      )}
    </section>
  )
}
