import { Effect } from "effect"
import { SqlClient } from "effect/sql"
import { ApiError, type Ledger } from "@ledger/api"
import type { AuditNote } from "../../pipeline/Audit.ts"
import type * as Handler from "../../kernel/Handler.ts"
import { isAgent } from "../../kernel/Actor.ts"
import { Registry } from "../../kernel/Registry.ts"
import * as Outbox from "../../pipeline/Outbox.ts"
import { RequestContext } from "../../kernel/RequestContext.ts"
import * as Row from "../../kernel/Row.ts"
import * as ControlAccountRules from "../entries/ControlAccountRules.ts"
import * as JournalEntryStore from "../entries/JournalEntryStore.ts"
import * as JournalEntryRules from "../entries/JournalEntryRules.ts"
import * as PostingPolicy from "../entries/PostingPolicy.ts"
import * as ProposalStore from "../proposals/ProposalStore.ts"
import * as Previews from "./Previews.ts"

/**
 * THE GOVERNED WRITE PATH (spec 3.1): the one way anything posts to the ledger.
 *
 * Contract for the areas that post (journal entries here; invoices, bills, credits, receipts,
 * refunds and payments in sales; bank-line categorization and payments in banking; receipts and
 * integrations later). docs/governed-writes.md says the same with a worked example.
 *
 * 1. Your handler validates its request and builds, as pure data, the EXACT entry it posts
 *    (`DraftEntry`: date, memo, 2-500 lines of `{account code, debit_cents | credit_cents, memo,
 *    class, contact_id}` whose debits equal credits).
 * 2. It returns `yield* Governed.write({ ... })`, which decides and answers with the right result:
 *    - `dry_run`: 200 `{dry_run, verdict, reasons, entry, document?, number?, balances}`. Nothing is
 *      written and `onPosted` is NOT called: put your document preview and the number it would take
 *      in `preview` (read your counter, do not advance it).
 *    - posts (a person; an agent at or under its threshold): the entry is posted, then `onPosted(entry)`
 *      runs in the same transaction: write your rows (document, lines, applications, number) linked
 *      to `entry.id` and return the record for the 201 body (include `entry_id`).
 *    - queues (an agent over its threshold, or `alwaysProposeForAgents`): a proposal is stored with
 *      `kind`, `request` and the exact entry; `onProposed(proposal)` runs in the same transaction
 *      (e.g. mark a bank line `proposed`); 202 `{status: "pending_approval", proposal}`.
 *    - refuses: a hard-locked date (`period_hard_locked`), a soft-locked date without
 *      `softLockOverrideReason` (`soft_lock_reason_required`), and the entry refusals
 *      (`unbalanced_entry`, `single_line_entry`, `zero_amount_line`, `two_sided_line`,
 *      `unknown_account`, `inactive_account`, `unknown_class`, `unknown_contact`, and
 *      `control_account_line` for a `journal_entry`, `bank_line` or `receipt_expense` naming AR/AP; 422 with
 *      `details.issues` under `linesPath`). A dry run reports period refusals as verdict `refuse`.
 * 3. Declare your kind in your area's `Area` (`proposalKinds`, kernel/Registry.ts `ProposalKind`):
 *    `request` is the Schema of the request you stored, `approved` receives the proposal, that
 *    request decoded and the entry Ledger has just posted EXACTLY as proposed (after checking the
 *    period again) and writes your rows as `onPosted` would (typically the same function);
 *    `rejected` undoes what `onProposed` held (a bank line back to `unmatched`). Both run inside the
 *    decision's transaction; a failure refuses the decision and rolls everything back.
 * 4. Events: Ledger emits `entry.posted`, `proposal.created` and `proposal.decided`; emit your own
 *    (`invoice.created`, ...) from `onPosted` / `approved`.
 * 5. The kill switch and the agent's X-Agent-Model are enforced by the Dispatcher before your
 *    handler runs. Everything happens in the request's one transaction: a failure anywhere rolls
 *    back the entry, your rows, the proposal and the events together.
 * 6. A void is the exact reversal of a posted entry: pass `reverses: entryId` and Ledger takes the
 *    lines from that entry, links the two, refuses a second reversal and emits `entry.reversed`.
 *
 * Lower-level pieces for special cases: `JournalEntryStore.post` (post without policy, e.g. an approval),
 * `JournalEntryStore.reverse` (the exact reversal with no policy; the journal endpoint uses it),
 * `JournalEntryStore.load`, `JournalEntryStore.prepare`.
 */

