import { type FormEvent, useCallback, useEffect, useMemo, useState } from "react"
import { type Caller, call, messageOf } from "./api.ts"
import { Inbox } from "./Inbox.tsx"
import { formatCents } from "./money.ts"
import { ErrorMessage, useAction } from "./useAction.tsx"

/**
 * The accountant's console for a firm member: the firm's clients with their state
 * (`GET /v1/firm/clients`), and the proposals of the client chosen (`X-Ledger-Company`). Until
 * firm members sign in on the web, the member opens a console session with their firm key: the key
 * is sent once to `POST /v1/firm/sessions` and forgotten; the `ldgf_` session lives in memory only
 * (docs/decisions/1901-web-app-console-session.md).
 */

interface ClientStatus {
  readonly company_id: string
  readonly name: string
  readonly scopes: ReadonlyArray<string>
  readonly bank: { readonly unmatched_lines: number; readonly last_reconciled_date: string | null }
  readonly proposals: { readonly pending: number; readonly pending_cents: number }
  readonly periods: { readonly locked_through: string | null; readonly open_before_as_of: number }
  readonly overdue_ar: { readonly invoices: number; readonly cents: number }
  readonly migration: { readonly state: string }
  readonly kill_switch_suspended: boolean
}

const OpenSession = (props: { readonly onOpened: (token: string) => void }) => {
  const [key, setKey] = useState("")
  const { busy, error, run } = useAction()
  const submit = (event: FormEvent) => {
    event.preventDefault()
    void run(async () => {
      const opened = await call<{ secret: string }>({ kind: "firm", token: key.trim(), company: null }, "POST", "/v1/firm/sessions", {})
      setKey("")
      props.onOpened(opened.body.secret)
    })
  }
  return (
    <form onSubmit={submit} className="card narrow">
      <p>Open a console session with your firm key. The key is used once and not kept; the session ends when you close this tab.</p>
      <label htmlFor="firm-key">Firm key</label>
      <input id="firm-key" type="password" autoComplete="off" required value={key} onChange={(event) => setKey(event.target.value)} />
      <button type="submit" disabled={busy}>Open the console</button>
      <ErrorMessage error={error} />
    </form>
  )
}

const ClientTable = (props: { readonly clients: ReadonlyArray<ClientStatus>; readonly chosen: string | null; readonly onChoose: (id: string) => void }) => (
  <table>
    <caption>Clients</caption>
    <thead>
      <tr>
        <th scope="col">Client</th><th scope="col" className="num">Pending proposals</th><th scope="col" className="num">Unmatched bank lines</th>
        <th scope="col">Locked through</th><th scope="col" className="num">Overdue AR</th><th scope="col">State</th><th scope="col"><span className="sr-only">Action</span></th>
      </tr>
    </thead>
    <tbody>
      {props.clients.map((client) => (
        <tr key={client.company_id} aria-current={props.chosen === client.company_id ? "true" : undefined}>
          <th scope="row">{client.name}</th>
          <td className="num">{client.proposals.pending} ({formatCents(client.proposals.pending_cents)})</td>
          <td className="num">{client.bank.unmatched_lines}</td>
          <td>{client.periods.locked_through ?? "none"}</td>
          <td className="num">{client.overdue_ar.invoices} ({formatCents(client.overdue_ar.cents)})</td>
          <td>{client.kill_switch_suspended ? "agents suspended" : "active"}{client.migration.state === "none" ? "" : `, migration ${client.migration.state.replace("_", " ")}`}</td>
          <td><button type="button" onClick={() => props.onChoose(client.company_id)} aria-label={`Work in ${client.name}`}>Work in</button></td>
        </tr>
      ))}
    </tbody>
  </table>
)

export const Console = () => {
  const [token, setToken] = useState<string | null>(null)
  const [clients, setClients] = useState<ReadonlyArray<ClientStatus> | null>(null)
  const [chosen, setChosen] = useState<string | null>(null)
  const [error, setError] = useState<string | null>(null)
  const load = useCallback(async (session: string) => {
    try {
      const page = await call<{ data: ReadonlyArray<ClientStatus> }>({ kind: "firm", token: session, company: null }, "GET", "/v1/firm/clients?limit=100")
      setClients(page.body.data)
    } catch (failure) {
      setError(messageOf(failure))
    }
  }, [])
  useEffect(() => {
    if (token !== null) void load(token)
  }, [token, load])
  const caller = useMemo<Caller | null>(() => (token === null || chosen === null ? null : { kind: "firm", token, company: chosen }), [token, chosen])
  const client = clients?.find((each) => each.company_id === chosen)

  return (
    <section aria-labelledby="console-title">
      <h1 id="console-title">Accountant console</h1>
      {token === null ? <OpenSession onOpened={setToken} /> : (
        <>
          <p><button type="button" className="secondary" onClick={() => {
            setToken(null)
            setClients(null)
            setChosen(null)
          }}>Close the console session</button></p>
          {error === null ? null : <p role="alert" className="error">{error}</p>}
          {clients === null ? <p role="status">Loading clients…</p> : <ClientTable clients={clients} chosen={chosen} onChoose={setChosen} />}
          {caller === null ? null : <Inbox key={chosen} caller={caller} title={`Proposals of ${client?.name ?? "the client"}`} />}
        </>
      )}
    </section>
  )
}
