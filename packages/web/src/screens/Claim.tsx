import { type FormEvent, useState } from "react"
import { ledger, type Success } from "../api.ts"
import { ErrorMessage, useAction } from "../useAction.tsx"

/**
 * The owner-invitation claim (spec 4.2, concepts 5.3): the owner of a company a firm created pastes
 * the single-use invitation (`ldgi_…`) and receives the owner's key, shown once. The invitation
 * itself is the credential of this one call, so it goes as `Authorization: Bearer` with no cookie
 * (a request carries exactly one credential); everything else in the app uses the session cookie.
 * No API lists invitations, so there is no pending/claimed list to show: a claimed invitation
 * answers the API's `conflict`, which means someone else used it (revoke the firm's access).
 */

type NewKey = Success<"claimOwnerInvite">

/** The invitation as this call's Bearer credential; the app's fetch then sends no cookie (api.ts). */
const claim = (invitation: string): Promise<NewKey> => ledger.claimOwnerInvite({}, { token: invitation })

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
