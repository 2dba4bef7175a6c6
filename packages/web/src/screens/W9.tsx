import { type FormEvent, useState } from "react"
import { type Input, isClientError, type OperationOf } from "@ledger/client"
import { ledger, type Success } from "../api.ts"
import { ErrorMessage, useAction } from "../useAction.tsx"
import { bodyOf, empty, type Field, type Values } from "./w9Body.ts"

/**
 * The public Form W-9 page a vendor reaches from the link a payer's 1099 request mailed
 * (`/w9/<token>`, forwarded to `/app/w9/<token>`): no sign-in, the link is the credential. It
 * posts the vendor's details to `POST /v1/w9/{token}` (single use) and shows the API's refusal as
 * it is, or the payer's name and the masked TIN once received. The full TIN is only ever in the
 * form field and the request body; the page never shows it back.
 */

const taxClasses: ReadonlyArray<readonly [string, string]> = [
  ["individual", "Individual/sole proprietor or single-member LLC"],
  ["c_corp", "C corporation"],
  ["s_corp", "S corporation"],
  ["partnership", "Partnership"],
  ["trust_estate", "Trust/estate"],
  ["llc_c", "LLC taxed as a C corporation"],
  ["llc_s", "LLC taxed as an S corporation"],
  ["llc_p", "LLC taxed as a partnership"],
  ["other", "Other (say which)"]
]

const tinTypes: ReadonlyArray<readonly [string, string]> = [
  ["SSN", "Social security number (SSN)"],
  ["EIN", "Employer identification number (EIN)"],
  ["ITIN", "Individual taxpayer identification number (ITIN)"],
  ["ATIN", "Adoption taxpayer identification number (ATIN)"]
]

type Received = Success<"submitW9">

const labels: Readonly<Record<string, string>> = {
  legal_name: "Name", business_name: "Business name", tax_class: "Federal tax classification", tax_class_other: "Other classification",
  exempt_payee_code: "Exempt payee code", fatca_code: "FATCA code", address1: "Address", address2: "Address line 2", city: "City",
  state: "State", zip: "ZIP code", tin_type: "Type of number", tin: "Taxpayer identification number"
}

/** The API's field issues of a refusal (`details.issues`), each named by the form's label. */
export const issuesOf = (failure: unknown): ReadonlyArray<string> => {
  if (!isClientError(failure) || failure._tag !== "LedgerApiError") return []
  const issues = failure.details?.issues
  if (!Array.isArray(issues)) return []
  return issues.slice(0, 20).map((issue: { path?: ReadonlyArray<unknown>; message?: unknown }) => {
    const field = String(issue.path?.at(-1) ?? "")
    return `${labels[field] ?? (field === "" ? "Form" : field)}: ${String(issue.message ?? "")}`
  })
}

const Text = (props: {
  readonly id: Field
  readonly label: string
  readonly values: Values
  readonly set: SetField
  readonly required?: boolean
  readonly maxLength?: number
  readonly autoComplete?: string
  readonly hint?: string
}) => (
  <>
    <label htmlFor={`w9-${props.id}`}>{props.label}{props.required === true ? "" : " (optional)"}</label>
    {props.hint === undefined ? null : <p className="meta" id={`w9-${props.id}-hint`}>{props.hint}</p>}
    <input
      id={`w9-${props.id}`}
      value={props.values[props.id]}
      required={props.required}
      maxLength={props.maxLength ?? 40}
      autoComplete={props.autoComplete ?? "off"}
      aria-describedby={props.hint === undefined ? undefined : `w9-${props.id}-hint`}
      onChange={(event) => props.set(props.id, event.target.value)}
    />
  </>
)

type SetField = (field: Field, value: string) => void

/** Once sent: who received it, and the masked number only. */
const W9Received = ({ received }: { readonly received: Received }) => (
  <section aria-labelledby="w9-title" className="narrow">
    <h1 id="w9-title">Form W-9 received</h1>
    <p role="status">
      Thank you. {received.requester} has received your Form W-9
      {received.tin_masked === null ? "." : ` with the taxpayer identification number ${received.tin_masked}.`}
    </p>
    <p>This link has now been used and cannot be used again. If something was wrong, ask {received.requester} for a new request.</p>
  </section>
)

const Choice = (props: { readonly id: Field; readonly label: string; readonly options: ReadonlyArray<readonly [string, string]>; readonly values: Values; readonly set: SetField }) => (
  <>
    <label htmlFor={`w9-${props.id}`}>{props.label}</label>
    <select id={`w9-${props.id}`} value={props.values[props.id]} onChange={(event) => props.set(props.id, event.target.value)}>
      {props.options.map(([value, label]) => <option key={value} value={value}>{label}</option>)}
    </select>
  </>
)