export type DraftEntry = JournalEntryRules.DraftEntry
export type DraftLine = JournalEntryRules.DraftLine
export type PostedEntry = Ledger.Records.JournalEntry
export type ProposalSummary = Ledger.Governed.Queued["proposal"]
export type Proposal = ProposalStore.Proposal
export type PolicyReason = PostingPolicy.Reason
export type { ProposalKind } from "../../kernel/Registry.ts"
/** The entry as it posts, as a dry run shows it and a proposal stores it. */
export { entryPreview } from "./Previews.ts"

/** Where the dependencies of a governed write come from: the handler's own services. */
type R = Handler.Services

export interface Write<A> {
  /**
   * The operation's kind: the proposal kind its area registers and the posted entry's
   * `source.kind` (`journal_entry`, `invoice`, `bill`, `payment_received`, `bank_line`, ...).
   */
  readonly kind: string
  /** One line for the person deciding, e.g. "Invoice to Acme Ltd, 3 lines". At most 200 characters. */
  readonly summary: string
  /** The exact entry. */
  readonly entry: DraftEntry
  /** The validated request (JSON-serializable); stored with a proposal, handed back on approval. */
  readonly request: unknown
  readonly dryRun: boolean
  readonly softLockOverrideReason?: string | null | undefined
  /** An agent's confidence (0-1), recorded on the entry or proposal. */
  readonly confidence?: number | null | undefined
  /**
   * Set when this write is the exact reversal of a posted entry (a void): the lines are taken from
   * that entry, each on the other side (`entry.lines` is ignored; accounts deactivated since are
   * accepted), the two entries are linked (`reverses_entry_id`), a second reversal is refused
   * (`entry_already_reversed`) and `entry.reversed` is emitted. `entry.date` and `entry.memo` apply.
   */
  readonly reverses?: number | undefined
  /** The owning record's id if allocated before posting (`SELECT nextval('ledger_ids')`): `source.id`. */
  readonly sourceId?: number | null | undefined
  /**
   * The owning record is written by `onPosted` (a document, a payment): when the write posts, an id
   * is taken from `ledger_ids` first and becomes `source.id`, so `onPosted` inserts its row with
   * `entry.source.id`. A dry run and a proposal take none (an approval takes it then).
   */
  readonly reserveSourceId?: boolean | undefined
  /** For the dry run only: the document as it would be, and the number it would take. */
  readonly preview?: { readonly document?: Record<string, unknown>; readonly number?: string } | undefined
  /** Makes an agent's write wait for a person whatever its amount, with this reason (e.g. receipt_review). */
  readonly alwaysProposeForAgents?: PolicyReason | undefined
  /** Where the entry's lines are in your request, for `details.issues` (default `["body", "lines"]`). */
  readonly linesPath?: JournalEntryRules.Path | undefined
  /** The entry has posted: write your rows linked to `entry.id`; return the 201 body. */
  readonly onPosted: (entry: PostedEntry) => Effect.Effect<A, ApiError.LedgerError, R>
  /** A proposal was queued: hold what it needs (a bank line becomes `proposed`). */
  readonly onProposed?: ((proposal: Proposal) => Effect.Effect<void, ApiError.LedgerError, R>) | undefined
}

