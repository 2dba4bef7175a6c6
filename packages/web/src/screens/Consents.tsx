import { type FormEvent, useState } from "react"
import { call, cookieCaller } from "../api.ts"
import { ErrorMessage, useAction } from "../useAction.tsx"
import { ListState, More, usePaged } from "./usePaged.tsx"

/**
 * Section 7216 consents (spec 3-endpoints-b 4.4): the company's consent records, newest first with
 * every version; the template text a request would freeze; requesting one; signing a pending one
 * by typed name (the owner's own browser session with a recent step-up; signing in counts);
 * revoking a valid one.
 */

interface Consent {
  readonly id: number
  readonly version: number
  readonly status: string
  readonly providers: ReadonlyArray<string>
  readonly data_categories: ReadonlyArray<string>
  readonly purposes: ReadonlyArray<string>
  readonly valid_until: string | null
  readonly text: string
  readonly signed_at: string | null
  readonly signed_by: string | null
  readonly accepted_providers: ReadonlyArray<string>
}

const providers = ["provider_a", "provider_b", "provider_c", "provider_d"] as const
const categories = ["books", "bank_lines", "documents", "receipts", "contacts", "tax_mappings", "tax_forms"] as const
const purposes = ["bookkeeping", "reconciliation", "tax_preparation_support", "review", "support"] as const
const words = (values: ReadonlyArray<string>) => values.map((value) => value.replace(/_/gu, " ")).join(", ")

const Choices = (props: { readonly legend: string; readonly name: string; readonly options: ReadonlyArray<string>; readonly chosen: ReadonlyArray<string>; readonly onChange: (chosen: ReadonlyArray<string>) => void }) => (
  <fieldset>
    <legend>{props.legend}</legend>
    {props.options.map((option) => (
      <label key={option} className="choice">
        <input type="checkbox" name={props.name} value={option} checked={props.chosen.includes(option)}
          onChange={(event) => props.onChange(event.target.checked ? [...props.chosen, option] : props.chosen.filter((each) => each !== option))} /> {option.replace(/_/gu, " ")}
      </label>
    ))}
  </fieldset>
)

const Sign = (props: { readonly consent: Consent; readonly onSigned: (consent: Consent) => void }) => {
  const [name, setName] = useState("")
  const [accepted, setAccepted] = useState<ReadonlyArray<string>>(props.consent.providers)
  const { busy, error, run } = useAction()
  const submit = (event: FormEvent) => {
    event.preventDefault()
    void run(async () => {
      props.onSigned((await call<Consent>(cookieCaller, "POST", `/v1/company/ai-consents/${props.consent.id}/sign`, { typed_name: name.trim(), accepted_providers: accepted })).body)
    })
  }
  return (
    <form onSubmit={submit} aria-label={`Sign consent ${props.consent.id}`}>
      <Choices legend="Providers you accept" name={`accept-${props.consent.id}`} options={props.consent.providers} chosen={accepted} onChange={setAccepted} />
      <label htmlFor={`typed-${props.consent.id}`}>Your full name, typed as your signature</label>
      <input id={`typed-${props.consent.id}`} value={name} maxLength={200} onChange={(event) => setName(event.target.value)} />
      <button type="submit" disabled={busy}>Sign</button>
      <ErrorMessage error={error} />
    </form>
  )
}

/** Ending a consent (`POST /v1/company/ai-consents/{id}/revoke`); AI access it allowed stops. */
const Revoke = (props: { readonly consent: Consent; readonly onRevoked: (consent: Consent) => void }) => {
  const [reason, setReason] = useState("")
  const { busy, error, run } = useAction()
  const submit = (event: FormEvent) => {
    event.preventDefault()
    void run(async () => {
      const text = reason.trim()
      props.onRevoked((await call<Consent>(cookieCaller, "POST", `/v1/company/ai-consents/${props.consent.id}/revoke`, text === "" ? {} : { reason: text })).body)
    })
  }
  return (
    <form onSubmit={submit} aria-label={`Revoke consent ${props.consent.id}`}>
      <label htmlFor={`revoke-${props.consent.id}`}>Reason for revoking (optional)</label>
      <input id={`revoke-${props.consent.id}`} value={reason} maxLength={500} onChange={(event) => setReason(event.target.value)} />
      <button type="submit" className="secondary" disabled={busy}>Revoke</button>
      <ErrorMessage error={error} />
    </form>
  )
}

