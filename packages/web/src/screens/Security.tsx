import { type FormEvent, useCallback, useEffect, useState } from "react"
import { type Input, isClientError, type OperationOf } from "@ledger/client"
import { ledger, messageOf, type Success } from "../api.ts"
import { ErrorMessage, useAction } from "../useAction.tsx"

/**
 * The person's own sign-in settings (auth area, spec 4.14): passkeys, the authenticator app,
 * recovery codes, this session, and signing out everywhere else. Changes to passkeys and two-step
 * need a step-up within 10 minutes (signing in counts as one); when the API answers
 * `step_up_required` the step-up form is shown and the person retries after confirming.
 */

type Settings = Success<"getSecurity">
type Secret = Success<"enrolTotp">
type Credential = Input<OperationOf<"addPasskey">>["credential"]

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

/** Runs a change that answers what to tell the person. */
type Change = (work: () => Promise<string>) => void

/** The settings, read again after each change, and the change runner with its step-up handling. */
const useSecurity = () => {
  const [settings, setSettings] = useState<Settings | null>(null)
  const [loadError, setLoadError] = useState<string | null>(null)
  const [status, setStatus] = useState<string | null>(null)
  const [stepUp, setStepUp] = useState(false)
  const [secret, setSecret] = useState<Secret | null>(null)
  const [codes, setCodes] = useState<ReadonlyArray<string> | null>(null)
  const { busy, error, run } = useAction()

  const load = useCallback(async () => {
    try {
      setSettings(await ledger.getSecurity())
      setLoadError(null)
    } catch (failure) {
      setLoadError(messageOf(failure))
    }
  }, [])
  useEffect(() => void load(), [load])

  /** Runs a change; a `step_up_required` refusal opens the step-up form as well as showing the message. */
  const change: Change = (work) =>
    void run(async () => {
      try {
        setStatus(await work())
        await load()
      } catch (failure) {
        if (isClientError(failure, "step_up_required")) setStepUp(true)
        throw failure
      }
    })
  return { settings, loadError, status, stepUp, setStepUp, secret, setSecret, codes, setCodes, busy, error, change }
}

const addPasskey = async () => {
  const statics = window.PublicKeyCredential as unknown as CreationStatics | undefined
  if (statics?.parseCreationOptionsFromJSON === undefined) throw new Error("This browser cannot create a passkey.")
  const options = await ledger.passkeyRegistrationOptions()
  const publicKey = statics.parseCreationOptionsFromJSON(options.options)
  const credential = await navigator.credentials.create(publicKey === undefined ? {} : { publicKey }) as (Credential & { toJSON(): unknown }) | null
  if (credential === null) throw new Error("No passkey was created.")
  await ledger.addPasskey({ credential: credential.toJSON() as Credential })
  return "Passkey added."
}

const StepUpCard = (props: { readonly busy: boolean; readonly change: Change; readonly onConfirmed: () => void }) => (
  <div className="card">
    <h2>Confirm it is you</h2>
    <p>This change needs a recent confirmation: enter a code from your authenticator app or a recovery code, then try again.</p>
    <OneField id="step-up-code" label="Authenticator or recovery code" button="Confirm" busy={props.busy} onSubmit={(code) => props.change(async () => {
      await ledger.stepUp(/^\d{6}$/u.test(code) ? { totp_code: code } : { recovery_code: code })
      props.onConfirmed()
      return "Confirmed for 10 minutes."
    })} />
  </div>
)

const SignInCard = (props: { readonly settings: Settings; readonly busy: boolean; readonly change: Change }) => {
  const { settings } = props
  return (
    <div className="card">
      <h2>Sign-in</h2>
      <p>Email: {settings.email ?? "none"}{settings.email === null ? "" : settings.email_verified ? " (verified)" : " (not verified yet)"}</p>
      <p>This session: signed in by {settings.session.method.replace(/_/gu, " ")}, until {day(settings.session.expires_at)}; {settings.session.stepped_up_until === null ? "not confirmed recently" : `confirmed until ${day(settings.session.stepped_up_until)}`}.</p>
      {settings.two_step_required ? <p>Your company requires two-step sign-in.</p> : null}
      <button type="button" className="secondary" disabled={props.busy} onClick={() => props.change(async () => {
        const answer = await ledger.revokeOtherSessions({ reason: "Signed out from the security settings" })
        return `Signed out ${answer.revoked} other session${answer.revoked === 1 ? "" : "s"}.`
      })}>Sign out other sessions</button>
    </div>
  )
}

