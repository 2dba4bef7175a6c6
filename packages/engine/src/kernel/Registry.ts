import { Context, Effect, Layer, Schema } from "effect"
import { SqlClient } from "effect/sql"
import type { SqlError, Statement } from "effect/sql"
import type { ApiError, Company, Ledger, Operation } from "@ledger/api"
import type { Actor } from "./Actor.ts"
import type { EngineInfo } from "./EngineInfo.ts"
import type { RequestContext } from "./RequestContext.ts"

/**
 * What areas add to what other areas do, and the `Registry` the composition root (Engine.ts)
 * folds them into (pipeline/Area.ts): the ledger reads proposal kinds and account protections
 * here and company creation its setup steps, so none of them imports the areas that add them.
 */

/**
 * What a contribution may use: the database (inside the request's transaction), the request and
 * the deployment. Narrower than a handler's services on purpose: a decision on a proposal, a
 * protection or a setup step works on rows; an outside port has no place in them.
 */
export type ContributionServices = SqlClient.SqlClient | RequestContext | EngineInfo

/** The proposal a person decides (ledger/ProposalStore.ts). */
export type Proposal = Ledger.Governed.Proposal
export type PostedEntry = Ledger.Records.JournalEntry

/**
 * How a person's decision on a queued governed write reaches the area that made it
 * (ledger/posting/Governed.ts, docs/governed-writes.md). `request` decodes the request the area stored
 * with the proposal; a stored request it cannot decode is a defect (the area wrote it).
 */
export interface ProposalKind<Request = any> {
  readonly request: Schema.Decoder<Request>
  /**
   * The proposal was approved and Ledger has just posted its entry exactly as proposed (`entry`):
   * write the rows `onPosted` would have written, linked to `entry.id`, and return the posted
   * record (it becomes `result` in the approval's 201 body).
   */
  readonly approved: (input: {
    readonly proposal: Proposal
    readonly request: Request
    readonly entry: PostedEntry
  }) => Effect.Effect<unknown, ApiError.LedgerError, ContributionServices>
  /**
   * The posted entry's `source.id` on approval, when the area knows it (optional; none: null): the
   * record the approval writes (an id it reserves now, `Governed.reserveId`) or the one it changes.
   */
  readonly sourceId?: ((input: {
    readonly proposal: Proposal
    readonly request: Request
  }) => Effect.Effect<number | null, never, ContributionServices>) | undefined
  /** The proposal was rejected (the reason is on `proposal`): release what `onProposed` held. */
  readonly rejected: (input: {
    readonly proposal: Proposal
    readonly request: Request
  }) => Effect.Effect<void, ApiError.LedgerError, ContributionServices>
}

/** Declares a proposal kind, its stored request typed by its Schema. */
export const proposalKind = <Request>(kind: ProposalKind<Request>): ProposalKind<Request> => kind

/** The account a deactivation asks about (ledger/accounts/Accounts.ts). */
export interface ProtectedAccount {
  readonly companyId: string
  readonly id: number
  readonly code: string
  readonly type: string
  readonly control: "ar" | "ap" | null
}

/**
 * Why an account may not be deactivated (spec 7, `account_protected`): a small SQL question asked
 * inside the deactivation's transaction. The table it reads must exist once its area's migration
 * has run; every failing check is reported in `details.protections`, in the order of the areas.
 */
export interface ProtectionCheck {
  /** A stable name shown in `details.protections[].check`. */
  readonly name: string
  /** A message when the account is protected by this rule, else null. */
  readonly check: (account: ProtectedAccount) => Effect.Effect<string | null, never, SqlClient.SqlClient>
}

/** Protected whenever `query` returns a row. */
export const exists = (
  name: string,
  message: string,
  query: (sql: SqlClient.SqlClient, account: ProtectedAccount) => Statement.Statement<Record<string, unknown>>
): ProtectionCheck => ({
  name,
  check: (account) =>
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      const rows = yield* query(sql, account).pipe(Effect.orDie)
      return rows.length > 0 ? message : null
    })
})

/** What company creation asks of each area, inside the creation's one transaction. */
export interface SetupRequest {
  readonly companyId: string
  readonly starterChart: Company.StarterChartName
  readonly periods: boolean
  readonly fiscalYearStartMonth: number
  readonly today: string
}

export interface SetupResult {
  readonly accounts_created: number
  readonly periods_created: number
}

export type SetupStep = (request: SetupRequest) => Effect.Effect<Partial<SetupResult>, never, ContributionServices>

/**
 * An entry has just been reversed (its reversal posted, in the same transaction): an area releases
 * what pointed at the cancelled entry (banking: a bank line matched to it goes back to unmatched,
 * or the reversal is refused while that line is cleared in a finished reconciliation).
 */