const Request = (props: { readonly onRequested: () => void }) => {
  const [chosen, setChosen] = useState({ providers: [] as ReadonlyArray<string>, categories: ["books"] as ReadonlyArray<string>, purposes: ["bookkeeping"] as ReadonlyArray<string> })
  const [text, setText] = useState<string | null>(null)
  const { busy, error, run } = useAction()
  const fields = { providers: chosen.providers, data_categories: chosen.categories, purposes: chosen.purposes }
  const preview = () => void run(async () => {
    const query = new URLSearchParams(Object.entries(fields).map(([key, values]) => [key, values.join(",")]))
    setText((await call<{ text: string }>(cookieCaller, "GET", `/v1/company/ai-consents/template?${query}`)).body.text)
  })
  const request = () => void run(async () => {
    await call(cookieCaller, "POST", "/v1/company/ai-consents", { ...fields, send_request: false })
    setText(null)
    props.onRequested()
  })
  return (
    <form onSubmit={(event) => event.preventDefault()} className="card" aria-labelledby="request-title">
      <h2 id="request-title">Request a consent</h2>
      <Choices legend="AI providers" name="providers" options={providers} chosen={chosen.providers} onChange={(next) => setChosen({ ...chosen, providers: next })} />
      <Choices legend="Data" name="categories" options={categories} chosen={chosen.categories} onChange={(next) => setChosen({ ...chosen, categories: next })} />
      <Choices legend="Purposes" name="purposes" options={purposes} chosen={chosen.purposes} onChange={(next) => setChosen({ ...chosen, purposes: next })} />
      <button type="button" className="secondary" disabled={busy} onClick={preview}>Show the text</button>
      <button type="button" disabled={busy} onClick={request}>Request this consent</button>
      <ErrorMessage error={error} />
      {text === null ? null : <pre className="consent-text" aria-label="Consent text" tabIndex={0}>{text}</pre>}
    </form>
  )
}

export const Consents = () => {
  const { items, error, busy, more, reload } = usePaged<Consent>(cookieCaller, "/v1/company/ai-consents", 20)
  const [signed, setSigned] = useState<Record<number, Consent>>({})
  return (
    <section aria-labelledby="consents-title">
      <h1 id="consents-title">AI consents (section 7216)</h1>
      <ListState items={items} error={error} empty="No consents yet." />
      <ul className="proposals" aria-label="Consents">
        {(items ?? []).map((original) => {
          const consent = signed[original.id] ?? original
          return (
            <li key={consent.id} className="card">
              <article aria-labelledby={`consent-${consent.id}`}>
                <h2 id={`consent-${consent.id}`}>Consent {consent.id}, version {consent.version}: {consent.status.replace(/_/gu, " ")}</h2>
                <p className="meta">Providers: {words(consent.providers)} · data: {words(consent.data_categories)} · purposes: {words(consent.purposes)} · valid until {consent.valid_until ?? "not set"}</p>
                {consent.signed_at === null ? null : <p>Signed by {consent.signed_by} on {consent.signed_at.slice(0, 10)} for {words(consent.accepted_providers)}.</p>}
                <details><summary>Read the text</summary><pre className="consent-text" tabIndex={0}>{consent.text}</pre></details>
                {consent.status === "pending" ? <Sign consent={consent} onSigned={(next) => setSigned((before) => ({ ...before, [next.id]: next }))} /> : null}
                {consent.status === "valid_now" ? <Revoke consent={consent} onRevoked={(next) => setSigned((before) => ({ ...before, [next.id]: next }))} /> : null}
              </article>
            </li>
          )
        })}
      </ul>
      <More more={more} busy={busy} what="consents" />
      <Request onRequested={reload} />
    </section>
  )
}
