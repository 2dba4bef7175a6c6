import { type FormEvent, useCallback, useEffect, useState } from "react"
import { ApiFailure, call, cookieCaller, messageOf } from "../api.ts"
import { ErrorMessage, useAction } from "../useAction.tsx"

/**
 * The person's own sign-in settings (auth area, spec 4.14): passkeys, the authenticator app,
 * recovery codes, this session, and signing out everywhere else. Changes to passkeys and two-step
 * need a step-up within 10 minutes (signing in counts as one); when the API answers
 * `step_up_required` the step-up form is shown and the person retries after confirming.
 */

interface Passkey { readonly id: number; readonly name: string; readonly created_at: string; readonly last_used_at: string | null }

interface Settings {
  readonly email: string | null
  readonly email_verified: boolean
  readonly passkeys: ReadonlyArray<Passkey>
  readonly authenticator_app: { readonly enabled: boolean; readonly pending: boolean; readonly confirmed_at: string | null }
  readonly recovery_codes: { readonly remaining: number; readonly created_at: string | null }
  readonly two_step_required: boolean
  readonly session: { readonly method: string; readonly expires_at: string; readonly stepped_up_until: string | null }
}

interface CreationStatics { parseCreationOptionsFromJSON?: (options: unknown) => CredentialCreationOptions["publicKey"] }

const day = (timestamp: string | null) => (timestamp === null ? "never" : timestamp.slice(0, 16).replace("T", " "))

/** A labelled one-field form: the pattern every small action here uses. */
const OneField = (props: {
  readonly id: string; readonly label: string; readonly button: string; readonly busy: boolean
  readonly inputMode?: "numeric" | "text"; readonly onSubmit: (value: string) => void
}) => {
  const [value, setValue] = useState("")
  const submit = (event: FormEvent) => {
    event.preventDefault()
    props.onSubmit(value.trim())
    setValue("")
  }
  return (
    <form onSubmit={submit}>
      <label htmlFor={props.id}>{props.label}</label>
      <input id={props.id} value={value} inputMode={props.inputMode ?? "text"} autoComplete="off" maxLength={200} onChange={(event) => setValue(event.target.value)} />
      <button type="submit" disabled={props.busy}>{props.button}</button>
    </form>
  )
}

