import * as Bounded from "../../kernel/Bounded.ts"
import type * as JournalEntry from "../entries/JournalEntryRules.ts"
import * as PeriodStore from "../periods/PeriodStore.ts"

/**
 * What the group commit of postings remembers between its batches: the accounts and periods that
 * earlier batches read, and entry ids drawn ahead by the last batch's statement
 * (docs/decisions/0712-charts-remembered-between-batches.md).
 *
 * Reading a batch's charts and drawing its ids was a round trip in every batch's critical path,
 * while the callers of the next batch waited: about a tenth of a batch's cycle at 16 callers. A
 * batch whose accounts, periods and ids are all remembered skips it. Nothing remembered is trusted:
 * the batch's one statement checks every account it posts to (ADR 0712, LD021) and the
 * period trigger refuses a locked period (LD011); either refusal makes its requests run alone and
 * the batch forgets everything it remembered.
 *
 * Only what lets a posting through is remembered: an active account, and a date in an open period
 * or in none. An inactive account or a locked period sends its request down the governed path,
 * which reads afresh; remembering them would keep sending requests there after an unlock.
 *
 * Ids are drawn ahead only while postings arrive together (a batch of two or more), and a batch of
 * one drops what is left: a client posting one request at a time, with nobody else posting, gets
 * ascending ids whichever path posts them, as before. Among concurrent postings ids were never the
 * order of posting (each drew its id before it committed), and now less so: under load an entry of
 * a batch may have a lower id than an entry posted on another path a few milliseconds before it,
 * by the same client or another. Ids are identifiers (DECISIONS.md: unique positive integers);
 * reports order entries by date, then id.
 *
 * One per engine, used by one worker at a time (GroupCommit runs one batch of an operation at a
 * time), so no two batches touch it at once.
 */

/** The most accounts, and the most company dates, remembered: about 200 bytes each. */
export const entriesMax = 10_000

/** The smallest batch that uses or draws ids ahead: postings arriving together. */
export const togetherSizeMin = 2

/** What a batch posts with: each company's accounts by code, its periods on the batch's dates, and the entries' ids. */
export interface Charts {
  readonly accounts: ReadonlyMap<string, ReadonlyMap<string, JournalEntry.AccountRef>>
  readonly periods: ReadonlyMap<string, ReadonlyArray<PeriodStore.PeriodOnDate>>
  /** In ascending order, one per candidate. */
  readonly ids: ReadonlyArray<number>
}

/** The company and the accounts and date of one posting in a batch. */
export interface Wanted {
  readonly companyId: string
  readonly date: string
  readonly codes: ReadonlyArray<string>
}

const keyOf = (companyId: string, name: string): string => `${companyId}\n${name}`

/** Sets a key in a map bounded to `entriesMax`, dropping the oldest key when full. */
const setBounded = <V>(map: Map<string, V>, key: string, value: V): void => {
  if (!map.has(key)) Bounded.makeRoom(map, entriesMax)
  map.set(key, value)
}

export class BatchCharts {
  readonly #accounts = new Map<string, JournalEntry.AccountRef>()
  /** A company's date: the open period containing it, or null for none. */
  readonly #periods = new Map<string, PeriodStore.PeriodOnDate | null>()
  /** Entry ids drawn ahead, ascending. */
  #ids: Array<number> = []

  /** The batch's charts and ids when everything it names is remembered; undefined otherwise. */
  recall(wanted: ReadonlyArray<Wanted>): Charts | undefined {
    if (wanted.length < togetherSizeMin) {
      // Postings one at a time again: ids drawn during the last burst would now be out of order.
      this.#ids = []
      return undefined
    }
    if (this.#ids.length < wanted.length) return undefined
    const accounts = new Map<string, Map<string, JournalEntry.AccountRef>>()
    const periods = new Map<string, Array<PeriodStore.PeriodOnDate>>()
    for (const posting of wanted) {
      const period = this.#periods.get(keyOf(posting.companyId, posting.date))
      if (period === undefined) return undefined
      if (period !== null) {
        const held = periods.get(posting.companyId) ?? []
        if (!held.some((known) => known.id === period.id)) held.push(period)
        periods.set(posting.companyId, held)
      }
      const chart = accounts.get(posting.companyId) ?? new Map<string, JournalEntry.AccountRef>()
      for (const code of posting.codes) {
        const account = this.#accounts.get(keyOf(posting.companyId, code))
        if (account === undefined) return undefined
        chart.set(code, account)
      }
      accounts.set(posting.companyId, chart)
    }
    return { accounts, periods, ids: this.#ids.splice(0, wanted.length) }
  }

  /** Remembers what a batch read: its active accounts, and each date's period when it is open or absent. */
  remember(wanted: ReadonlyArray<Wanted>, charts: Omit<Charts, "ids">): void {
    for (const [companyId, chart] of charts.accounts) {
      for (const [code, account] of chart) {
        // Not its turnover: that grows with every posting, and a figure read batches ago would
        // check the amount bound against what the account held then. The batch's statement
        // checks the bound itself (LD013, migration 0045); a batch read afresh also checks it first.
        const { turnover: _turnover, ...chartOnly } = account
        if (account.active) setBounded(this.#accounts, keyOf(companyId, code), chartOnly)
      }
    }
    for (const posting of wanted) {
      const period = PeriodStore.periodContaining(charts.periods.get(posting.companyId) ?? [], posting.date)
      if (period === null || period.status === "open") setBounded(this.#periods, keyOf(posting.companyId, posting.date), period)
    }
  }

  /** How many ids the next statement should draw ahead so that a batch of `batchSize` finds them. */
  idsWanted(batchSize: number): number {
    return batchSize < togetherSizeMin ? 0 : Math.max(0, batchSize - this.#ids.length)
  }

  /** Ids a statement drew ahead, ascending: later than any held, since the sequence only grows. */
  addIds(ids: ReadonlyArray<number>): void {
    this.#ids.push(...ids)
  }

  /** A chart changed, or a batch failed: nothing remembered is used again (ids drawn ahead stay: they are still unused). */
  forget(): void {
    this.#accounts.clear()
    this.#periods.clear()
  }
}
