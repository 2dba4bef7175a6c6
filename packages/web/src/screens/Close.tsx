import { useState } from "react"
import { ledger } from "../api.ts"
import { formatCents } from "../money.ts"
import { ListState, More, usePaged } from "./usePaged.tsx"

/**
 * The firm's month-end close checklist (`GET /v1/firm/close`): for every client, the period
 * containing the date and what stands between it and a lock. It needs the firm member's console
 * session (sign in at /app/console first); any other session gets the API's refusal shown.
 */

const today = () => new Date().toISOString().slice(0, 10)

export const Close = () => {
  const [date, setDate] = useState(today)
  const { items, error, busy, more } = usePaged(ledger, "getFirmClose", { date }, 25)
  return (
    <section aria-labelledby="close-title">
      <h1 id="close-title">Close checklist</h1>
      <label htmlFor="close-date">Period containing</label>
      <input id="close-date" type="date" value={date} onChange={(event) => event.target.value !== "" && setDate(event.target.value)} />
      <ListState items={items} error={error} empty="The firm has no clients yet." />
      {items === null || items.length === 0 ? null : (
        <table>
          <caption>Clients for the period containing {date}</caption>
          <thead>
            <tr>
              <th scope="col">Client</th><th scope="col">Period</th><th scope="col" className="num">Unreconciled banks</th>
              <th scope="col" className="num">Unposted lines</th><th scope="col" className="num">Unapplied payments</th>
              <th scope="col" className="num">Open proposals</th><th scope="col" className="num">Unlocked earlier periods</th>
              <th scope="col">AR/AP tie out</th><th scope="col">Ready</th>
            </tr>
          </thead>
          <tbody>
            {items.map((client) => (
              <tr key={client.company_id}>
                <th scope="row">{client.name}</th>
                <td>{client.period === null ? "No period" : `${client.period.start_date} to ${client.period.end_date} (${client.period.status.replace("_", "-")})`}</td>
                <td className="num">{client.unreconciled_bank_accounts.length}</td>
                <td className="num">{client.unposted_bank_lines}</td>
                <td className="num">{client.unapplied_payments.count} ({formatCents(client.unapplied_payments.cents)})</td>
                <td className="num">{client.open_proposals}</td>
                <td className="num">{client.unlocked_prior_periods}</td>
                <td>{client.ar_ap_tie_out.ties ? "Ties" : "Does not tie"}</td>
                <td>{client.ready ? "Ready to lock" : "Not ready"}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      <More more={more} busy={busy} what="clients" />
    </section>
  )
}
