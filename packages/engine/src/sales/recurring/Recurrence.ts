import { addDays, addMonthsClamped, isCalendarDate } from "../../kernel/values/Calendar.ts"

export type Frequency = "weekly" | "monthly" | "quarterly" | "yearly"

export interface Schedule {
  readonly frequency: Frequency
  readonly intervalCount: number
  readonly startDate: string
  readonly endDate: string | null
}

/**
 * The n-th occurrence (0 = the start date). Monthly and longer schedules count from the start
 * date's day, never from the previous occurrence, so a Jan 31 schedule gives Feb 28, then Mar 31.
 */
export const occurrence = (schedule: Schedule, n: number): string => {
  switch (schedule.frequency) {
    case "weekly":
      return addDays(schedule.startDate, 7 * schedule.intervalCount * n)
    case "monthly":
      return addMonthsClamped(schedule.startDate, schedule.intervalCount * n)
    case "quarterly":
      return addMonthsClamped(schedule.startDate, 3 * schedule.intervalCount * n)
    case "yearly":
      return addMonthsClamped(schedule.startDate, 12 * schedule.intervalCount * n)
  }
}

/** Every occurrence on or before `through` (and the end date), at most `max` of them, in order. */
export const occurrencesThrough = (schedule: Schedule, through: string, max = Number.MAX_SAFE_INTEGER): Array<string> => {
  const last = schedule.endDate !== null && schedule.endDate < through ? schedule.endDate : through
  const dates: Array<string> = []
  for (let n = 0; dates.length < max; n++) {
    const date = occurrence(schedule, n)
    if (!isCalendarDate(date) || date > last) break
    dates.push(date)
  }
  return dates
}

/** The first occurrence after `after` (or the start), or null once past the end date or year 9999. */
export const nextAfter = (schedule: Schedule, after: string | null): string | null => {
  for (let n = 0; ; n++) {
    const date = occurrence(schedule, n)
    if (!isCalendarDate(date) || (schedule.endDate !== null && date > schedule.endDate)) return null
    if (after === null || date > after) return date
  }
}