export const Security = () => {
  const [settings, setSettings] = useState<Settings | null>(null)
  const [loadError, setLoadError] = useState<string | null>(null)
  const [status, setStatus] = useState<string | null>(null)
  const [stepUp, setStepUp] = useState(false)
  const [secret, setSecret] = useState<{ secret: string; otpauth_uri: string } | null>(null)
  const [codes, setCodes] = useState<ReadonlyArray<string> | null>(null)
  const { busy, error, run } = useAction()

  const load = useCallback(async () => {
    try {
      setSettings((await call<Settings>(cookieCaller, "GET", "/v1/me/security")).body)
      setLoadError(null)
    } catch (failure) {
      setLoadError(messageOf(failure))
    }
  }, [])
  useEffect(() => void load(), [load])

  /** Runs a change; a `step_up_required` refusal opens the step-up form as well as showing the message. */
  const change = (work: () => Promise<string>) =>
    void run(async () => {
      try {
        setStatus(await work())
        await load()
      } catch (failure) {
        if (failure instanceof ApiFailure && failure.body.type === "step_up_required") setStepUp(true)
        throw failure
      }
    })

  const addPasskey = () => change(async () => {
    const statics = window.PublicKeyCredential as unknown as CreationStatics | undefined
    if (statics?.parseCreationOptionsFromJSON === undefined) throw new Error("This browser cannot create a passkey.")
    const options = await call<{ options: unknown }>(cookieCaller, "POST", "/v1/me/passkeys/challenge", {})
    const publicKey = statics.parseCreationOptionsFromJSON(options.body.options)
    const credential = await navigator.credentials.create(publicKey === undefined ? {} : { publicKey }) as (Credential & { toJSON(): unknown }) | null
    if (credential === null) throw new Error("No passkey was created.")
    await call(cookieCaller, "POST", "/v1/me/passkeys", { credential: credential.toJSON() })
    return "Passkey added."
  })

  if (loadError !== null) return <section aria-labelledby="security-title"><h1 id="security-title">Security</h1><p role="alert" className="error">{loadError}</p></section>
  if (settings === null) return <p role="status">Loading your sign-in settings…</p>
  const app = settings.authenticator_app
  return (
    <section aria-labelledby="security-title">
      <h1 id="security-title">Security</h1>
      {status === null ? null : <p role="status">{status}</p>}
      <ErrorMessage error={error} />
      {stepUp ? (
        <div className="card">
          <h2>Confirm it is you</h2>
          <p>This change needs a recent confirmation: enter a code from your authenticator app or a recovery code, then try again.</p>
          <OneField id="step-up-code" label="Authenticator or recovery code" button="Confirm" busy={busy} onSubmit={(code) => change(async () => {
            await call(cookieCaller, "POST", "/v1/me/step-up", /^\d{6}$/u.test(code) ? { totp_code: code } : { recovery_code: code })
            setStepUp(false)
            return "Confirmed for 10 minutes."
          })} />
        </div>
      ) : null}

      <div className="card">
        <h2>Sign-in</h2>
        <p>Email: {settings.email ?? "none"}{settings.email === null ? "" : settings.email_verified ? " (verified)" : " (not verified yet)"}</p>
        <p>This session: signed in by {settings.session.method.replace(/_/gu, " ")}, until {day(settings.session.expires_at)}; {settings.session.stepped_up_until === null ? "not confirmed recently" : `confirmed until ${day(settings.session.stepped_up_until)}`}.</p>
        {settings.two_step_required ? <p>Your company requires two-step sign-in.</p> : null}
        <button type="button" className="secondary" disabled={busy} onClick={() => change(async () => {
          const answer = await call<{ revoked: number }>(cookieCaller, "POST", "/v1/me/sessions/revoke-others", { reason: "Signed out from the security settings" })
          return `Signed out ${answer.body.revoked} other session${answer.body.revoked === 1 ? "" : "s"}.`
        })}>Sign out other sessions</button>
      </div>

      <div className="card">
        <h2>Passkeys</h2>
        {settings.passkeys.length === 0 ? <p>No passkeys yet.</p> : (
          <ul aria-label="Passkeys">
            {settings.passkeys.map((passkey) => (
              <li key={passkey.id}>
                {passkey.name}, added {day(passkey.created_at)}, last used {day(passkey.last_used_at)}{" "}
                <button type="button" className="secondary" disabled={busy} aria-label={`Remove passkey ${passkey.name}`} onClick={() => change(async () => {
                  await call(cookieCaller, "POST", `/v1/me/passkeys/${passkey.id}/remove`, {})
                  return `Removed passkey ${passkey.name}.`
                })}>Remove</button>
              </li>
            ))}
          </ul>
        )}
        <button type="button" disabled={busy} onClick={addPasskey}>Add a passkey</button>
      </div>

      <div className="card">
        <h2>Authenticator app</h2>
        <p>{app.enabled ? `On since ${day(app.confirmed_at)}.` : app.pending ? "Waiting for a first code." : "Off."}</p>
        {secret === null ? null : (
          <div>
            <p>Add this key to your authenticator app (shown once): <code>{secret.secret}</code></p>
            <p><a href={secret.otpauth_uri}>Open in an authenticator app</a></p>
          </div>
        )}
        {app.enabled ? (
          <OneField id="totp-disable" label="Code from the app, to turn it off" button="Turn off" inputMode="numeric" busy={busy} onSubmit={(code) => change(async () => {
            await call(cookieCaller, "POST", "/v1/me/totp/disable", { code })
            return "Authenticator app turned off."
          })} />
        ) : (
          <>
            <button type="button" disabled={busy} onClick={() => change(async () => {
              setSecret((await call<{ secret: string; otpauth_uri: string }>(cookieCaller, "POST", "/v1/me/totp", {})).body)
              return "Scan or type the key into your app, then enter its code."
            })}>Set up an authenticator app</button>
            {app.pending || secret !== null ? (
              <OneField id="totp-confirm" label="First code from the app" button="Confirm the app" inputMode="numeric" busy={busy} onSubmit={(code) => change(async () => {
                await call(cookieCaller, "POST", "/v1/me/totp/confirm", { code })
                setSecret(null)
                return "Authenticator app turned on."
              })} />
            ) : null}
          </>
        )}
      </div>

      <div className="card">
        <h2>Recovery codes</h2>
        <p>{settings.recovery_codes.remaining} unused{settings.recovery_codes.created_at === null ? "" : `, made ${day(settings.recovery_codes.created_at)}`}.</p>
        {codes === null ? null : (
          <>
            <p>Keep these somewhere safe; they are shown once and each works once:</p>
            <ul aria-label="New recovery codes" className="codes">{codes.map((code) => <li key={code}><code>{code}</code></li>)}</ul>
          </>
        )}
        <button type="button" disabled={busy} onClick={() => change(async () => {
          setCodes((await call<{ codes: ReadonlyArray<string> }>(cookieCaller, "POST", "/v1/me/recovery-codes", {})).body.codes)
          return "New recovery codes made; the old ones no longer work."
        })}>Make new recovery codes</button>
      </div>
    </section>
  )
}
