import { Effect } from "effect"
import { SqlClient } from "effect/sql"
import { ApiError, type Ledger } from "@ledger/api"
import * as Audit from "../../pipeline/Audit.ts"
import type * as Authenticate from "../../pipeline/Authenticate.ts"
import type * as GroupCommit from "../../pipeline/batching/GroupCommit.ts"
import * as Idempotency from "../../pipeline/Idempotency.ts"
import type * as Outbox from "../../pipeline/Outbox.ts"
import type { RequestInfo } from "../../kernel/RequestContext.ts"
import { BatchCharts, type Charts, type Wanted } from "./BatchCharts.ts"
import * as ControlAccountRules from "../entries/ControlAccountRules.ts"
import * as Governed from "./Governed.ts"
import * as JournalBatchStore from "./JournalBatchStore.ts"
import * as JournalEntryStore from "../entries/JournalEntryStore.ts"
import * as JournalEntryRules from "../entries/JournalEntryRules.ts"
import * as PostingPolicy from "../entries/PostingPolicy.ts"

/**
 * `POST /v1/journal-entries/propose` in a group commit (GroupCommit.ts): the entries of many
 * requests posted by two statements (read the charts and periods and draw the entries' ids, then
 * write everything in one statement, its own transaction) instead of five statements each; by the
 * write alone when the accounts, periods and ids the batch needs are remembered from earlier
 * batches (BatchCharts.ts), which the write then checks.
 *
 * Only the plain case is written here: a posting that the governed path would post at once (a
 * person, or an agent within its threshold), on an open or unperiodised date, with no class or
 * contact on its lines. Every other request (a refusal, a proposal, a soft-locked date, a dry run)
 * is answered null and runs alone on the governed path (Governed.ts), which stays the one
 * definition of what a posting does: this module reuses its pure rules (`JournalEntryRules`,
 * `PostingPolicy`) and its row and record builders (`JournalEntryRows`, `Audit`, `Idempotency`), so a
 * batched posting is stored and answered exactly as the governed path stores and answers it
 * (test/ledger/group-commit.test.ts compares the two).
 */

type Body = (typeof Ledger.JournalEntries.proposeJournalEntry.body)["Type"]

const linesPath: JournalEntryRules.Path = ["body", "lines"]
const kind = "journal_entry"
const noClasses: ReadonlyMap<string, JournalEntryRules.ClassRef> = new Map()
const noAccounts: ReadonlyMap<string, JournalEntryRules.AccountRef> = new Map()

const accepts = (body: unknown, request: RequestInfo): boolean => {
  const proposed = body as Body
  // A connected AI app's postings meet its posting limits on the governed path (kernel/Registry.ts).
  return proposed.dry_run !== true && request.companyId !== null && request.actor.aiConnectionId == null &&
    proposed.lines.every((line) => (line.class ?? null) === null && (line.contact_id ?? null) === null)
}

interface Candidate {
  readonly index: number
  readonly item: GroupCommit.Item
  readonly companyId: string
  readonly body: Body
  readonly draft: JournalEntryRules.DraftEntry
}

interface Posting extends Candidate {
  readonly prepared: JournalEntryStore.Prepared
  readonly period: JournalEntryStore.PeriodOnDate | null
}

/** The candidates the governed path would post at once, resolved against their charts; the others run alone. */
const postable = (candidates: ReadonlyArray<Candidate>, charts: Omit<Charts, "ids">): ReadonlyArray<Posting> =>
  candidates.flatMap((candidate): Array<Posting> => {
    const resolved = JournalEntryRules.resolve(candidate.draft, charts.accounts.get(candidate.companyId) ?? noAccounts, noClasses, linesPath)
    if (resolved instanceof ApiError.LedgerError) return []
    // A line on a control account is refused on the governed path (entries/ControlAccountRules.ts).
    if (ControlAccountRules.checkEntry(kind, resolved, linesPath) !== null) return []
    const period = JournalEntryStore.periodContaining(charts.periods.get(candidate.companyId) ?? [], candidate.draft.date)
    if (period !== null && period.status !== "open") return []
    const prepared: JournalEntryStore.Prepared = { draft: candidate.draft, lines: resolved, totalCents: JournalEntryRules.total(resolved) }
    const decision = PostingPolicy.decide({
      actor: candidate.item.request.actor,
      totalCents: prepared.totalCents,
      periodStatus: period?.status ?? null,
      softLockOverrideReason: candidate.body.soft_lock_override_reason ?? null,
      alwaysProposeForAgents: null
    })
    return decision.verdict === "post" ? [{ ...candidate, prepared, period }] : []
  })

/** The API keys a batch's postings were authenticated with, once each: its statement counts those still in that state. */
const credentialsUsed = (postings: ReadonlyArray<Posting>): Array<Authenticate.CredentialState> => {
  const used = new Map<string, Authenticate.CredentialState>()
  for (const posting of postings) {
    const credential = posting.item.credential
    if (credential !== null) used.set(`${credential.companyId} ${credential.keyId} ${credential.state}`, credential)
  }
  return [...used.values()]
}

/**
 * The accounts a batch's lines post to, as the batch resolved them: its statement counts those
 * still so, and active (ADR 0712).
 */
