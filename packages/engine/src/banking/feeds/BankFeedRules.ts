import { Limits } from "@ledger/api"

/** Bank feeds' pure rules: what a sealed token is bound to, the plan's limit, the dates a new link's history starts from. */

/** What a sealed token is bound to: its company and feed, so it opens on no other row. */
export const boundTo = (companyId: string, feedId: number): string => `bank_feed:${companyId}:${feedId}`

/** Feed accounts a plan may have linked at once; null is no limit. */
export const linkedAccountsLimit = (plan: string): number | null =>
  (Limits.feedAccountsByPlan as Record<string, number>)[plan] ?? null

/** The same day `months` later (earlier when negative), held to the target month's last day. */
export const addMonths = (date: string, months: number): string => {
  const year = Number(date.slice(0, 4))
  const month = Number(date.slice(5, 7)) - 1 + months
  const day = Number(date.slice(8, 10))
  const target = new Date(Date.UTC(year, month, 1))
  const last = new Date(Date.UTC(target.getUTCFullYear(), target.getUTCMonth() + 1, 0)).getUTCDate()
  return new Date(Date.UTC(target.getUTCFullYear(), target.getUTCMonth(), Math.min(day, last))).toISOString().slice(0, 10)
}

/** The day after a date. */
export const nextDay = (date: string): string =>
  new Date(Date.UTC(Number(date.slice(0, 4)), Number(date.slice(5, 7)) - 1, Number(date.slice(8, 10)) + 1)).toISOString().slice(0, 10)
