/**
 * Lot relief and realized gains, pure: which lots a disposal relieves (first in, first out, or the
 * lots a person picks), how much of each lot's cost goes with the units relieved (pro rata, the
 * last units of a lot taking exactly what is left, so a lot's cost is never lost or made up), how
 * proceeds are shared between the lots (largest remainder, so they add up to the cent), and
 * whether each part is short or long term (held more than one year: disposed of after the
 * anniversary of its acquisition, in UTC days).
 */

export interface OpenLot {
  readonly id: number
  readonly acquiredAt: string
  readonly remainingUnits: bigint
  readonly remainingCostCents: number
}

export interface Part {
  readonly lotId: number
  readonly acquiredAt: string
  readonly units: bigint
  readonly costCents: number
  readonly proceedsCents: number
  readonly gainCents: number
  readonly term: "short" | "long"
}

export type Relief =
  | { readonly _tag: "Relieved"; readonly parts: ReadonlyArray<Part>; readonly costCents: number; readonly shortGainCents: number; readonly longGainCents: number }
  | { readonly _tag: "Short"; readonly availableUnits: bigint }
  | { readonly _tag: "BadPick"; readonly lotId: number; readonly message: string }

/** The cost that goes with `units` of a lot holding `remainingUnits` at `remainingCostCents`. */
export const costShare = (remainingCostCents: number, remainingUnits: bigint, units: bigint): number =>
  units >= remainingUnits ? remainingCostCents : Number((BigInt(remainingCostCents) * units) / remainingUnits)

/** Shares `total` cents in proportion to `weights`, largest remainder first; the shares add up to `total`. */
export const allocate = (total: number, weights: ReadonlyArray<bigint>): Array<number> => {
  const sum = weights.reduce((a, b) => a + b, 0n)
  if (sum === 0n) return weights.map(() => 0)
  const exact = weights.map((weight) => BigInt(total) * weight)
  const shares = exact.map((value) => value / sum)
  let left = BigInt(total) - shares.reduce((a, b) => a + b, 0n)
  const order = exact.map((value, index) => ({ index, remainder: value % sum })).sort((a, b) =>
    a.remainder === b.remainder ? a.index - b.index : a.remainder > b.remainder ? -1 : 1)
  for (const { index } of order) {
    if (left <= 0n) break
    shares[index] = shares[index]! + 1n
    left -= 1n
  }
  return shares.map(Number)
}

/** Long term when disposed of after the first anniversary of the acquisition day (UTC). */
export const termOf = (acquiredAt: string, disposedAt: string): "short" | "long" => {
  const acquired = new Date(acquiredAt)
  const anniversary = new Date(Date.UTC(acquired.getUTCFullYear() + 1, acquired.getUTCMonth(), acquired.getUTCDate()))
  // 29 February acquired: the anniversary is 28 February, or 1 March by Date's rollover; the day after is what counts.
  return disposedAt.slice(0, 10) > anniversary.toISOString().slice(0, 10) ? "long" : "short"
}

const byAge = (a: OpenLot, b: OpenLot): number => a.acquiredAt < b.acquiredAt ? -1 : a.acquiredAt > b.acquiredAt ? 1 : a.id - b.id

/** Which units of which lots go: FIFO over `lots`, or exactly `picks` (lot id -> units). */
export const choose = (
  lots: ReadonlyArray<OpenLot>,
  units: bigint,
  picks: ReadonlyArray<{ readonly lotId: number; readonly units: bigint }> | null
): Array<{ readonly lot: OpenLot; readonly units: bigint }> | Exclude<Relief, { _tag: "Relieved" }> => {
  const available = lots.reduce((sum, lot) => sum + lot.remainingUnits, 0n)
  if (picks === null) {
    if (available < units) return { _tag: "Short", availableUnits: available }
    const chosen: Array<{ lot: OpenLot; units: bigint }> = []
    let left = units
    for (const lot of [...lots].sort(byAge)) {
      if (left === 0n) break
      const take = lot.remainingUnits < left ? lot.remainingUnits : left
      if (take > 0n) chosen.push({ lot, units: take })
      left -= take
    }
    return chosen
  }
  const byId = new Map(lots.map((lot) => [lot.id, lot]))
  const seen = new Set<number>()
  for (const pick of picks) {
    const lot = byId.get(pick.lotId)
    if (lot === undefined) return { _tag: "BadPick", lotId: pick.lotId, message: "No open lot of this wallet has this id." }
    if (seen.has(pick.lotId)) return { _tag: "BadPick", lotId: pick.lotId, message: "The lot is picked twice." }
    seen.add(pick.lotId)
    if (pick.units <= 0n || pick.units > lot.remainingUnits) return { _tag: "BadPick", lotId: pick.lotId, message: "More than the lot holds, or nothing." }
  }
  const total = picks.reduce((sum, pick) => sum + pick.units, 0n)
  if (total !== units) return { _tag: "BadPick", lotId: picks[0]?.lotId ?? 0, message: "The picks do not add up to the quantity." }
  return picks.map((pick) => ({ lot: byId.get(pick.lotId)!, units: pick.units }))
}

/** The whole relief: lots chosen, their cost, the proceeds shared and the gains by term. */
export const relieve = (input: {
  readonly lots: ReadonlyArray<OpenLot>
  readonly units: bigint
  readonly proceedsCents: number
  readonly disposedAt: string
  readonly picks: ReadonlyArray<{ readonly lotId: number; readonly units: bigint }> | null
}): Relief => {
  const chosen = choose(input.lots, input.units, input.picks)
  if (!Array.isArray(chosen)) return chosen
  const proceeds = allocate(input.proceedsCents, chosen.map((entry) => entry.units))
  const parts = chosen.map((entry, index): Part => {
    const costCents = costShare(entry.lot.remainingCostCents, entry.lot.remainingUnits, entry.units)
    const proceedsCents = proceeds[index]!
    return {
      lotId: entry.lot.id,
      acquiredAt: entry.lot.acquiredAt,
      units: entry.units,
      costCents,
      proceedsCents,
      gainCents: proceedsCents - costCents,
      term: termOf(entry.lot.acquiredAt, input.disposedAt)
    }
  })
  const sum = (term: "short" | "long") => parts.filter((part) => part.term === term).reduce((total, part) => total + part.gainCents, 0)
  return {
    _tag: "Relieved",
    parts,
    costCents: parts.reduce((total, part) => total + part.costCents, 0),
    shortGainCents: sum("short"),
    longGainCents: sum("long")
  }
}
