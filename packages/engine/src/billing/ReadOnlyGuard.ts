import { Effect } from "effect"
import { SqlClient } from "effect/sql"
import { ApiError, Billing as BillingApi } from "@ledger/api"
import type { WriteGuard } from "../kernel/Registry.ts"
import * as Row from "../kernel/Row.ts"
import * as BillingRules from "./BillingRules.ts"

/**
 * A cancelled company's books are read-only (spec 4.13, ADR 1805): once its subscription's period
 * has ended (or a past-due one's grace), every write by its credentials is refused with 409
 * `books_read_only` before its handler, dry runs included, while reads (reports, exports, the
 * documents' files) keep working. What stays writable is what gets the company out of that state
 * or out of the browser: billing's own operations (subscribe again, the portal, sync) and signing
 * out or stepping up to reach them.
 *
 * The pipeline asks on every write, so the answer is remembered per company for `rememberMs` of
 * the request clock (at most `rememberedMax` companies): a company's first write costs one indexed
 * read, the next ones nothing. Applying a subscription forgets the company at once in this engine
 * (BillingStore.applySubscription); another engine on the same database sees it within `rememberMs`.
 */

/** Operations a read-only company may still call. */
export const stillWritable: ReadonlySet<string> = new Set<string>([
  ...BillingApi.operations.map((operation) => operation.id),
  "signOut",
  "stepUp",
  "stepUpChallenge",
  "revokeOtherSessions"
])

export const rememberMs = 30_000
export const rememberedMax = 10_000

interface Remembered {
  /** Request-clock time the answer was read at. */
  readonly readAt: number
  /** From when the books are read-only on the state read, or null. */
  readonly since: number | null
}

const remembered = new Map<string, Remembered>()

/** Drops what this engine remembers of a company's state (its subscription has just changed). */
export const forget = (company: string): void => {
  remembered.delete(company)
}

const readOnlySince = Effect.fn("ReadOnlyGuard.readOnlySince")(function*(company: string) {
  const sql = yield* SqlClient.SqlClient
  const rows = yield* sql<Record<string, unknown>>`SELECT status, current_period_end, cancel_at_period_end FROM billing_subscriptions
    WHERE company_id = ${company}`.pipe(Effect.orDie)
  const row = rows[0]
  if (row === undefined) return null
  const periodEnd = row.current_period_end == null ? null : Date.parse(Row.iso(row.current_period_end))
  return BillingRules.readOnlySince(String(row.status ?? "none"), periodEnd, row.cancel_at_period_end === true)
})

/** The refusal of a write to read-only books, with when they became so. */
export const refusal = (since: number): ApiError.LedgerError =>
  ApiError.fail(
    "books_read_only",
    "This company's subscription has ended: its books are read-only. Reads and exports still work; subscribe again (POST /v1/billing/checkout) to write.",
    { read_only_since: new Date(since).toISOString() }
  )

export const guard: WriteGuard = ({ companyId, operation, nowMs }) =>
  Effect.gen(function*() {
    if (stillWritable.has(operation.id)) return null
    let known = remembered.get(companyId)
    // Stale, or read "in the future" of a clock that was set back: read again.
    if (known === undefined || nowMs - known.readAt >= rememberMs || nowMs < known.readAt) {
      known = { readAt: nowMs, since: yield* readOnlySince(companyId) }
      if (remembered.size >= rememberedMax) remembered.delete(remembered.keys().next().value!)
      remembered.delete(companyId)
      remembered.set(companyId, known)
    }
    return known.since !== null && nowMs >= known.since ? refusal(known.since) : null
  })
