/**
 * The billing area's pure rules (spec 8.2), in integer cents: the price list, the processor's
 * price ids, which plan change applies when, the prorated difference an upgrade charges now,
 * the bank-feed accounts a plan includes, and when the books turn read-only.
 */

export type Plan = "solo" | "business" | "advanced"
export type Interval = "month" | "year"

const monthly: Readonly<Record<Plan, number>> = { solo: 19_00, business: 49_00, advanced: 99_00 }
export const feedAccountMonthCents = 2_00
export const cryptoAddonMonthCents = 12_00
export const overageCentsPerTransaction = 1
export const licenseYearCents = 399_00
export const trialDays = 14
export const graceDays = 14

/** Annual is two months free: ten times the monthly price. */
export const planPrice = (plan: Plan, interval: Interval): number => interval === "month" ? monthly[plan] : monthly[plan] * 10
export const addonPrice = (monthCents: number, interval: Interval): number => interval === "month" ? monthCents : monthCents * 12

export const includedFeedAccounts = (plan: Plan): number | null => plan === "solo" ? 3 : plan === "business" ? 15 : null

export const priceId = (item: Plan | "feed_account" | "crypto", interval: Interval): string => `ledger_${item}_${interval}`
export const licensePriceId = "ledger_license_year"

export interface Selection {
  readonly plan: Plan
  readonly interval: Interval
  readonly feedAccounts: number
  readonly crypto: boolean
}

export const items = (selection: Selection): Array<{ price: string; quantity: number }> => [
  { price: priceId(selection.plan, selection.interval), quantity: 1 },
  ...(selection.feedAccounts > 0 ? [{ price: priceId("feed_account", selection.interval), quantity: selection.feedAccounts }] : []),
  ...(selection.crypto ? [{ price: priceId("crypto", selection.interval), quantity: 1 }] : [])
]

/** What a price id is of: the plan, the extra feed accounts or the crypto add-on; null when none of ours. */
const kindOf = (price: string): "plan" | "feed_account" | "crypto" | null => {
  const match = /^ledger_(solo|business|advanced|feed_account|crypto)_(month|year)$/.exec(price)
  return match === null ? null : match[1] === "feed_account" ? "feed_account" : match[1] === "crypto" ? "crypto" : "plan"
}

/**
 * The changes that turn the subscription's items into `desired`, each naming the item it changes
 * (the processor adds an item given without an id, and refuses a price it already has): an item
 * of the same price keeps its id (its quantity set), one of the same kind (the plan, feed
 * accounts, the add-on) takes the new price, the rest are removed, and what has no counterpart
 * is added. Items that are none of ours are left alone.
 */
export const itemChanges = (
  current: ReadonlyArray<{ readonly id?: string | undefined; readonly price: string; readonly quantity: number }>,
  desired: ReadonlyArray<{ readonly price: string; readonly quantity: number }>
): Array<{ id?: string; price?: string; quantity?: number; deleted?: boolean }> => {
  const ours = current.filter((item) => item.id !== undefined && kindOf(item.price) !== null)
  const used = new Set<string>()
  const changes: Array<{ id?: string; price?: string; quantity?: number; deleted?: boolean }> = []
  for (const want of desired) {
    const same = ours.find((item) => !used.has(item.id!) && item.price === want.price)
      ?? ours.find((item) => !used.has(item.id!) && kindOf(item.price) === kindOf(want.price) && !desired.some((other) => other.price === item.price))
    if (same === undefined) {
      changes.push({ price: want.price, quantity: want.quantity })
      continue
    }
    used.add(same.id!)
    changes.push(same.price === want.price ? { id: same.id!, quantity: want.quantity } : { id: same.id!, price: want.price, quantity: want.quantity })
  }
  for (const item of ours) if (!used.has(item.id!)) changes.push({ id: item.id!, deleted: true })
  return changes
}

/** The selection the processor's subscription items describe; null plan when none of ours is there. */
export const selectionOf = (subscriptionItems: ReadonlyArray<{ readonly price: string; readonly quantity: number }>): Selection | null => {
  let plan: Plan | null = null
  let interval: Interval = "month"
  let feedAccounts = 0
  let crypto = false
  for (const item of subscriptionItems) {
    const match = /^ledger_(solo|business|advanced|feed_account|crypto)_(month|year)$/.exec(item.price)
    if (match === null) continue
    if (match[1] === "feed_account") feedAccounts = item.quantity
    else if (match[1] === "crypto") crypto = true
    else {
      plan = match[1] as Plan
      interval = match[2] as Interval
    }
  }
  return plan === null ? null : { plan, interval, feedAccounts, crypto }
}

