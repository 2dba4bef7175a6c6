import { Calendar } from "@ledger/engine/rules"

/** A seeded generator and the date arithmetic scenarios are written in (UTC, YYYY-MM-DD). */

/** mulberry32: a small seeded generator, so the same seed gives the same year. */
export const generator = (seed: number) => {
  let state = seed >>> 0
  const next = () => {
    state = (state + 0x6d2b79f5) >>> 0
    let value = state
    value = Math.imul(value ^ (value >>> 15), value | 1)
    value ^= value + Math.imul(value ^ (value >>> 7), value | 61)
    return ((value ^ (value >>> 14)) >>> 0) / 4_294_967_296
  }
  return {
    next,
    integer: (min: number, max: number) => min + Math.floor(next() * (max - min + 1)),
    pick: <A>(items: ReadonlyArray<A>): A => items[Math.floor(next() * items.length)]!
  }
}

const pad = (value: number) => String(value).padStart(2, "0")
export const dateOf = (year: number, month: number, day: number) => `${year}-${pad(month)}-${pad(day)}`
/** The engine's own calendar, so a scenario's dates are computed as the engine computes them. */
export const addDays = Calendar.addDays

export type Generator = ReturnType<typeof generator>
