import { type FormEvent, useState } from "react"
import { ledger, type Success } from "../api.ts"
import { ErrorMessage, useAction } from "../useAction.tsx"
import { ListState, More, usePaged } from "./usePaged.tsx"

/**
 * Periods and their locks (`GET /v1/periods`, `POST /v1/periods/{id}/status`): each period's state
 * (open, soft-locked, hard-locked) with the reason given, and a change of state with a reason.
 * Reopening a hard lock needs a person and a reason; the API says so when it refuses.
 */

type Period = Success<"setPeriodStatus">
type Status = Period["status"]

const statusLabel: Record<Status, string> = { open: "Open", soft_locked: "Soft-locked", hard_locked: "Hard-locked" }

const Change = (props: { readonly period: Period; readonly onChanged: (period: Period) => void }) => {
  const { period } = props
  const [status, setStatus] = useState<Status>(period.status === "open" ? "soft_locked" : "open")
  const [reason, setReason] = useState("")
  const { busy, error, run } = useAction()
  const submit = (event: FormEvent) => {
    event.preventDefault()
    void run(async () => {
      const text = reason.trim()
      props.onChanged(await ledger.setPeriodStatus(text === "" ? { id: period.id, status } : { id: period.id, status, reason: text }))
      setReason("")
    })
  }
  const id = `period-${period.id}`
  return (
    <form onSubmit={submit} aria-label={`Change the lock of ${period.start_date} to ${period.end_date}`} className="inline">
      <label htmlFor={`${id}-status`} className="sr-only">New state</label>
      <select id={`${id}-status`} value={status} onChange={(event) => setStatus(event.target.value as Status)}>
        {(Object.keys(statusLabel) as Array<Status>).filter((each) => each !== period.status).map((each) => <option key={each} value={each}>{statusLabel[each]}</option>)}
      </select>
      <label htmlFor={`${id}-reason`} className="sr-only">Reason</label>
      <input id={`${id}-reason`} placeholder="Reason" maxLength={500} value={reason} onChange={(event) => setReason(event.target.value)} />
      <button type="submit" disabled={busy}>Change</button>
      <ErrorMessage error={error} />
    </form>
  )
}

export const Periods = () => {
  const { items, error, busy, more } = usePaged(ledger, "listPeriods", {}, 24)
  const [changed, setChanged] = useState<Record<number, Period>>({})
  const [status, setStatus] = useState<string | null>(null)
  return (
    <section aria-labelledby="periods-title">
      <h1 id="periods-title">Periods and locks</h1>
      <p className="meta">A soft lock asks for a reason to post into the period; a hard lock refuses every posting until it is reopened.</p>
      {status === null ? null : <p role="status">{status}</p>}
      <ListState items={items} error={error} empty="This company has no periods yet." />
      {items === null || items.length === 0 ? null : (
        <table>
          <caption>Periods in date order</caption>
          <thead><tr><th scope="col">Period</th><th scope="col">Fiscal year</th><th scope="col">State</th><th scope="col">Reason</th><th scope="col">Change</th></tr></thead>
          <tbody>
            {items.map((original) => {
              const period = changed[original.id] ?? original
              return (
                <tr key={period.id}>
                  <th scope="row">{period.start_date} to {period.end_date}</th>
                  <td>{period.fiscal_year}</td>
                  <td>{statusLabel[period.status]}</td>
                  <td>{period.status_reason ?? ""}</td>
                  <td><Change key={period.status} period={period} onChanged={(next) => {
                    setChanged((before) => ({ ...before, [next.id]: next }))
                    setStatus(`${next.start_date} to ${next.end_date} is now ${statusLabel[next.status].toLowerCase()}.`)
                  }} /></td>
                </tr>
              )
            })}
          </tbody>
        </table>
      )}
      <More more={more} busy={busy} what="periods" />
    </section>
  )
}