const rank: Readonly<Record<Plan, number>> = { solo: 1, business: 2, advanced: 3 }

export type Change = "trial" | "upgrade" | "downgrade" | "none"

/** Upgrades and monthly to annual at once; downgrades and annual to monthly at period end; in a trial at once, free. */
export const classify = (from: { readonly plan: Plan; readonly interval: Interval }, to: { readonly plan: Plan; readonly interval: Interval }, trialing: boolean): Change => {
  if (from.plan === to.plan && from.interval === to.interval) return "none"
  if (trialing) return "trial"
  if (rank[to.plan] < rank[from.plan]) return "downgrade"
  if (from.interval === "year" && to.interval === "month") return "downgrade"
  return "upgrade"
}

/**
 * What an upgrade charges now: the new price for the rest of the period less the unused part of
 * the old one (same interval), or the new annual price less the unused month (monthly to annual).
 * Rounded half up to the cent, never negative.
 */
export const proratedCharge = (input: {
  readonly from: { readonly plan: Plan; readonly interval: Interval }
  readonly to: { readonly plan: Plan; readonly interval: Interval }
  readonly remainingSeconds: number
  readonly periodSeconds: number
}): number => {
  const remaining = Math.max(0, Math.min(input.remainingSeconds, input.periodSeconds))
  const part = (cents: number) => input.periodSeconds <= 0 ? 0 : Math.round((cents * remaining) / input.periodSeconds)
  const unusedOld = part(planPrice(input.from.plan, input.from.interval))
  const newCost = input.from.interval === input.to.interval ? part(planPrice(input.to.plan, input.to.interval)) : planPrice(input.to.plan, input.to.interval)
  return Math.max(0, newCost - unusedOld)
}

/** Principals whose successful writes are AI transactions (metered for the overage, spec 8.2). */
export const aiPrincipalTypes = ["agent", "ai_app", "firm_agent"] as const

/**
 * The billing period a usage count covers, as [start, end) in ms: the subscription's current
 * period (its end less one interval) when it holds `nowMs`, else the calendar month (UTC) of `nowMs`.
 */
export const usagePeriod = (periodEndMs: number | null, interval: Interval | null, nowMs: number): readonly [number, number] => {
  if (periodEndMs !== null && interval !== null && nowMs < periodEndMs) {
    const start = new Date(periodEndMs)
    if (interval === "year") start.setUTCFullYear(start.getUTCFullYear() - 1)
    else start.setUTCMonth(start.getUTCMonth() - 1)
    if (start.getTime() <= nowMs) return [start.getTime(), periodEndMs]
  }
  const now = new Date(nowMs)
  return [Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1), Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1)]
}

/**
 * From when the books are read-only on the subscription's state, or null: a cancelled subscription's
 * (or one set to cancel at its period's end) from that end, a past-due one's after its grace.
 */
export const readOnlySince = (status: string, periodEndMs: number | null, cancelAtPeriodEnd = false): number | null => {
  if (periodEndMs === null) return null
  if (status === "canceled" || (cancelAtPeriodEnd && status !== "none")) return periodEndMs
  if (status === "past_due") return periodEndMs + graceDays * 86_400_000
  return null
}

/** The books are read-only once a cancelled subscription's period has ended, or a past-due one's grace has. */
export const readOnly = (status: string, periodEndMs: number | null, nowMs: number, cancelAtPeriodEnd = false): boolean => {
  const since = readOnlySince(status, periodEndMs, cancelAtPeriodEnd)
  return since !== null && nowMs >= since
}

export const prices = (): Array<{ item: string; interval: Interval | null; unit_amount_cents: number }> => [
  ...(["solo", "business", "advanced"] as const).flatMap((plan) => (["month", "year"] as const).map((interval) => ({ item: plan, interval, unit_amount_cents: planPrice(plan, interval) }))),
  { item: "feed_account", interval: "month", unit_amount_cents: feedAccountMonthCents },
  { item: "crypto_addon", interval: "month", unit_amount_cents: cryptoAddonMonthCents },
  { item: "ai_transaction_overage", interval: null, unit_amount_cents: overageCentsPerTransaction },
  { item: "self_host_license", interval: "year", unit_amount_cents: licenseYearCents }
]
