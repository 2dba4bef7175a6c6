import { type FormEvent, useState } from "react"
import type { Input, OperationOf } from "@ledger/client"
import { ledger } from "./api.ts"
import { declineUrl } from "./consentDecline.ts"
import { parseCents } from "./money.ts"
import { ErrorMessage, useAction } from "./useAction.tsx"

/**
 * The AI app consent screen: `/oauth/authorize` checks the app's request and sends the browser
 * here (`/connect`, redirected into `/app/connect`) with it. The person chooses the level, the caps
 * and the accounts; approving is `POST /v1/ai-connections` (AI apps area), whose answer names the
 * redirect back to the app with its code. Declining goes to the server's `/oauth/decline`, which
 * checks the client and its redirect URI again and sends the browser back to the app with
 * `error=access_denied` and the request's `state` (RFC 6749 4.1.2.1): the redirect URI in this
 * page's address is not trusted until the server has checked it.
 */

type Level = "read" | "suggest" | "post"

const levels: ReadonlyArray<{ readonly value: Level; readonly label: string }> = [
  { value: "read", label: "Read only" },
  { value: "suggest", label: "Suggest: every write waits for approval" },
  { value: "post", label: "Post within the caps below, propose the rest" }
]

const requestFields = ["client_id", "redirect_uri", "code_challenge", "code_challenge_method", "resource", "scope", "state"] as const

const bodyOf = (params: URLSearchParams, level: Level, caps: { perEntry: string; daily: string; accounts: string }) => {
  const body: Record<string, unknown> = { level }
  for (const name of requestFields) {
    const value = params.get(name)
    if (value !== null && value !== "") body[name] = value
  }
  if (level === "post") {
    const perEntry = caps.perEntry.trim() === "" ? null : parseCents(caps.perEntry)
    const daily = caps.daily.trim() === "" ? null : parseCents(caps.daily)
    if (perEntry === null && caps.perEntry.trim() !== "") throw new Error("The cap per entry is not an amount like 250.00.")
    if (daily === null && caps.daily.trim() !== "") throw new Error("The daily cap is not an amount like 1000.00.")
    if (perEntry !== null) body.per_entry_cap_cents = perEntry
    if (daily !== null) body.daily_cap_cents = daily
  }
  const accounts = caps.accounts.split(",").map((code) => code.trim()).filter((code) => code !== "")
  if (accounts.length > 0) body.account_codes = accounts
  return body
}

export const Consent = (props: { readonly search: string }) => {
  const params = new URLSearchParams(props.search)
  const app = params.get("client_name") ?? params.get("client_id")
  const [level, setLevel] = useState<Level>("suggest")
  const [perEntry, setPerEntry] = useState("")
  const [daily, setDaily] = useState("")
  const [accounts, setAccounts] = useState("")
  const { busy, error, run } = useAction()

  const approve = (event: FormEvent) => {
    event.preventDefault()
    void run(async () => {
      // The request's fields go as the authorize request carried them: the server checks each one.
      const answer = await ledger.createAiConnection(bodyOf(params, level, { perEntry, daily, accounts }) as Input<OperationOf<"createAiConnection">>)
      window.location.assign(answer.redirect_to)
    })
  }

  if (app === null) return <section className="card narrow"><h1>Connect an AI app</h1><p>No authorization request was given. Start from the AI app you want to connect.</p></section>
  return (
    <section aria-labelledby="consent-title" className="card narrow">
      <h1 id="consent-title">Connect {app}</h1>
      <p><strong>{app}</strong> asks to work in your company's books{params.get("scope") ? ` (scope “${params.get("scope")}”)` : ""}.</p>
      <form onSubmit={approve}>
        <fieldset>
          <legend>What it may do</legend>
          {levels.map((each) => (
            <label key={each.value} className="choice">
              <input type="radio" name="level" value={each.value} checked={level === each.value} onChange={() => setLevel(each.value)} /> {each.label}
            </label>
          ))}
        </fieldset>
        {level === "post" ? (
          <>
            <label htmlFor="per-entry">Cap per entry (e.g. 250.00)</label>
            <input id="per-entry" inputMode="decimal" value={perEntry} onChange={(event) => setPerEntry(event.target.value)} />
            <label htmlFor="daily">Daily cap (e.g. 1000.00)</label>
            <input id="daily" inputMode="decimal" value={daily} onChange={(event) => setDaily(event.target.value)} />
          </>
        ) : null}
        <label htmlFor="accounts">Only these accounts (codes, comma separated; empty for all)</label>
        <input id="accounts" value={accounts} onChange={(event) => setAccounts(event.target.value)} />
        <button type="submit" disabled={busy}>Connect</button>
        <button type="button" className="secondary" disabled={busy} onClick={() => window.location.assign(declineUrl(params))}>Decline</button>
      </form>
      <ErrorMessage error={error} />
    </section>
  )
}
