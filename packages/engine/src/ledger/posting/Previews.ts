import { Effect } from "effect"
import type { Ledger } from "@ledger/api"
import { requireCompanyId } from "../../kernel/CompanyContext.ts"
import * as BalanceStore from "../accounts/BalanceStore.ts"
import type * as JournalEntryStore from "../entries/JournalEntryStore.ts"
import * as JournalEntryRules from "../entries/JournalEntryRules.ts"
import type * as PostingPolicy from "../entries/PostingPolicy.ts"

/**
 * A governed write's dry run (Governed.ts): the entry exactly as it would post, and the balances
 * of its accounts as of its date before and after it. The entry's preview is also what a proposal
 * stores.
 */

/** The entry as it posts, with the balances it moves (as of its date), for previews and proposals. */
export const entryPreview = (prepared: JournalEntryStore.Prepared): Ledger.Governed.EntryPreview => ({
  date: prepared.draft.date,
  memo: prepared.draft.memo ?? null,
  lines: prepared.lines.map(JournalEntryRules.toWireLine),
  total_cents: prepared.totalCents
})

const balancesMoved = Effect.fn("Previews.balancesMoved")(function*(prepared: JournalEntryStore.Prepared) {
  const sums = JournalEntryRules.byAccount(prepared.lines)
  const totals = yield* BalanceStore.totalsAsOf((yield* requireCompanyId), prepared.draft.date, sums.map((sum) => sum.accountId))
  const byId = new Map(prepared.lines.map((line) => [line.accountId, line]))
  return sums.map((sum) => {
    const line = byId.get(sum.accountId)!
    const balance = BalanceStore.natural(line.accountType, totals.get(sum.accountId))
    const change = JournalEntryRules.naturalSign(line.accountType) * (sum.debitCents - sum.creditCents)
    return {
      account: line.account,
      name: line.accountName,
      type: line.accountType,
      balance_cents: balance,
      change_cents: change,
      balance_after_cents: balance + change
    }
  })
})

/** What the area adds to its dry run: its document as it would be, and the number it would take. */
export interface Extras {
  readonly document?: Record<string, unknown>
  readonly number?: string
}

/** A dry run's answer: the verdict, the entry as it would post, and the balances it would move. Nothing is written. */
export const previewed = Effect.fn("Previews.previewed")(function*(
  decision: PostingPolicy.Decision,
  prepared: JournalEntryStore.Prepared,
  extras: Extras | undefined
) {
  const preview: Ledger.Governed.Preview = {
    dry_run: true,
    verdict: decision.verdict,
    reasons: decision.reasons,
    entry: entryPreview(prepared),
    ...(extras?.number === undefined ? {} : { number: extras.number }),
    ...(extras?.document === undefined ? {} : { document: extras.document }),
    balances: yield* balancesMoved(prepared)
  }
  // A Governed.Written with the outcome Previewed (Governed.ts checks it: this module is below it).
  return { status: 200, body: preview, outcome: { _tag: "Previewed" as const, preview } }
})
