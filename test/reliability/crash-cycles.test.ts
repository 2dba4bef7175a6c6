import { Effect } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { freshStore, type RunningServer, startServer, type Store, withStore } from "../support/server-process.ts"
import { long, scale } from "./scale.ts"

/**
 * kill -9 at named points (issue 19 item 15, kernel/Faults.ts): `ledger serve` with
 * LEDGER_FAULT_CRASH=before_commit:N dies inside the N-th write's transaction, with all its work
 * done but not committed; after_commit:N dies once the N-th write (or group commit) committed and
 * before anyone has the answer. After each crash a clean server comes up on the same database, every
 * key is sent again until answered, and the invariants hold: one change per key, every entry
 * balanced, one audit event per change, the same answer for a key before and after the crash.
 *
 * On PostgreSQL only (CI's second pass): the embedded store is one process's folder, whose crash
 * safety is PGlite's own.
 */

const postgres = (process.env.DATABASE_URL ?? "") !== ""
const operatorToken = `operator-crash-${Date.now().toString(36)}`

let store: Store
beforeAll(async () => {
  if (postgres) store = await freshStore()
}, 120_000)
afterAll(async () => {
  await store?.remove()
})

interface Sent {
  readonly key: string
  readonly path: string
  readonly body: unknown
  answer: string | null
}

const send = async (server: RunningServer, token: string, sent: Sent): Promise<number | null> => {
  const response = await fetch(`${server.url}${sent.path}`, {
    method: "POST",
    headers: { authorization: `Bearer ${token}`, "idempotency-key": sent.key, "content-type": "application/json" },
    body: JSON.stringify(sent.body),
    signal: AbortSignal.timeout(60_000)
  }).catch(() => null)
  if (response === null) return null
  const text = await response.text()
  if (response.status === 201) {
    // The answer to a key never changes, crash or no crash.
    if (sent.answer !== null) expect(text).toBe(sent.answer)
    sent.answer = text
  }
  return response.status
}

/** Sends each write again until it answers 201 (a key still locked by a dead process waits its turn). */
const answerEach = async (server: RunningServer, token: string, writes: ReadonlyArray<Sent>, when: string) => {
  for (const sent of writes) {
    let status = await send(server, token, sent)
    for (let retry = 0; status !== 201 && retry < 20; retry++) {
      await new Promise((done) => setTimeout(done, 250))
      status = await send(server, token, sent)
    }
    expect(status, `${sent.key} ${when}`).toBe(201)
  }
}

const count = (text: string, companyId: string): Promise<number> =>
  withStore(store, (sql) => Effect.map(sql.unsafe(text, [companyId]), (rows) => Number((rows[0] as { n: string }).n)))

describe.skipIf(!postgres)("crash cycles at named points", () => {
  it("loses nothing and doubles nothing when the server dies before or after a commit", async () => {
    const started = performance.now()
    let server = await startServer(store, { LEDGER_OPERATOR_TOKEN: operatorToken, LEDGER_WORKERS: "off" })
    const created = await fetch(`${server.url}/v1/companies`, {
      method: "POST",
      headers: { authorization: `Bearer ${operatorToken}`, "idempotency-key": "crash-company-1", "content-type": "application/json" },
      body: JSON.stringify({ name: "Crash Co", owner_name: "Owner", plan: "owned" })
    }).then((response) => response.json()) as { company: { company_id: string }; secret: string }
    const companyId = created.company.company_id
    const token = created.secret
    await server.stop()

    const all: Array<Sent> = []
    const points = ["before_commit", "after_commit"] as const
    for (let cycle = 0; cycle < scale.crashCycles; cycle++) {
      const point = points[cycle % 2]!
      const nth = 1 + (cycle % 3)
      server = await startServer(store, { LEDGER_OPERATOR_TOKEN: operatorToken, LEDGER_WORKERS: "off", LEDGER_FAULT_CRASH: `${point}:${nth}` })
      // Postings (group commit) and contacts (lone writes), all at once, until the crash.
      const batch: Array<Sent> = Array.from({ length: 6 }, (_, index) =>
        index % 2 === 0
          ? {
            key: `crash-${cycle}-${index}`,
            path: "/v1/journal-entries/propose",
            body: { entry_date: "2026-04-01", memo: `crash ${cycle}-${index}`, lines: [{ account: "1010", debit_cents: 100 + index }, { account: "4000", credit_cents: 100 + index }] },
            answer: null
          }
          : { key: `crash-${cycle}-${index}`, path: "/v1/contacts", body: { kind: "customer", name: `Crash ${cycle}-${index}` }, answer: null })
      all.push(...batch)
      await Promise.all(batch.map((sent) => send(server, token, sent)))
      await server.kill()

      // A clean server: this cycle's keys answered (earlier ones were, and are again at the end),
      // the invariants checked over everything so far.
      server = await startServer(store, { LEDGER_OPERATOR_TOKEN: operatorToken, LEDGER_WORKERS: "off" })
      await answerEach(server, token, batch, `after a crash at ${point}:${nth}`)
      await server.stop()
      const postings = all.filter((sent) => sent.path.includes("journal")).length
      expect(await count("SELECT count(*) AS n FROM journal_entries WHERE company_id = $1 AND memo LIKE 'crash %'", companyId)).toBe(postings)
      expect(await count("SELECT count(*) AS n FROM contacts WHERE company_id = $1 AND name LIKE 'Crash %'", companyId)).toBe(all.length - postings)
      expect(await count(
        `SELECT count(*) AS n FROM (SELECT entry_id FROM journal_lines WHERE company_id = $1 GROUP BY entry_id HAVING sum(amount_cents) <> 0) unbalanced`,
        companyId
      )).toBe(0)
      expect(await count(
        "SELECT count(*) AS n FROM audit_events WHERE company_id = $1 AND action IN ('proposeJournalEntry', 'createContact') AND status = 201",
        companyId
      )).toBe(all.length)
    }
    // Every key of every cycle once more: a later crash lost or doubled nothing earlier.
    server = await startServer(store, { LEDGER_OPERATOR_TOKEN: operatorToken, LEDGER_WORKERS: "off" })
    await answerEach(server, token, all, "at the end")
    await server.stop()
    expect(await count("SELECT count(*) AS n FROM journal_entries WHERE company_id = $1 AND memo LIKE 'crash %'", companyId))
      .toBe(all.filter((sent) => sent.path.includes("journal")).length)
    const seconds = ((performance.now() - started) / 1000).toFixed(0)
    console.log(`crash cycles: ${scale.crashCycles} cycles, ${all.length} keyed writes, each answered once after kill -9 at before_commit/after_commit (${seconds} s)`)
  }, long ? 14_400_000 : 1_800_000)
})
