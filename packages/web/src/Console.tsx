import { useCallback, useEffect, useMemo, useState } from "react"
import { type Client, type Item, ledger, messageOf, refusalStatus, type Success } from "./api.ts"
import { Inbox } from "./Inbox.tsx"
import { formatCents } from "./money.ts"
import { FirmLocks, FirmQueue } from "./screens/FirmBatch.tsx"
import { SignIn } from "./SignIn.tsx"

/**
 * The accountant's console for a firm member: the firm's clients with their state
 * (`GET /v1/firm/clients`), and the proposals of the client chosen (`X-Ledger-Company`). The
 * member signs in here by email code (or passkey, and a second step when they have one) as the
 * firm member their address names; the firm session (`ldgf_`) is the HttpOnly cookie, as a
 * person's is (docs/decisions/1006-firm-members-sign-in.md, which supersedes 1901).
 */

type ClientStatus = Item<"listFirmClients">

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

type FirmIdentity = Success<"getFirm">

type State = { readonly state: "loading" } | { readonly state: "out" } | { readonly state: "in"; readonly who: FirmIdentity }

export const Console = (props: { readonly search: string }) => {
  const [session, setSession] = useState<State>({ state: "loading" })
  const [clients, setClients] = useState<ReadonlyArray<ClientStatus> | null>(null)
  const [chosen, setChosen] = useState<string | null>(null)
  const [error, setError] = useState<string | null>(null)
  const load = useCallback(async () => {
    setError(null)
    try {
      setSession({ state: "in", who: await ledger.getFirm() })
      setClients((await ledger.listFirmClients({ limit: 100 })).data)
    } catch (failure) {
      // No firm session in this browser (none, a person's, or ended): the member signs in.
      setSession({ state: "out" })
      if (refusalStatus(failure) !== 401) setError(messageOf(failure))
    }
  }, [])
  useEffect(() => void load(), [load])
  // The client chosen is named on every call of its inbox (`X-Ledger-Company`).
  const client = useMemo<Client | null>(() => (chosen === null ? null : ledger.with({ company: chosen })), [chosen])
  const chosenName = clients?.find((each) => each.company_id === chosen)?.name
  const signOut = async () => {
    try {
      await ledger.signOut()
    } catch (failure) {
      setError(messageOf(failure))
    }
    setSession({ state: "out" })
    setClients(null)
    setChosen(null)
  }

  if (session.state === "loading") return <p role="status">Loading…</p>
  if (session.state === "out") {
    return (
      <>
        {error === null ? null : <p role="alert" className="error">{error}</p>}
        <SignIn search={props.search} principalType="firm_member" title="Sign in to the accountant console" onSignedIn={load} />
      </>
    )
  }
  return (
    <section aria-labelledby="console-title">
      <h1 id="console-title">Accountant console</h1>
      <p>
        {session.who.principal.name}, {session.who.firm.name}{" "}
        <button type="button" className="secondary" onClick={() => void signOut()}>Sign out of the console</button>
      </p>
      {error === null ? null : <p role="alert" className="error">{error}</p>}
      {clients === null ? <p role="status">Loading clients…</p> : <ClientTable clients={clients} chosen={chosen} onChoose={setChosen} />}
      {clients === null || clients.length === 0 ? null : (
        <>
          <FirmQueue clients={clients} onChanged={() => void load()} />
          <FirmLocks clients={clients} onChanged={() => void load()} />
        </>
      )}
      {client === null ? null : <Inbox key={chosen} client={client} title={`Proposals of ${chosenName ?? "the client"}`} />}
    </section>
  )
}