/** What `write` did, for handlers that need more than the response (most just return `result`). */
export type Outcome<A> =
  | { readonly _tag: "Previewed"; readonly preview: Ledger.Governed.Preview }
  | { readonly _tag: "Posted"; readonly entry: PostedEntry; readonly value: A }
  | { readonly _tag: "Queued"; readonly proposal: Proposal }

export interface Written<A> extends Handler.Result {
  readonly outcome: Outcome<A>
}

/**
 * An agent's write that would post meets the areas' posting limits (a connected AI app's daily cap
 * and allowed accounts, kernel/Registry.ts) inside this transaction: the first reason given makes
 * it a proposal. A real write lets a limit count the posting; a dry run only asks.
 */
const withinLimits = Effect.fn("Governed.withinLimits")(function*(
  decision: PostingPolicy.Decision, prepared: JournalEntryStore.Prepared, reserve: boolean
) {
  const request = yield* RequestContext
  if (decision.verdict !== "post" || !isAgent(request.actor)) return decision
  const registry = yield* Registry
  for (const limit of registry.postingLimits ?? []) {
    const accounts = prepared.lines.map((line) => ({ code: line.account, type: line.accountType }))
    const reason = yield* limit({ totalCents: prepared.totalCents, entryDate: prepared.draft.date, accounts, reserve })
    if (reason !== null) {
      return { verdict: "propose", reasons: [...decision.reasons.filter((kept) => kept.type !== "within_threshold"), reason], refusal: null } satisfies PostingPolicy.Decision
    }
  }
  return decision
})

/** A new id from the shared sequence, for a record whose entry must name it before it is written. */
export const reserveId = Effect.fn("Governed.reserveId")(function*() {
  const sql = yield* SqlClient.SqlClient
  const rows = yield* sql<{ id: unknown }>`SELECT nextval('ledger_ids') AS id`.pipe(Effect.orDie)
  return Row.int(rows[0]!.id)
})

/** What the audit event of a governed write that posted says of it. */
export const postedAudit = (kind: string, entry: PostedEntry): AuditNote => ({
  targetType: "journal_entry",
  targetId: entry.id,
  reason: entry.soft_lock_override_reason,
  details: { kind, total_cents: entry.total_cents, verdict: "post" }
})

/** Where the entry's lines are in a request when the caller does not say (never modified: each use copies it). */
const defaultLinesPath: JournalEntryRules.Path = ["body", "lines"]

/** The exact reversal of a posted entry, dated as the write says, and its date's period. */
const reversalOn = Effect.fn("Governed.reversalOn")(function*(entryId: number, entry: DraftEntry, periodLock: "share" | "none") {
  const { prepared } = yield* JournalEntryStore.prepareReversal(entryId, { date: entry.date, memo: entry.memo })
  return { prepared, period: yield* JournalEntryStore.periodOn(entry.date, periodLock) }
})

/**
 * The entry a write posts, resolved against the chart, and its date's period: read together for
 * a new entry (one statement), from the original for a reversal. A dry run only looks; a real
 * write holds the period row until it commits.
 */
const prepareWrite = <A>(input: Write<A>) => {
  const periodLock = input.dryRun ? "none" : "share"
  return input.reverses === undefined
    ? JournalEntryStore.prepareOn(input.entry, input.linesPath ?? defaultLinesPath, periodLock)
    : reversalOn(input.reverses, input.entry, periodLock)
}

/**
 * A manual entry or a categorization never names a control account (ADR 0106); an exact
 * reversal only undoes what already posted, so it is not asked.
 */
const controlRefusal = <A>(input: Write<A>, prepared: JournalEntryStore.Prepared): ApiError.LedgerError | null =>
  input.reverses === undefined ? ControlAccountRules.checkEntry(input.kind, prepared.lines, input.linesPath ?? defaultLinesPath) : null

