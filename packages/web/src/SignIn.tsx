import { type FormEvent, useState } from "react"
import type { Input, OperationOf } from "@ledger/client"
import { ledger, type Success } from "./api.ts"
import { ErrorMessage, useAction } from "./useAction.tsx"

/**
 * Sign-in by an emailed code (with the second step when the person has an authenticator app), or
 * by a passkey. The code is bound to this browser: a random value kept in localStorage and sent
 * with both steps (docs/decisions/1900-web-app-stack-and-serving.md).
 */

const browserKey = "ledger.browser"

const browserValue = (): string => {
  const kept = window.localStorage.getItem(browserKey)
  if (kept !== null && /^[A-Za-z0-9_-]{16,128}$/.test(kept)) return kept
  const bytes = crypto.getRandomValues(new Uint8Array(24))
  const value = btoa(String.fromCharCode(...bytes)).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "")
  window.localStorage.setItem(browserKey, value)
  return value
}

type Step =
  | { readonly name: "email" }
  | { readonly name: "code" }
  | { readonly name: "second"; readonly ticket: string }

/**
 * The 200 answer of `signInWithEmailCode` when a second step is needed (`SecondStepRequired` in
 * @ledger/api auth/Shared.ts): the SDK types only the operation's main success, the 201 `SignedIn`.
 */
type CodeAnswer = Success<"signInWithEmailCode"> | { readonly second_factor_required: true; readonly ticket: string }

type Credential = Input<OperationOf<"signInWithPasskey">>["credential"]

interface PasskeyStatics {
  parseRequestOptionsFromJSON?: (options: unknown) => CredentialRequestOptions["publicKey"]
}

const signInWithPasskey = async () => {
  const statics = window.PublicKeyCredential as unknown as PasskeyStatics | undefined
  if (statics?.parseRequestOptionsFromJSON === undefined) throw new Error("This browser cannot sign in with a passkey. Use an email code.")
  const challenge = await ledger.passkeyChallenge()
  const publicKey = statics.parseRequestOptionsFromJSON(challenge.options)
  const credential = await navigator.credentials.get(publicKey === undefined ? {} : { publicKey }) as (Credential & { toJSON(): unknown }) | null
  if (credential === null) throw new Error("No passkey was chosen.")
  await ledger.signInWithPasskey({ credential: credential.toJSON() as Credential })
}

/** One labelled field and its submit button. */
const Field = (props: {
  readonly id: string
  readonly label: string
  readonly value: string
  readonly onChange: (value: string) => void
  readonly submit: string
  readonly busy: boolean
  readonly input?: { readonly type?: string; readonly autoComplete?: string; readonly inputMode?: "numeric"; readonly maxLength?: number }
}) => (
  <>
    <label htmlFor={props.id}>{props.label}</label>
    <input id={props.id} name={props.id} required value={props.value} onChange={(event) => props.onChange(event.target.value)} {...props.input} />
    <button type="submit" disabled={props.busy}>{props.submit}</button>
  </>
)

interface SignInProps {
  readonly search: string
  readonly onSignedIn: () => Promise<void>
  readonly principalType?: "user" | "firm_member"
  readonly title?: string
}

/** The sign-in steps and what each one's form sends. */
const useSignIn = (props: SignInProps) => {
  const linkCode = new URLSearchParams(props.search).get("code")
  const [step, setStep] = useState<Step>(linkCode === null ? { name: "email" } : { name: "code" })
  const [email, setEmail] = useState("")
  const [code, setCode] = useState(linkCode ?? "")
  const [second, setSecond] = useState("")
  const [notice, setNotice] = useState<string | null>(null)
  const { busy, error, run } = useAction()

  const submit = (work: () => Promise<void>) => (event: FormEvent) => {
    event.preventDefault()
    void run(work)
  }
  const askCode = submit(async () => {
    await ledger.requestEmailLink({
      email,
      browser: browserValue(),
      ...(props.principalType === undefined ? {} : { principal_type: props.principalType })
    })
    setNotice(`If ${email} can sign in, a code is on its way. It works for 15 minutes, in this browser only.`)
    setStep({ name: "code" })
  })
  const sendCode = submit(async () => {
    const answer = await ledger.request("signInWithEmailCode", { browser: browserValue(), code: code.trim() })
    const body = answer.body as CodeAnswer
    if (answer.status === 200 && "second_factor_required" in body) setStep({ name: "second", ticket: body.ticket })
    else await props.onSignedIn()
  })
  const sendSecond = submit(async () => {
    const value = second.trim()
    const factor = /^\d{6}$/.test(value) ? { totp_code: value } : { recovery_code: value }
    await ledger.completeSecondFactor({ ticket: step.name === "second" ? step.ticket : "", browser: browserValue(), ...factor })
    await props.onSignedIn()
  })
  const withPasskey = () => void run(async () => {
    await signInWithPasskey()
    await props.onSignedIn()
  })
  return { step, setStep, email, setEmail, code, setCode, second, setSecond, notice, busy, error, askCode, sendCode, sendSecond, withPasskey }
}

/**
 * `principalType` says who to sign in as when an address is both a company's person and a firm
 * member: the accountant console asks for the firm member (docs/decisions/1006-firm-members-sign-in.md).
 */
export const SignIn = (props: SignInProps) => {
  const flow = useSignIn(props)
  const { step, busy } = flow
  return (
    <section aria-labelledby="sign-in-title" className="card narrow">
      <h1 id="sign-in-title">{props.title ?? "Sign in to Ledger"}</h1>
      {step.name === "email" ? (
        <>
          <form onSubmit={flow.askCode}>
            <Field id="email" label="Email address" value={flow.email} onChange={flow.setEmail} submit="Email me a code" busy={busy} input={{ type: "email", autoComplete: "email" }} />
          </form>
          <p><button type="button" className="secondary" disabled={busy} onClick={flow.withPasskey}>Sign in with a passkey</button></p>
        </>
      ) : null}
      {step.name === "code" ? (
        <form onSubmit={flow.sendCode}>
          {flow.notice === null ? null : <p role="status">{flow.notice}</p>}
          <Field id="code" label="Sign-in code" value={flow.code} onChange={flow.setCode} submit="Sign in" busy={busy}
            input={{ inputMode: "numeric", autoComplete: "one-time-code", maxLength: 6 }} />
          <button type="button" className="link" onClick={() => flow.setStep({ name: "email" })}>Use another address</button>
        </form>
      ) : null}
      {step.name === "second" ? (
        <form onSubmit={flow.sendSecond}>
          <p>Two-step sign-in: enter the code from your authenticator app, or one of your recovery codes.</p>
          <Field id="second" label="Authenticator or recovery code" value={flow.second} onChange={flow.setSecond} submit="Continue" busy={busy} input={{ autoComplete: "one-time-code" }} />
        </form>
      ) : null}
      <ErrorMessage error={flow.error} />
    </section>
  )
}