const accountsUsed = (postings: ReadonlyArray<Posting>): Array<Record<string, unknown>> => {
  const used = new Map<string, Record<string, unknown>>()
  for (const posting of postings) {
    for (const line of posting.prepared.lines) {
      used.set(`${posting.companyId} ${line.accountId}`, {
        company_id: posting.companyId,
        id: line.accountId,
        code: line.account,
        name: line.accountName,
        type: line.accountType
      })
    }
  }
  return [...used.values()]
}

/**
 * The requests a batch may post together: well-shaped drafts in a company. A key used twice in
 * one batch: the first is written here, the second runs alone after this batch commits, and
 * replays the first's answer.
 */
const candidatesOf = (items: ReadonlyArray<GroupCommit.Item>): Array<Candidate> => {
  const keys = new Set<string>()
  const candidates: Array<Candidate> = []
  items.forEach((item, index) => {
    const key = `${item.claim.tenant}\n${item.claim.principal}\n${item.claim.key}`
    if (keys.has(key) || item.request.companyId === null) return
    keys.add(key)
    const body = item.body as Body
    const draft: JournalEntryRules.DraftEntry = { date: body.entry_date, memo: body.memo ?? null, lines: body.lines }
    if (JournalEntryRules.checkShape(draft, linesPath) !== null) return
    candidates.push({ index, item, companyId: item.request.companyId, body, draft })
  })
  return candidates
}

/**
 * The rows of the batch's postings, built as the governed path builds them (JournalEntryRows.ts,
 * `Governed.postedAudit`, `Idempotency.storedRow`), each with its id in order; each posting's
 * answer is set in `answers` as it is built.
 */
const rowsOf = Effect.fn("JournalBatch.rowsOf")(function*(
  postings: ReadonlyArray<Posting>,
  ids: ReadonlyArray<number>,
  answers: Array<GroupCommit.Answer | null>
) {
  const entries: Array<Record<string, unknown>> = []
  const lines: Array<Record<string, unknown>> = []
  const events: Array<Outbox.PendingEvent> = []
  const auditEvents: Array<Record<string, unknown>> = []
  const records: Array<Record<string, unknown>> = []
  for (const [position, posting] of postings.entries()) {
    const request = posting.item.request
    const entryRow = {
      ...JournalEntryStore.entryRow(posting.prepared, {
        sourceKind: kind,
        softLockOverrideReason: posting.body.soft_lock_override_reason ?? null,
        confidence: posting.body.confidence ?? null
      }, request, posting.companyId, posting.period),
      id: ids[position]!
    }
    const entry = JournalEntryStore.recordOf(entryRow, posting.prepared.lines, null)
    entries.push(entryRow)
    for (const line of JournalEntryStore.lineRows(posting.prepared)) {
      lines.push({ company_id: posting.companyId, entry_id: entry.id, entry_date: entry.entry_date, ...line })
    }
    events.push({
      company_id: posting.companyId,
      event_type: "entry.posted",
      payload: JSON.stringify(JournalEntryStore.postedEvent(entry)),
      occurred_at: request.now
    })
    auditEvents.push(Audit.row(Audit.ofWrite(request, 201, Governed.postedAudit(kind, entry))!))
    records.push(yield* Idempotency.storedRow(posting.item.claim, 201, entry))
    answers[posting.index] = { status: 201, body: entry }
  }
  // By company (a stable sort: each company's in request order). Each audit event locks its
  // company's chain head until the batch commits (migration 0049); batches that lock companies in
  // one order cannot deadlock on them.
  auditEvents.sort((a, b) => {
    const [first, second] = [String(a.company_id), String(b.company_id)]
    return first < second ? -1 : first > second ? 1 : 0
  })
  return { entries, lines, events, auditEvents, records } satisfies JournalBatchStore.Rows
})

/**
 * Posts what it can of a batch in its one statement (JournalBatchStore.ts), with the charts,
 * periods and ids it remembers or reads first; answers null for every request it leaves to run alone.
 */
const write = Effect.fn("JournalBatch.write")(function*(items: ReadonlyArray<GroupCommit.Item>, memory: BatchCharts) {
  const sql = yield* SqlClient.SqlClient
  const answers: Array<GroupCommit.Answer | null> = items.map(() => null)
  const candidates = candidatesOf(items)
  if (candidates.length === 0) return answers

  const wanted: ReadonlyArray<Wanted> = candidates.map((candidate) => ({
    companyId: candidate.companyId,
    date: candidate.draft.date,
    codes: candidate.draft.lines.map((line) => line.account)
  }))
  const remembered = memory.recall(wanted)
  const charts = remembered ?? (yield* JournalBatchStore.readCharts(candidates))
  if (remembered === undefined) memory.remember(wanted, charts)
  const postings = postable(candidates, charts)
  if (postings.length === 0) return answers

  const rows = yield* rowsOf(postings, charts.ids, answers)
  const used = accountsUsed(postings)
  const credentials = credentialsUsed(postings)
  const drawn = yield* JournalBatchStore.write(sql, rows, used, credentials, postings.length, memory.idsWanted(candidates.length)).pipe(
    // Whatever refused the batch may be a chart that changed: nothing remembered is used again.
    Effect.onError(() => Effect.sync(() => memory.forget()))
  )
  memory.addIds(JournalBatchStore.idsDrawn(drawn))
  return answers
})

/** A group-commit writer of `proposeJournalEntry`, with its own memory of charts (one per engine). */
export const writer = (): GroupCommit.BatchWriter => {
  const memory = new BatchCharts()
  return { accepts, write: (items) => write(items, memory) }
}
