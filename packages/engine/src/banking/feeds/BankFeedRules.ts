import { Limits } from "@ledger/api"

/** Bank feeds' pure rules: what a sealed token is bound to, the plan's limit. */

/** What a sealed token is bound to: its company and feed, so it opens on no other row. */
export const boundTo = (companyId: string, feedId: number): string => `bank_feed:${companyId}:${feedId}`

/** Feed accounts a plan may have linked at once; null is no limit. */
export const linkedAccountsLimit = (plan: string): number | null =>
  (Limits.feedAccountsByPlan as Record<string, number>)[plan] ?? null
