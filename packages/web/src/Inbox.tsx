import { type FormEvent, useCallback, useEffect, useState } from "react"
import { type Client, type Item, messageOf } from "./api.ts"
import { formatCents } from "./money.ts"
import { amountsInWords, kindInWords } from "./words.ts"
import { ErrorMessage, useAction } from "./useAction.tsx"

/** The approval inbox: pending proposals with their exact entry and the agent's reasons. */

export type Proposal = Item<"listProposals">

const Entry = ({ proposal }: { readonly proposal: Proposal }) => (
  <table>
    <caption>Entry dated {proposal.entry.date}{proposal.entry.memo === null ? "" : `: ${proposal.entry.memo}`}</caption>
    <thead>
      <tr><th scope="col">Account</th><th scope="col" className="num">Debit</th><th scope="col" className="num">Credit</th></tr>
    </thead>
    <tbody>
      {proposal.entry.lines.map((line, index) => (
        <tr key={line.line_no ?? index}>
          <td>{line.account}{` ${line.account_name}`}{line.memo ? ` (${line.memo})` : ""}</td>
          <td className="num">{line.debit_cents === 0 ? "" : formatCents(line.debit_cents)}</td>
          <td className="num">{line.credit_cents === 0 ? "" : formatCents(line.credit_cents)}</td>
        </tr>
      ))}
    </tbody>
  </table>
)

const Decision = (props: { readonly client: Client; readonly proposal: Proposal; readonly onDecided: (message: string) => void }) => {
  const { proposal } = props
  const [reason, setReason] = useState("")
  const { busy, error, run } = useAction()
  const decide = (decision: "approve" | "reject") =>
    void run(async () => {
      const text = reason.trim()
      const why = text === "" ? {} : { reason: text }
      if (decision === "approve") {
        const answer = await props.client.approveProposal({ id: proposal.id, ...why })
        props.onDecided(`Approved proposal ${proposal.id}: entry ${answer.entry_id} posted.`)
      } else {
        // Without a reason the server refuses in its own words, which the form shows.
        await props.client.rejectProposal({ id: proposal.id, ...why } as { id: number; reason: string })
        props.onDecided(`Rejected proposal ${proposal.id}.`)
      }
    })
  const reasonId = `reason-${proposal.id}`
  return (
    <form onSubmit={(event: FormEvent) => event.preventDefault()} aria-label={`Decide proposal ${proposal.id}`}>
      <label htmlFor={reasonId}>Reason (required to reject)</label>
      <input id={reasonId} value={reason} maxLength={500} onChange={(event) => setReason(event.target.value)} />
      <div className="actions">
        <button type="button" disabled={busy} onClick={() => decide("approve")}>Approve</button>
        <button type="button" className="secondary" disabled={busy} onClick={() => decide("reject")}>Reject</button>
      </div>
      <ErrorMessage error={error} />
    </form>
  )
}

export const Inbox = (props: { readonly client: Client; readonly title: string }) => {
  const [proposals, setProposals] = useState<ReadonlyArray<Proposal> | null>(null)
  const [error, setError] = useState<string | null>(null)
  const [status, setStatus] = useState<string | null>(null)
  const load = useCallback(async () => {
    try {
      setProposals((await props.client.listProposals({ status: "pending", limit: 50 })).data)
      setError(null)
    } catch (failure) {
      setError(messageOf(failure))
    }
  }, [props.client])
  useEffect(() => void load(), [load])

  return (
    <section aria-labelledby="inbox-title">
      <h1 id="inbox-title">{props.title}</h1>
      {status === null ? null : <p role="status">{status}</p>}
      {error === null ? null : <p role="alert" className="error">{error}</p>}
      {proposals === null && error === null ? <p role="status">Loading proposals…</p> : null}
      {proposals !== null && proposals.length === 0 ? <p>Nothing waits for your approval.</p> : null}
      <ul className="proposals" aria-label="Pending proposals">
        {(proposals ?? []).map((proposal) => (
          <li key={proposal.id} className="card">
            <article aria-labelledby={`proposal-${proposal.id}`}>
              <h2 id={`proposal-${proposal.id}`}>{amountsInWords(proposal.summary)}</h2>
              <p className="meta">
                <strong>{formatCents(proposal.amount_cents)}</strong> · {kindInWords(proposal.kind)} · proposed by {proposal.created_by.name ?? `${proposal.created_by.type} ${proposal.created_by.id}`}
                {proposal.agent_model === null ? "" : ` (${proposal.agent_model})`} on <time dateTime={proposal.created_at}>{proposal.created_at.slice(0, 10)}</time>
              </p>
              <h3>Why it waits</h3>
              <ul aria-label="Reasons">{proposal.reasons.map((reason, index) => <li key={index}>{reason.message}</li>)}</ul>
              <Entry proposal={proposal} />
              <Decision client={props.client} proposal={proposal} onDecided={(message) => {
                setStatus(message)
                void load()
              }} />
            </article>
          </li>
        ))}
      </ul>
    </section>
  )
}
