import fc from "fast-check"
import { describe, expect, it } from "vitest"
import { LotRules, UnitRules } from "@ledger/engine/rules"

/** Properties of lot relief, gain arithmetic and unit conversions: exact, conserving, never a float. */

const lotArb = fc.record({
  units: fc.bigInt({ min: 1n, max: 10n ** 14n }),
  cost: fc.integer({ min: 0, max: 10_000_000_00 }),
  day: fc.integer({ min: 0, max: 1_500 })
})

const lotsOf = (raw: ReadonlyArray<{ units: bigint; cost: number; day: number }>): Array<LotRules.OpenLot> =>
  raw.map((lot, index) => ({
    id: index + 1,
    acquiredAt: new Date(Date.UTC(2023, 0, 1) + lot.day * 86_400_000).toISOString(),
    remainingUnits: lot.units,
    remainingCostCents: lot.cost
  }))

describe("allocate", () => {
  it("shares a total exactly, each share within a cent of its exact proportion", () => {
    fc.assert(fc.property(fc.integer({ min: 0, max: 1_000_000_000 }), fc.array(fc.bigInt({ min: 0n, max: 10n ** 15n }), { minLength: 1, maxLength: 20 }), (total, weights) => {
      const shares = LotRules.allocate(total, weights)
      const sum = weights.reduce((a, b) => a + b, 0n)
      expect(shares.reduce((a, b) => a + b, 0)).toBe(sum === 0n ? 0 : total)
      if (sum > 0n) {
        shares.forEach((share, index) => {
          const exact = (BigInt(total) * weights[index]!) / sum
          expect(BigInt(share) - exact >= 0n && BigInt(share) - exact <= 1n).toBe(true)
        })
      }
    }))
  })
})

describe("relieve", () => {
  it("FIFO takes the oldest lots first, conserves units, cost and proceeds, and gains are proceeds less cost", () => {
    fc.assert(fc.property(fc.array(lotArb, { minLength: 1, maxLength: 12 }), fc.integer({ min: 0, max: 100_000_000_00 }), fc.double({ min: 0.01, max: 1, noNaN: true }),
      (raw, proceeds, fraction) => {
        const lots = lotsOf(raw)
        const held = lots.reduce((sum, lot) => sum + lot.remainingUnits, 0n)
        const units = BigInt(Math.max(1, Math.floor(Number(held) * fraction)))
        const relief = LotRules.relieve({ lots, units, proceedsCents: proceeds, disposedAt: "2027-06-30T12:00:00.000Z", picks: null })
        expect(relief._tag).toBe("Relieved")
        if (relief._tag !== "Relieved") return
        expect(relief.parts.reduce((sum, part) => sum + part.units, 0n)).toBe(units)
        expect(relief.parts.reduce((sum, part) => sum + part.proceedsCents, 0)).toBe(proceeds)
        expect(relief.shortGainCents + relief.longGainCents).toBe(proceeds - relief.costCents)
        const ordered = [...lots].sort((a, b) => a.acquiredAt.localeCompare(b.acquiredAt) || a.id - b.id)
        // Every lot before the last one touched is taken whole, with all of its cost.
        relief.parts.slice(0, -1).forEach((part, index) => {
          expect(part.lotId).toBe(ordered[index]!.id)
          expect(part.units).toBe(ordered[index]!.remainingUnits)
          expect(part.costCents).toBe(ordered[index]!.remainingCostCents)
        })
        const last = relief.parts.at(-1)!
        const lot = lots.find((candidate) => candidate.id === last.lotId)!
        expect(last.costCents).toBeLessThanOrEqual(lot.remainingCostCents)
      }))
  })

  it("relieving a lot in pieces costs exactly what relieving it at once does", () => {
    fc.assert(fc.property(lotArb, fc.array(fc.integer({ min: 1, max: 1000 }), { minLength: 1, maxLength: 10 }), (raw, pieces) => {
      let lot = lotsOf([raw])[0]!
      let cost = 0
      const total = pieces.reduce((a, b) => a + b, 0)
      for (const [index, piece] of pieces.entries()) {
        const units = index === pieces.length - 1 ? lot.remainingUnits : (raw.units * BigInt(piece)) / BigInt(total)
        if (units === 0n) continue
        const part = LotRules.costShare(lot.remainingCostCents, lot.remainingUnits, units)
        cost += part
        lot = { ...lot, remainingUnits: lot.remainingUnits - units, remainingCostCents: lot.remainingCostCents - part }
      }
      expect(cost).toBe(raw.cost)
      expect(lot.remainingUnits).toBe(0n)
    }))
  })

  it("refuses more than is held, and picks that do not add up", () => {
    fc.assert(fc.property(fc.array(lotArb, { minLength: 1, maxLength: 5 }), (raw) => {
      const lots = lotsOf(raw)
      const held = lots.reduce((sum, lot) => sum + lot.remainingUnits, 0n)
      expect(LotRules.relieve({ lots, units: held + 1n, proceedsCents: 0, disposedAt: "2030-01-01", picks: null })).toEqual({ _tag: "Short", availableUnits: held })
      const picks = [{ lotId: lots[0]!.id, units: lots[0]!.remainingUnits }]
      expect(LotRules.relieve({ lots, units: held + 1n, proceedsCents: 0, disposedAt: "2030-01-01", picks })._tag).toBe("BadPick")
    }))
  })
})

