import type { Input, OperationOf } from "@ledger/client"
import { type FormEvent, useState } from "react"
import { ledger, type Success } from "../api.ts"
import { ErrorMessage, useAction } from "../useAction.tsx"
import { ListState, More, usePaged } from "./usePaged.tsx"

/**
 * Section 7216 consents (spec 3-endpoints-b 4.4): the company's consent records, newest first with
 * every version; the template text a request would freeze; requesting one; signing a pending one
 * by typed name (the owner's own browser session with a recent step-up; signing in counts);
 * revoking a valid one.
 */

type Consent = Success<"signAiConsent">
type NewConsent = Input<OperationOf<"createAiConsent">>
type Accepted = Input<OperationOf<"signAiConsent">>["accepted_providers"]

const providers: NewConsent["providers"] = ["provider_a", "provider_b", "provider_c", "provider_d"]
const categories: NewConsent["data_categories"] = ["books", "bank_lines", "documents", "receipts", "contacts", "tax_mappings", "tax_forms"]
const purposes: NewConsent["purposes"] = ["bookkeeping", "reconciliation", "tax_preparation_support", "review", "support"]
const words = (values: ReadonlyArray<string>) => values.map((value) => value.replace(/_/gu, " ")).join(", ")

const Choices = <A extends string>(props: { readonly legend: string; readonly name: string; readonly options: ReadonlyArray<A>; readonly chosen: ReadonlyArray<A>; readonly onChange: (chosen: ReadonlyArray<A>) => void }) => (
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
      props.onSigned(await ledger.signAiConsent({ id: props.consent.id, typed_name: name.trim(), accepted_providers: accepted as Accepted }))
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
      props.onRevoked(await ledger.revokeAiConsent(text === "" ? { id: props.consent.id } : { id: props.consent.id, reason: text }))
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
  const [chosen, setChosen] = useState<{ readonly providers: NewConsent["providers"]; readonly categories: NewConsent["data_categories"]; readonly purposes: NewConsent["purposes"] }>(
    { providers: [], categories: ["books"], purposes: ["bookkeeping"] }
  )
  const [text, setText] = useState<string | null>(null)
  const { busy, error, run } = useAction()
  const fields = { providers: chosen.providers, data_categories: chosen.categories, purposes: chosen.purposes }
  const preview = () => void run(async () => {
    // The template's query takes each list comma-separated.
    const query = { providers: fields.providers.join(","), data_categories: fields.data_categories.join(","), purposes: fields.purposes.join(",") }
    setText((await ledger.getAiConsentTemplate(query)).text)
  })
  const request = () => void run(async () => {
    await ledger.createAiConsent({ ...fields, send_request: false })
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
  const { items, error, busy, more, reload } = usePaged(ledger, "listAiConsents", {}, 20)
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