const WhoYouAre = ({ values, set }: { readonly values: Values; readonly set: SetField }) => (
  <fieldset>
    <legend>Who you are</legend>
    <Text id="legal_name" label="Name (as shown on your income tax return)" values={values} set={set} required autoComplete="name" />
    <Text id="business_name" label="Business name or disregarded entity name" values={values} set={set} autoComplete="organization" />
    <Choice id="tax_class" label="Federal tax classification" options={taxClasses} values={values} set={set} />
    {values.tax_class === "other"
      ? <Text id="tax_class_other" label="Other classification" values={values} set={set} required />
      : null}
    <Text id="exempt_payee_code" label="Exempt payee code" values={values} set={set} maxLength={4} hint="Only if you are exempt from backup withholding." />
    <Text id="fatca_code" label="Exemption from FATCA reporting code" values={values} set={set} maxLength={4} />
  </fieldset>
)

const Address = ({ values, set }: { readonly values: Values; readonly set: SetField }) => (
  <fieldset>
    <legend>Address</legend>
    <Text id="address1" label="Address (number, street, and apt. or suite no.)" values={values} set={set} required autoComplete="address-line1" />
    <Text id="address2" label="Address line 2" values={values} set={set} autoComplete="address-line2" />
    <Text id="city" label="City" values={values} set={set} required autoComplete="address-level2" />
    <Text id="state" label="State" values={values} set={set} required maxLength={2} autoComplete="address-level1" hint="Two letters, for example IL." />
    <Text id="zip" label="ZIP code" values={values} set={set} required maxLength={10} autoComplete="postal-code" />
  </fieldset>
)

const TaxpayerNumber = ({ values, set }: { readonly values: Values; readonly set: SetField }) => (
  <fieldset>
    <legend>Taxpayer identification number</legend>
    <Choice id="tin_type" label="Type of number" options={tinTypes} values={values} set={set} />
    <Text id="tin" label="Taxpayer identification number" values={values} set={set} required maxLength={11} hint="Nine digits; dashes allowed (123-45-6789 or 12-3456789)." />
  </fieldset>
)

const Certification = (props: { readonly certified: boolean; readonly setCertified: (on: boolean) => void; readonly signature: string; readonly setSignature: (name: string) => void }) => (
  <fieldset>
    <legend>Certification</legend>
    <p>
      Under penalties of perjury, I certify that: the number shown on this form is my correct taxpayer identification
      number; I am not subject to backup withholding (unless I was notified by the IRS that I am); I am a U.S. citizen or
      other U.S. person; and the FATCA code entered, if any, is correct.
    </p>
    <label className="choice">
      <input type="checkbox" checked={props.certified} required onChange={(event) => props.setCertified(event.target.checked)} />
      I certify the statements above
    </label>
    <label htmlFor="w9-signature">Signature (type your full name)</label>
    <input id="w9-signature" value={props.signature} required maxLength={80} autoComplete="name" onChange={(event) => props.setSignature(event.target.value)} />
  </fieldset>
)

/** The form's values and its one submission; a refusal's field issues are kept to list under it. */
const useW9 = (token: string) => {
  const [values, setValues] = useState<Values>(empty)
  const [received, setReceived] = useState<Received | null>(null)
  const [issues, setIssues] = useState<ReadonlyArray<string>>([])
  const { busy, error, run } = useAction()
  const set: SetField = (field, value) => setValues((before) => ({ ...before, [field]: value }))

  const submit = (event: FormEvent) => {
    event.preventDefault()
    setIssues([])
    void run(async () => {
      try {
        // The body is built from the form's own fields (w9Body.ts); the server checks each one.
        setReceived(await ledger.submitW9({ token, ...bodyOf(values) } as Input<OperationOf<"submitW9">>))
      } catch (failure) {
        setIssues(issuesOf(failure))
        throw failure
      }
    })
  }
  return { values, set, received, issues, busy, error, submit }
}

export const W9Form = (props: { readonly token: string }) => {
  const { values, set, received, issues, busy, error, submit } = useW9(props.token)
  const [certified, setCertified] = useState(false)
  const [signature, setSignature] = useState("")

  if (received !== null) return <W9Received received={received} />

  return (
    <section aria-labelledby="w9-title">
      <h1 id="w9-title">Request for taxpayer identification number and certification (Form W-9)</h1>
      <p>
        The business that sent you this link pays you and must report those payments to the IRS on Form 1099. It asks for
        your Form W-9 details: your name as shown on your income tax return, your federal tax classification, your mailing
        address and your taxpayer identification number. Your number is stored encrypted and shown to the payer only masked.
      </p>
      <form onSubmit={submit} aria-label="Form W-9">
        <WhoYouAre values={values} set={set} />
        <Address values={values} set={set} />
        <TaxpayerNumber values={values} set={set} />
        <Certification certified={certified} setCertified={setCertified} signature={signature} setSignature={setSignature} />
        <ErrorMessage error={error} />
        {error === null || issues.length === 0 ? null : (
          <ul aria-label="What to correct" className="error">{issues.map((issue) => <li key={issue}>{issue}</li>)}</ul>
        )}
        <button type="submit" disabled={busy || !certified || signature.trim() === ""}>Send my W-9</button>
      </form>
    </section>
  )
}