describe("holding period", () => {
  it("is long only after the first anniversary", () => {
    expect(LotRules.termOf("2025-01-10T23:59:59.999Z", "2026-01-10T12:00:00.000Z")).toBe("short")
    expect(LotRules.termOf("2025-01-10T00:00:00.000Z", "2026-01-11T00:00:00.000Z")).toBe("long")
    expect(LotRules.termOf("2024-02-29T12:00:00.000Z", "2025-03-01T12:00:00.000Z")).toBe("short")
    expect(LotRules.termOf("2024-02-29T12:00:00.000Z", "2025-03-02T12:00:00.000Z")).toBe("long")
  })
})

describe("units and prices", () => {
  const assetArb = fc.constantFrom<UnitRules.Asset>("BTC", "XMR", "USDC", "USDT")
  it("a quantity survives the trip to smallest units and back", () => {
    fc.assert(fc.property(assetArb, fc.bigInt({ min: 0n, max: 10n ** 20n }), (asset, units) => {
      expect(UnitRules.toUnits(UnitRules.fromUnits(units, asset), asset)).toBe(units)
    }))
  })
  it("a quote's units are worth at least its cents, and one unit less is worth less", () => {
    const priceArb = fc.tuple(fc.integer({ min: 1, max: 200_000 }), fc.integer({ min: 0, max: 99 })).map(([whole, cents]) => `${whole}.${String(cents).padStart(2, "0")}`)
    fc.assert(fc.property(assetArb, priceArb, fc.integer({ min: 1, max: 100_000_000 }), (asset, price, cents) => {
      const units = UnitRules.unitsFor(cents, price, asset)!
      const [numerator, scale] = UnitRules.ratio(price)
      const worth = (value: bigint) => value * numerator * 100n
      const target = BigInt(cents) * 10n ** BigInt(UnitRules.decimalsOf[asset] + scale)
      expect(worth(units) >= target).toBe(true)
      expect(worth(units - 1n) < target).toBe(true)
      expect(UnitRules.valueCents(units, price, asset)).toBeGreaterThanOrEqual(cents)
    }))
  })
  it("refuses more places than the asset has", () => {
    expect(UnitRules.toUnits("0.000000001", "BTC")).toBeNull()
    expect(UnitRules.toUnits("1.0000001", "USDC")).toBeNull()
    expect(UnitRules.toUnits("0.000000000001", "XMR")).toBe(1n)
  })
})