const PasskeysCard = (props: { readonly passkeys: Settings["passkeys"]; readonly busy: boolean; readonly change: Change }) => (
  <div className="card">
    <h2>Passkeys</h2>
    {props.passkeys.length === 0 ? <p>No passkeys yet.</p> : (
      <ul aria-label="Passkeys">
        {props.passkeys.map((passkey) => (
          <li key={passkey.id}>
            {passkey.name}, added {day(passkey.created_at)}, last used {day(passkey.last_used_at)}{" "}
            <button type="button" className="secondary" disabled={props.busy} aria-label={`Remove passkey ${passkey.name}`} onClick={() => props.change(async () => {
              await ledger.removePasskey({ id: passkey.id })
              return `Removed passkey ${passkey.name}.`
            })}>Remove</button>
          </li>
        ))}
      </ul>
    )}
    <button type="button" disabled={props.busy} onClick={() => props.change(addPasskey)}>Add a passkey</button>
  </div>
)

const AuthenticatorCard = (props: {
  readonly app: Settings["authenticator_app"]; readonly secret: Secret | null; readonly setSecret: (secret: Secret | null) => void
  readonly busy: boolean; readonly change: Change
}) => {
  const { app, secret, busy, change } = props
  return (
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
          await ledger.disableTotp({ code })
          return "Authenticator app turned off."
        })} />
      ) : (
        <>
          <button type="button" disabled={busy} onClick={() => change(async () => {
            props.setSecret(await ledger.enrolTotp())
            return "Scan or type the key into your app, then enter its code."
          })}>Set up an authenticator app</button>
          {app.pending || secret !== null ? (
            <OneField id="totp-confirm" label="First code from the app" button="Confirm the app" inputMode="numeric" busy={busy} onSubmit={(code) => change(async () => {
              await ledger.confirmTotp({ code })
              props.setSecret(null)
              return "Authenticator app turned on."
            })} />
          ) : null}
        </>
      )}
    </div>
  )
}

const RecoveryCodesCard = (props: {
  readonly recovery: Settings["recovery_codes"]; readonly codes: ReadonlyArray<string> | null; readonly setCodes: (codes: ReadonlyArray<string>) => void
  readonly busy: boolean; readonly change: Change
}) => (
  <div className="card">
    <h2>Recovery codes</h2>
    <p>{props.recovery.remaining} unused{props.recovery.created_at === null ? "" : `, made ${day(props.recovery.created_at)}`}.</p>
    {props.codes === null ? null : (
      <>
        <p>Keep these somewhere safe; they are shown once and each works once:</p>
        <ul aria-label="New recovery codes" className="codes">{props.codes.map((code) => <li key={code}><code>{code}</code></li>)}</ul>
      </>
    )}
    <button type="button" disabled={props.busy} onClick={() => props.change(async () => {
      props.setCodes((await ledger.createRecoveryCodes()).codes)
      return "New recovery codes made; the old ones no longer work."
    })}>Make new recovery codes</button>
  </div>
)

export const Security = () => {
  const security = useSecurity()
  const { settings, busy, change } = security
  if (security.loadError !== null) return <section aria-labelledby="security-title"><h1 id="security-title">Security</h1><p role="alert" className="error">{security.loadError}</p></section>
  if (settings === null) return <p role="status">Loading your sign-in settings…</p>
  return (
    <section aria-labelledby="security-title">
      <h1 id="security-title">Security</h1>
      {security.status === null ? null : <p role="status">{security.status}</p>}
      <ErrorMessage error={security.error} />
      {security.stepUp ? <StepUpCard busy={busy} change={change} onConfirmed={() => security.setStepUp(false)} /> : null}
      <SignInCard settings={settings} busy={busy} change={change} />
      <PasskeysCard passkeys={settings.passkeys} busy={busy} change={change} />
      <AuthenticatorCard app={settings.authenticator_app} secret={security.secret} setSecret={security.setSecret} busy={busy} change={change} />
      <RecoveryCodesCard recovery={settings.recovery_codes} codes={security.codes} setCodes={security.setCodes} busy={busy} change={change} />
    </section>
  )
}