/** The refusal of a write the period or the kill switch refuses, with the period it names. */
const refusalOf = (entryDate: string, decision: PostingPolicy.Decision, period: JournalEntryStore.PeriodOnDate | null) => {
  const refusal = decision.refusal!
  return ApiError.fail(refusal.type, refusal.message, {
    entry_date: entryDate,
    reasons: decision.reasons,
    ...(period === null ? {} : { period_id: period.id, period_status: period.status })
  })
}

/** Stores the proposal of a write that waits for a person, emits `proposal.created` and lets the area hold what it needs. */
const queue = Effect.fn("Governed.queue")(function*(
  input: Write<unknown>,
  decision: PostingPolicy.Decision,
  prepared: JournalEntryStore.Prepared,
  period: JournalEntryStore.PeriodOnDate | null,
  softLockOverrideReason: string | null
) {
  const proposal = yield* ProposalStore.insert({
    kind: input.kind,
    summary: input.summary.slice(0, 200),
    entry: Previews.entryPreview(prepared),
    request: input.request,
    reasons: decision.reasons,
    softLockOverrideReason: period?.status === "soft_locked" ? softLockOverrideReason : null,
    confidence: input.confidence ?? null,
    reversesEntryId: input.reverses ?? null
  })
  yield* Outbox.emit("proposal.created", {
    proposal_id: proposal.id,
    kind: proposal.kind,
    summary: proposal.summary,
    amount_cents: proposal.amount_cents,
    entry_date: proposal.entry.date,
    created_by: proposal.created_by
  }).pipe(Effect.orDie)
  if (input.onProposed !== undefined) yield* input.onProposed(proposal)
  return {
    status: 202,
    body: { status: "pending_approval", proposal: ProposalStore.summaryOf(proposal) } satisfies Ledger.Governed.Queued,
    audit: {
      targetType: "proposal",
      targetId: proposal.id,
      details: { kind: input.kind, amount_cents: proposal.amount_cents, verdict: "propose" }
    },
    outcome: { _tag: "Queued", proposal }
  } satisfies Written<never>
})

/**
 * Decides and carries out one governed write. See the contract at the top of this module. A
 * posting, the common and benchmarked case, is written out here and adds no effect of its own to
 * the reads and writes it needs; a dry run, a refusal and a proposal each have their function.
 */
export const write = <A>(input: Write<A>): Effect.Effect<Written<A>, ApiError.LedgerError, R> =>
  Effect.gen(function*() {
    const request = yield* RequestContext
    const { prepared, period } = yield* prepareWrite(input)
    const control = controlRefusal(input, prepared)
    if (control !== null) return yield* Effect.fail(control)
    const softLockOverrideReason = input.softLockOverrideReason ?? null
    const decision = yield* withinLimits(PostingPolicy.decide({
      actor: request.actor,
      totalCents: prepared.totalCents,
      periodStatus: period?.status ?? null,
      softLockOverrideReason,
      alwaysProposeForAgents: input.alwaysProposeForAgents ?? null,
      killSwitchSuspended: request.killSwitchSuspended === true
    }), prepared, !input.dryRun)
    if (input.dryRun) return yield* Previews.previewed(decision, prepared, input.preview)
    if (decision.verdict === "refuse") return yield* Effect.fail(refusalOf(input.entry.date, decision, period))
    if (decision.verdict === "propose") return yield* queue(input, decision, prepared, period, softLockOverrideReason)

    const entry = yield* JournalEntryStore.post(prepared, {
      sourceKind: input.kind,
      sourceId: input.sourceId ?? (input.reserveSourceId === true ? yield* reserveId() : null),
      softLockOverrideReason,
      confidence: input.confidence ?? null,
      reversesEntryId: input.reverses ?? null,
      heldPeriod: period
    })
    const value = yield* input.onPosted(entry)
    return {
      status: 201,
      body: value,
      audit: postedAudit(input.kind, entry),
      outcome: { _tag: "Posted", entry, value }
    } satisfies Written<A>
  })
