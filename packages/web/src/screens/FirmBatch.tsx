import { type FormEvent, useCallback, useEffect, useState } from "react"
import { type Item, ledger, messageOf, type Success } from "../api.ts"
import { formatCents } from "../money.ts"
import { amountsInWords } from "../words.ts"
import { ErrorMessage, useAction } from "../useAction.tsx"

/**
 * The console's work across clients (spec 4.3): the pending proposals of every client in one
 * queue (`GET /v1/firm/proposals`), approved or rejected several at once
 * (`POST /v1/firm/proposals/decide`), and the period containing a date locked in several clients
 * at once (`POST /v1/firm/clients/lock-period`). Each item is done separately in its client, so
 * the API answers per item: the screen lists every item's outcome, refusals with the API's own
 * message, and one refusal never hides the others' success.
 */

type FirmProposal = Item<"listFirmProposals">
type BatchResult = Success<"lockClientPeriods">

export interface BatchClient {
  readonly company_id: string
  readonly name: string
}

/** The API caps a batch at 100 items (packages/api firms/FirmLimits.ts batchItemsMax). */
const batchMax = 100

const keyOf = (proposal: { readonly company_id: string; readonly proposal_id: number }) => `${proposal.company_id}/${proposal.proposal_id}`

/** The message of an item's refusal: its error body as the API sent it (the contract types it loosely). */
const refusalOf = (item: BatchResult["results"][number]): string => {
  const message = typeof item.error === "object" && item.error !== null ? (item.error as { message?: unknown }).message : undefined
  return typeof message === "string" ? message : `the server answered ${item.status}`
}

const Results = (props: { readonly title: string; readonly result: BatchResult; readonly nameOf: (company: string) => string; readonly done: string }) => (
  <table>
    <caption>{props.title}: {props.result.succeeded} done, {props.result.failed} refused</caption>
    <thead><tr><th scope="col">Client</th><th scope="col">Item</th><th scope="col">Outcome</th></tr></thead>
    <tbody>
      {props.result.results.map((item) => (
        <tr key={`${item.company_id}/${item.proposal_id ?? ""}`}>
          <th scope="row">{props.nameOf(item.company_id)}</th>
          <td>{item.proposal_id === undefined ? "Period" : `Proposal ${item.proposal_id}`}</td>
          <td>{item.ok ? props.done : `Refused: ${refusalOf(item)}`}</td>
        </tr>
      ))}
    </tbody>
  </table>
)

/** The pending proposals of every client, loaded when the queue is opened, and the batch decision. */
const useFirmQueue = (props: { readonly clients: ReadonlyArray<BatchClient>; readonly onChanged: () => void }, open: boolean) => {
  const [proposals, setProposals] = useState<ReadonlyArray<FirmProposal> | null>(null)
  const [loadError, setLoadError] = useState<string | null>(null)
  const [selected, setSelected] = useState<ReadonlySet<string>>(new Set())
  const [reason, setReason] = useState("")
  const [result, setResult] = useState<{ readonly decision: "approve" | "reject"; readonly body: BatchResult } | null>(null)
  const { busy, error, run } = useAction()
  const load = useCallback(async () => {
    try {
      setProposals((await ledger.listFirmProposals({ limit: batchMax })).data)
      setLoadError(null)
    } catch (failure) {
      setLoadError(messageOf(failure))
    }
  }, [])
  useEffect(() => {
    if (open) void load()
  }, [open, load])
  const nameOf = (company: string) =>
    props.clients.find((client) => client.company_id === company)?.name ?? proposals?.find((each) => each.company_id === company)?.company_name ?? company
  const toggle = (key: string, on: boolean) => setSelected((before) => toggled(before, key, on))
  const decide = (decision: "approve" | "reject") => (event?: FormEvent) => {
    event?.preventDefault()
    void run(async () => {
      const items = (proposals ?? []).filter((each) => selected.has(keyOf(each))).map((each) => ({ company_id: each.company_id, proposal_id: each.proposal_id }))
      const text = reason.trim()
      const body = await ledger.decideFirmProposals(text === "" ? { decision, items } : { decision, items, reason: text })
      setResult({ decision, body })
      setSelected(new Set())
      await load()
      props.onChanged()
    })
  }
  return { proposals, loadError, selected, toggle, reason, setReason, result, busy, error, nameOf, decide }
}

/** A set with `key` in it or not. */
const toggled = (before: ReadonlySet<string>, key: string, on: boolean): ReadonlySet<string> => {
  const next = new Set(before)
  if (on) next.add(key)
  else next.delete(key)
  return next
}

/** The pending proposals, each with its box to select it. */
const QueueTable = (props: { readonly proposals: ReadonlyArray<FirmProposal>; readonly selected: ReadonlySet<string>; readonly toggle: (key: string, on: boolean) => void }) => (
  <table>
    <caption>Pending proposals, oldest first</caption>
    <thead>
      <tr>
        <th scope="col"><span className="sr-only">Select</span></th><th scope="col">Client</th><th scope="col">Proposal</th>
        <th scope="col">Date</th><th scope="col" className="num">Amount</th><th scope="col">By</th><th scope="col" className="num">Days waiting</th>
      </tr>
    </thead>
    <tbody>
      {props.proposals.map((proposal) => {
        const key = keyOf(proposal)
        return (
          <tr key={key}>
            <td>
              <input
                type="checkbox"
                className="pick"
                aria-label={`Select proposal ${proposal.proposal_id} of ${proposal.company_name}`}
                checked={props.selected.has(key)}
                onChange={(event) => props.toggle(key, event.target.checked)}
              />
            </td>
            <th scope="row">{proposal.company_name}</th>
            <td>{proposal.proposal_id}: {amountsInWords(proposal.summary)}</td>
            <td>{proposal.entry_date}</td>
            <td className="num">{formatCents(proposal.amount_cents)}</td>
            <td>{proposal.created_by_name ?? ""}</td>
            <td className="num">{proposal.age_days}</td>
          </tr>
        )
      })}
    </tbody>
  </table>
)

