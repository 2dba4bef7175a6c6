import { Effect } from "effect"
import type { ApiError } from "@ledger/api"
import type * as Handler from "../kernel/Handler.ts"
import { Governed } from "../ledger/index.ts"

/**
 * Every crypto write that touches the books goes through the ledger's governed path
 * (`Governed.write`). Some move no money (a transfer between wallets on the same account, a zero
 * cost lot, a remeasurement with nothing to adjust): those write their rows without an entry, and
 * a dry run answers the same preview shape with no lines. Lines of zero cents are dropped first.
 */

export interface Post<A> {
  readonly kind: string
  readonly summary: string
  readonly date: string
  readonly memo: string
  readonly lines: ReadonlyArray<Governed.DraftLine>
  readonly request: unknown
  readonly dryRun: boolean
  /** The reason a posting may go into a soft-locked period (the ledger refuses it without one). */
  readonly softLockOverrideReason?: string | undefined
  readonly document: Record<string, unknown>
  /** The record the entry is for, when it exists before posting (a receipt): `source.id`. */
  readonly sourceId?: number | undefined
  /**
   * `onPosted` writes the record (a lot, a disposal, a remeasurement): an id is reserved before
   * posting, named by the entry as `source.id`, and handed to `onPosted` to insert the row with.
   */
  readonly reserveSourceId?: boolean | undefined
  /** `sourceId`: the entry's `source.id` (null when nothing posted), the id to give the record. */
  readonly onPosted: (entryId: number | null, sourceId: number | null) => Effect.Effect<A, ApiError.LedgerError, Handler.Services>
}

export const post = <A>(input: Post<A>): Effect.Effect<Handler.Result, ApiError.LedgerError, Handler.Services> =>
  Effect.gen(function*() {
    const lines = input.lines.filter((line) => (line.debit_cents ?? 0) !== 0 || (line.credit_cents ?? 0) !== 0)
    if (lines.length === 0) {
      if (input.dryRun) {
        return {
          status: 200,
          body: {
            dry_run: true,
            verdict: "post",
            reasons: [],
            entry: { date: input.date, memo: input.memo, lines: [], total_cents: 0 },
            document: input.document,
            balances: []
          }
        }
      }
      return { status: 201, body: yield* input.onPosted(null, null) }
    }
    const written = yield* Governed.write({
      kind: input.kind,
      summary: input.summary,
      entry: { date: input.date, memo: input.memo, lines },
      request: input.request,
      dryRun: input.dryRun,
      softLockOverrideReason: input.softLockOverrideReason ?? null,
      preview: { document: input.document },
      sourceId: input.sourceId,
      reserveSourceId: input.reserveSourceId,
      onPosted: (entry) => input.onPosted(entry.id, entry.source.id)
    })
    const { outcome: _outcome, ...result } = written
    return result
  })
