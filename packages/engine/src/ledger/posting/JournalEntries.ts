import { Effect, Schema } from "effect"
import { ApiError, Ledger } from "@ledger/api"
import * as Handler from "../../kernel/Handler.ts"
import { proposalKind as declareKind } from "../../kernel/Registry.ts"
import { RequestContext } from "../../kernel/RequestContext.ts"
import * as Governed from "./Governed.ts"
import * as JournalEntryStore from "../entries/JournalEntryStore.ts"
import { formatCents } from "../entries/PostingPolicy.ts"

/** Journal entries: propose (through the governed path), read, reverse. */

const operations = Ledger.JournalEntries

/** Entries that only their document may undo (by voiding it), not a journal reversal. */
const reversibleKinds = new Set(["journal_entry", "reversal"])

/** A journal entry's proposal posts the entry itself; there is nothing else to write or release. */
export const proposalKind = declareKind({
  // Nothing is read from the stored request (the entry is the proposal's own): any is accepted,
  // so exact reversals queued through Governed.write with their own request finish here too.
  request: Schema.Unknown,
  approved: ({ entry }) => Effect.succeed(entry),
  rejected: () => Effect.void
})

export const handlers = [
  Handler.make(operations.proposeJournalEntry, ({ body }) =>
    Governed.write({
      kind: "journal_entry",
      summary: `Journal entry on ${body.entry_date}, ${body.lines.length} lines, ${
        formatCents(body.lines.reduce((sum, line) => sum + (line.debit_cents ?? 0), 0))
      }${body.memo === undefined ? "" : `: ${body.memo}`}`,
      entry: { date: body.entry_date, memo: body.memo ?? null, lines: body.lines },
      request: body,
      dryRun: body.dry_run === true,
      softLockOverrideReason: body.soft_lock_override_reason,
      confidence: body.confidence,
      onPosted: (entry) => Effect.succeed(entry)
    })),

  Handler.make(operations.getJournalEntry, ({ path }) =>
    Effect.gen(function*() {
      const entry = yield* JournalEntryStore.load(path.id)
      if (entry === undefined) return yield* Effect.fail(ApiError.notFound("journal entry"))
      return { body: entry.record }
    })),

  Handler.make(operations.reverseJournalEntry, ({ body, path }) =>
    Effect.gen(function*() {
      const request = yield* RequestContext
      const existing = yield* JournalEntryStore.load(path.id)
      if (existing === undefined) return yield* Effect.fail(ApiError.notFound("journal entry"))
      if (!reversibleKinds.has(existing.sourceKind)) {
        return yield* Effect.fail(ApiError.fail(
          "entry_not_reversible",
          `This entry was posted by a ${existing.sourceKind}: void or reverse it through that record instead.`,
          { source: existing.record.source }
        ))
      }
      const reversed = yield* JournalEntryStore.reverse(path.id, {
        date: body.entry_date ?? request.today,
        memo: body.memo ?? null,
        softLockOverrideReason: body.soft_lock_override_reason ?? null
      })
      return {
        body: reversed.reversal,
        audit: {
          targetType: "journal_entry",
          targetId: path.id,
          reason: reversed.reversal.soft_lock_override_reason,
          details: { reversal_entry_id: reversed.reversal.id, total_cents: reversed.reversal.total_cents }
        }
      }
    }))
] as const