/** The proposal queue across clients, with batch approve and reject. */
export const FirmQueue = (props: { readonly clients: ReadonlyArray<BatchClient>; readonly onChanged: () => void }) => {
  // Shown on demand: the queue repeats client names the clients table already lists.
  const [open, setOpen] = useState(false)
  const queue = useFirmQueue(props, open)
  const { proposals, loadError, selected, busy, result } = queue

  return (
    <section aria-labelledby="queue-title">
      <h2 id="queue-title">Proposals across clients</h2>
      <button type="button" className="secondary" aria-expanded={open} aria-controls="queue-body" onClick={() => setOpen(!open)}>
        {open ? "Hide the proposals of every client" : "Decide proposals of several clients at once"}
      </button>
      <div id="queue-body">
      {!open ? null : loadError === null ? null : <p role="alert" className="error">{loadError}</p>}
      {!open ? null : proposals === null
        ? (loadError === null ? <p role="status">Loading proposals…</p> : null)
        : proposals.length === 0
        ? <p>No client has a pending proposal.</p>
        : (
          <form onSubmit={queue.decide("approve")} aria-label="Decide proposals across clients">
            <QueueTable proposals={proposals} selected={selected} toggle={queue.toggle} />
            <label htmlFor="queue-reason">Reason (required to reject)</label>
            <input id="queue-reason" maxLength={500} value={queue.reason} onChange={(event) => queue.setReason(event.target.value)} />
            <div>
              <button type="submit" disabled={busy || selected.size === 0}>Approve selected ({selected.size})</button>
              <button type="button" className="secondary" disabled={busy || selected.size === 0} onClick={() => queue.decide("reject")()}>Reject selected ({selected.size})</button>
            </div>
          </form>
        )}
      </div>
      <ErrorMessage error={queue.error} />
      {result === null ? null : (
        <div role="status">
          <Results title={result.decision === "approve" ? "Approvals" : "Rejections"} result={result.body} nameOf={queue.nameOf} done={result.decision === "approve" ? "Approved" : "Rejected"} />
        </div>
      )}
    </section>
  )
}

const lockLabel = { soft_locked: "Soft lock", hard_locked: "Hard lock" } as const
const lockedLabel = { soft_locked: "Soft-locked", hard_locked: "Hard-locked" } as const

/** The period containing a date, locked in the clients chosen. */
export const FirmLocks = (props: { readonly clients: ReadonlyArray<BatchClient>; readonly onChanged: () => void }) => {
  const [chosen, setChosen] = useState<ReadonlySet<string>>(new Set())
  const [date, setDate] = useState("")
  const [status, setStatus] = useState<keyof typeof lockLabel>("soft_locked")
  const [reason, setReason] = useState("")
  const [result, setResult] = useState<{ readonly status: keyof typeof lockLabel; readonly body: BatchResult } | null>(null)
  const { busy, error, run } = useAction()
  const nameOf = (company: string) => props.clients.find((client) => client.company_id === company)?.name ?? company
  const submit = (event: FormEvent) => {
    event.preventDefault()
    void run(async () => {
      const company_ids = props.clients.filter((client) => chosen.has(client.company_id)).map((client) => client.company_id)
      setResult({ status, body: await ledger.lockClientPeriods({ company_ids, date, status, reason: reason.trim() }) })
      props.onChanged()
    })
  }
  return (
    <section aria-labelledby="locks-title">
      <h2 id="locks-title">Lock a period across clients</h2>
      <form onSubmit={submit} aria-label="Lock a period across clients">
        <fieldset>
          <legend>Clients</legend>
          {props.clients.slice(0, batchMax).map((client) => (
            <label key={client.company_id} className="choice">
              <input
                type="checkbox"
                checked={chosen.has(client.company_id)}
                onChange={(event) => setChosen((before) => toggled(before, client.company_id, event.target.checked))}
              />
              {client.name}
            </label>
          ))}
        </fieldset>
        <label htmlFor="lock-date">A date in the period to lock</label>
        <input id="lock-date" type="date" required value={date} onChange={(event) => setDate(event.target.value)} />
        <label htmlFor="lock-status">Lock</label>
        <select id="lock-status" value={status} onChange={(event) => setStatus(event.target.value as keyof typeof lockLabel)}>
          {(Object.keys(lockLabel) as Array<keyof typeof lockLabel>).map((each) => <option key={each} value={each}>{lockLabel[each]}</option>)}
        </select>
        <label htmlFor="lock-reason">Reason</label>
        <input id="lock-reason" required maxLength={500} value={reason} onChange={(event) => setReason(event.target.value)} />
        <div>
          <button type="submit" disabled={busy || chosen.size === 0}>Lock in {chosen.size} {chosen.size === 1 ? "client" : "clients"}</button>
        </div>
      </form>
      <ErrorMessage error={error} />
      {result === null ? null : (
        <div role="status">
          <Results title="Period locks" result={result.body} nameOf={nameOf} done={lockedLabel[result.status]} />
        </div>
      )}
    </section>
  )
}
