/** Latency samples in milliseconds, kept whole so percentiles are exact rather than bucketed. */
export class Samples {
  private values = new Float64Array(4096)
  private size = 0

  add(milliseconds: number): void {
    if (this.size === this.values.length) {
      const grown = new Float64Array(this.values.length * 2)
      grown.set(this.values)
      this.values = grown
    }
    this.values[this.size++] = milliseconds
  }

  get count(): number {
    return this.size
  }

  summary(): LatencySummary {
    const sorted = this.values.slice(0, this.size).sort()
    const at = (fraction: number) => sorted.length === 0 ? Number.NaN : sorted[Math.min(sorted.length - 1, Math.ceil(fraction * sorted.length) - 1)]!
    let total = 0
    for (const value of sorted) total += value
    return {
      count: sorted.length,
      mean_ms: sorted.length === 0 ? Number.NaN : round(total / sorted.length),
      p50_ms: round(at(0.5)),
      p95_ms: round(at(0.95)),
      p99_ms: round(at(0.99)),
      p999_ms: round(at(0.999)),
      max_ms: round(sorted.length === 0 ? Number.NaN : sorted[sorted.length - 1]!)
    }
  }
}

export interface LatencySummary {
  readonly count: number
  readonly mean_ms: number
  readonly p50_ms: number
  readonly p95_ms: number
  readonly p99_ms: number
  readonly p999_ms: number
  readonly max_ms: number
}

export const round = (value: number, digits = 2): number => {
  if (!Number.isFinite(value)) return value
  const factor = 10 ** digits
  return Math.round(value * factor) / factor
}

/** Monotonic milliseconds, fractional. */
export const now = (): number => performance.now()
