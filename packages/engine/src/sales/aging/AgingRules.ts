import { daysBetween } from "../../kernel/values/Calendar.ts"

export type Bucket = "current" | "days_1_30" | "days_31_60" | "days_61_90" | "over_90"
export const buckets: ReadonlyArray<Bucket> = ["current", "days_1_30", "days_31_60", "days_61_90", "over_90"]

/** Days past due as of a date decide the bucket; a document with no due date is due on its date. */
export const bucketOf = (dueDate: string, asOf: string): Bucket => {
  const late = daysBetween(dueDate, asOf)
  if (late <= 0) return "current"
  if (late <= 30) return "days_1_30"
  if (late <= 60) return "days_31_60"
  if (late <= 90) return "days_61_90"
  return "over_90"
}

export type Totals = Record<Bucket, number> & { total: number }
export const emptyTotals = (): Totals => ({ current: 0, days_1_30: 0, days_31_60: 0, days_61_90: 0, over_90: 0, total: 0 })

export const add = (totals: Totals, bucket: Bucket, cents: number): void => {
  totals[bucket] += cents
  totals.total += cents
}
