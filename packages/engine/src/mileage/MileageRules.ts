import * as Rates from "./MileageRates.ts"

/** 12.4 miles -> 124 tenths: exact for every number with at most one decimal. */
export const toTenths = (miles: number): number => Math.round(miles * 10)

/** 124 tenths -> 12.4 miles. */
export const toMiles = (tenths: number): number => tenths / 10

/** Miles a trip counts: a round trip doubles the one-way miles. */
export const totalTenths = (oneWayTenths: number, roundTrip: boolean): number => roundTrip ? 2 * oneWayTenths : oneWayTenths

/** Non-negative integer division rounded half up (half away from zero for the non-negative amounts here). */
export const divideHalfUp = (numerator: bigint, denominator: bigint): bigint => (2n * numerator + denominator) / (2n * denominator)

export interface DatedTenths {
  readonly date: string
  readonly tenths: number
}

export interface RatedPeriod {
  readonly rate: Rates.MileageRate
  readonly tenths: number
}

/**
 * The standard mileage amount of business trips: each trip's tenths times the rate of its date (in
 * tenths of a cent per mile) gives hundredths of a cent; the sum is rounded half up to cents ONCE
 * (per vehicle and year, or per reimbursement), never per trip. `unrated` lists dates without a rate.
 */
export const standardAmount = (trips: ReadonlyArray<DatedTenths>) => {
  const byRate = new Map<Rates.MileageRate, number>()
  const unrated: Array<string> = []
  for (const trip of trips) {
    const rate = Rates.rateOn(trip.date)
    if (rate === null) unrated.push(trip.date)
    else byRate.set(rate, (byRate.get(rate) ?? 0) + trip.tenths)
  }
  const periods: Array<RatedPeriod> = [...byRate.entries()].map(([rate, tenths]) => ({ rate, tenths })).sort((a, b) => a.rate.from.localeCompare(b.rate.from))
  const hundredthCents = periods.reduce((sum, period) => sum + BigInt(period.tenths) * BigInt(period.rate.tenthCentsPerMile), 0n)
  return { cents: Number(divideHalfUp(hundredthCents, 100n)), periods, unrated }
}

/** Business use in parts per million, floored (0 when nothing was driven). */
export const businessUsePpm = (businessTenths: number, totalTenths: number): number =>
  totalTenths <= 0 ? 0 : Number((BigInt(Math.min(businessTenths, totalTenths)) * 1_000_000n) / BigInt(totalTenths))

/** Business use as a percentage with two decimals, floored: 625 of 1000 tenths -> "62.50". */
export const businessUsePercent = (businessTenths: number, totalTenths: number): string => {
  if (totalTenths <= 0) return "0.00"
  const basisPoints = Number((BigInt(Math.min(businessTenths, totalTenths)) * 10_000n) / BigInt(totalTenths))
  return `${Math.floor(basisPoints / 100)}.${String(basisPoints % 100).padStart(2, "0")}`
}

/** Actual expenses times business use (business tenths / total tenths), rounded half up to cents. */
export const businessShare = (expensesCents: number, businessTenths: number, totalTenths: number): number => {
  if (totalTenths <= 0 || expensesCents <= 0) return 0
  return Number(divideHalfUp(BigInt(expensesCents) * BigInt(Math.min(businessTenths, totalTenths)), BigInt(totalTenths)))
}

const dayMs = 86_400_000
const parse = (date: string): number => Date.UTC(Number(date.slice(0, 4)), Number(date.slice(5, 7)) - 1, Number(date.slice(8, 10)))
const format = (ms: number): string => new Date(ms).toISOString().slice(0, 10)

/** ISO weekday: 1 Monday to 7 Sunday. */
export const isoWeekday = (date: string): number => {
  const day = new Date(parse(date)).getUTCDay()
  return day === 0 ? 7 : day
}

export interface Schedule {
  readonly frequency: "weekly" | "monthly"
  readonly weekdays: ReadonlyArray<number>
  readonly dayOfMonth: number | null
  readonly startDate: string
  readonly endDate: string | null
}

/** Every date of the schedule from its start through `through` (and its end date), in order. */
export const occurrences = (schedule: Schedule, through: string, max: number): ReadonlyArray<string> => {
  const last = schedule.endDate !== null && schedule.endDate < through ? schedule.endDate : through
  const dates: Array<string> = []
  if (last < schedule.startDate) return dates
  if (schedule.frequency === "weekly") {
    const days = new Set(schedule.weekdays)
    for (let ms = parse(schedule.startDate); ms <= parse(last) && dates.length < max; ms += dayMs) {
      const date = format(ms)
      if (days.has(isoWeekday(date))) dates.push(date)
    }
    return dates
  }
  const day = schedule.dayOfMonth ?? 1
  let year = Number(schedule.startDate.slice(0, 4))
  let month = Number(schedule.startDate.slice(5, 7))
  while (dates.length < max) {
    const date = format(Date.UTC(year, month - 1, day))
    if (date > last) break
    if (date >= schedule.startDate) dates.push(date)
    month += 1
    if (month === 13) {
      month = 1
      year += 1
    }
  }
  return dates
}