export type ReversalHook = (reversed: {
  readonly entryId: number
  readonly reversalEntryId: number
}) => Effect.Effect<void, ApiError.LedgerError, ContributionServices>

/**
 * A bound an area puts on an agent's postings beyond its posting threshold (ai-apps: a connected
 * app's daily cap and allowed accounts, ADR 1702). Asked by the governed write path
 * (ledger/posting/Governed.ts) inside the write's transaction, only when an agent's write would post: a
 * reason turns the posting into a proposal. When `reserve` is true the limit may count the posting
 * (its rows roll back with the write); a dry run asks with `reserve` false.
 */
export interface PostingLimitInput {
  readonly totalCents: number
  readonly entryDate: string
  readonly accounts: ReadonlyArray<{ readonly code: string; readonly type: string }>
  readonly reserve: boolean
}

export type PostingLimit = (input: PostingLimitInput) => Effect.Effect<
  { readonly type: string; readonly message: string } | null,
  ApiError.LedgerError,
  ContributionServices
>

/** The write a guard is asked about (pipeline/Admission.ts `guardWrites`). */
export interface GuardedWrite {
  readonly companyId: string
  readonly operation: Operation.Any
  readonly nowMs: number
}

/**
 * A refusal an area puts on a company's writes before their handler (billing: a cancelled
 * company's books are read-only, ADR 1805). Asked by the pipeline, after the caller's scope and
 * before the Idempotency-Key, for every write by a company credential, dry runs included; reads
 * are never asked. It runs outside any transaction and should cost nothing for most companies
 * (a guard may remember its answers for a short while, for one engine only).
 */
export type WriteGuard = (write: GuardedWrite) => Effect.Effect<ApiError.LedgerError | null, never, SqlClient.SqlClient>

/**
 * Which of the given contact ids are the company's contacts (the sales area owns `contacts`): the
 * ledger asks when a journal line names one, mileage when a trip does, and neither reads the
 * sales area's table. Asked inside the caller's transaction; returns the ids it knows.
 */
export type ContactLookup = (companyId: string, ids: ReadonlyArray<number>) => Effect.Effect<ReadonlyArray<number>, never, SqlClient.SqlClient>

/** A request of a known credential that was refused, as the pipeline audits it (pipeline/Run.ts `auditRefusal`). */
export interface AuditedRefusal {
  readonly actor: Actor
  /** The client the request named and reached, else null (a firm-level request, or a client it may not reach). */
  readonly companyId: string | null
  readonly action: string
  readonly via: "http" | "mcp" | "engine"
  readonly now: string
  /**
   * What the company log's columns and details hold for one (outcome, status, error type, the
   * error's message and details cut as there: the pipeline's Audit.ofRefusal).
   */
  readonly details: Record<string, unknown>
}

/**
 * A log besides the company's that keeps some refusals (firms: a firm credential's, in its firm's
 * hash-chained log, ADR 0903). Asked for every refusal of a known credential, after the company
 * log's, outside the request's transaction: a log writes in a transaction of its own, and returns
 * at once for an actor whose refusals it does not keep.
 */
export type RefusalLog = (refusal: AuditedRefusal) => Effect.Effect<void, SqlError.SqlError, SqlClient.SqlClient>

export interface Contributions {
  readonly proposalKinds: ReadonlyMap<string, ProposalKind>
  readonly protections: ReadonlyArray<ProtectionCheck>
  readonly setupSteps: ReadonlyArray<SetupStep>
  readonly reversalHooks: ReadonlyArray<ReversalHook>
  /** Optional so contributions built by hand need not name it; none: no limits. */
  readonly postingLimits?: ReadonlyArray<PostingLimit>
  /** Optional so the composition roots that build contributions by hand need not name it. */
  readonly writeGuards?: ReadonlyArray<WriteGuard>
  /** Optional likewise; none: no contact is known, so a line naming one is refused. */
  readonly contactLookups?: ReadonlyArray<ContactLookup>
  /** Optional likewise; none: refusals go into the company's log only. */
  readonly refusalLogs?: ReadonlyArray<RefusalLog>
}

/** The areas' contributions, folded once (pipeline/Area.ts `fold`); every handler may read it. */
export class Registry extends Context.Service<Registry, Contributions>()("@ledger/engine/Registry") {
  static readonly layer = (contributions: Contributions): Layer.Layer<Registry> => Layer.succeed(Registry)(contributions)

  /** The kind a stored proposal names; an unregistered one is a defect (its area was not folded). */
  static readonly proposalKind = (kind: string): Effect.Effect<ProposalKind, never, Registry> =>
    Effect.flatMap(Registry, (registry) => {
      const found = registry.proposalKinds.get(kind)
      return found === undefined
        ? Effect.die(new Error(`No area registers the proposal kind "${kind}"`))
        : Effect.succeed(found)
    })
}
