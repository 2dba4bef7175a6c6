import { totalmem } from "node:os"

/**
 * Which of V8's WebAssembly tiers runs embedded PGlite, decided by `ledger serve` from
 * `LEDGER_PGLITE_WASM` and the memory the process may use
 * (docs/decisions/0716-pglite-wasm-chosen-by-memory.md).
 *
 * The optimizing tier is a third faster, but optimizing PostgreSQL's SQL grammar takes about
 * 0.6 GB of compiler memory for a second, once per process (ADR 0704): an import peaks near
 * 0.9 GB, against under 0.5 GB on the baseline compiler. On a machine or container with little
 * memory that second is the one the kernel's OOM killer sees, so the server's own choice, unless
 * told, is the baseline compiler there and the optimizing tier everywhere else.
 */

/** What runs PGlite's WebAssembly. */
export type Tier = "optimizing" | "baseline"

/** `LEDGER_PGLITE_WASM`: a tier, or "auto" (the default) to choose by memory. */
export type Setting = "auto" | Tier

/**
 * Below this much memory "auto" chooses the baseline compiler. The optimizing tier's peak (about
 * 0.9 GB for an import) would be nearly half of it, and the rest is the machine's and its page
 * cache's.
 */
export const optimizingMemoryBytesMin = 2 * 1024 ** 3

const settings: ReadonlyArray<Setting> = ["auto", "optimizing", "baseline"]

/** Reads the setting; unset or empty is "auto", anything but the three words is refused. */
export const parseSetting = (value: string | undefined): Setting => {
  if (value === undefined || value === "") return "auto"
  const setting = settings.find((candidate) => candidate === value)
  if (setting === undefined) {
    throw new Error(`LEDGER_PGLITE_WASM must be auto, optimizing or baseline, got ${JSON.stringify(value)}`)
  }
  return setting
}

export interface Choice {
  readonly tier: Tier
  /** Why, in words for the server's start-up line. */
  readonly reason: string
}

const gibibytes = (bytes: number): string => `${(bytes / 1024 ** 3).toFixed(1)} GiB`

/** The tier for a setting on a process that may use `memoryBytes`; an explicit tier always wins. */
export const choose = (setting: Setting, memoryBytes: number): Choice => {
  if (setting !== "auto") return { tier: setting, reason: `LEDGER_PGLITE_WASM=${setting}` }
  return memoryBytes < optimizingMemoryBytesMin
    ? {
      tier: "baseline",
      reason: `${gibibytes(memoryBytes)} of memory, under ${gibibytes(optimizingMemoryBytesMin)}; ` +
        "LEDGER_PGLITE_WASM=optimizing overrides"
    }
    : { tier: "optimizing", reason: `${gibibytes(memoryBytes)} of memory` }
}

/**
 * The memory this process may use: the machine's, or its cgroup's limit when lower (a container's
 * `--memory`, systemd's `MemoryMax`). Node reads the cgroup limit (v1 or v2) through libuv, which
 * answers 0 or the largest 64-bit number when there is none.
 */
export const processMemoryBytes = (
  machineBytes: number = totalmem(),
  constrainedBytes: number = process.constrainedMemory()
): number => constrainedBytes > 0 && constrainedBytes < machineBytes ? constrainedBytes : machineBytes
