/**
 * What a benchmark run is told through the environment, read in one place so every script agrees.
 *
 * BENCH_TIME_SCALE   multiplies every duration and data size that can shrink (default 1; 0.1 for a quick run;
 *                    BENCH_QUICK=1 is the same as 0.1)
 * BENCH_STORAGE      comma-separated subset of postgresql, pglite (default both)
 * DATABASE_URL       the PostgreSQL server (default postgres://postgres@127.0.0.1:5432/test)
 */
const scaleFromEnvironment = (): number => {
  const explicit = process.env.BENCH_TIME_SCALE
  if (explicit !== undefined && explicit !== "") {
    const value = Number(explicit)
    if (!Number.isFinite(value) || value <= 0) throw new Error(`BENCH_TIME_SCALE must be a positive number, got ${explicit}`)
    return value
  }
  return process.env.BENCH_QUICK === "1" ? 0.1 : 1
}

export const timeScale = scaleFromEnvironment()

/** A duration in seconds, shortened by the time scale but never below `floor`. */
export const seconds = (full: number, floor = 2): number => Math.max(floor, Math.round(full * timeScale))

/** A count (rows, requests), shortened by the time scale but never below `floor`. */
export const count = (full: number, floor = 100): number => Math.max(floor, Math.round(full * timeScale))

export type StorageKind = "postgresql" | "pglite"

export const storages: ReadonlyArray<StorageKind> = (() => {
  const listed = (process.env.BENCH_STORAGE ?? "postgresql,pglite").split(",").map((item) => item.trim()).filter((item) => item !== "")
  for (const item of listed) {
    if (item !== "postgresql" && item !== "pglite") throw new Error(`BENCH_STORAGE: unknown storage ${item}`)
  }
  return listed as Array<StorageKind>
})()

export const databaseUrl = process.env.DATABASE_URL !== undefined && process.env.DATABASE_URL !== ""
  ? process.env.DATABASE_URL
  : "postgres://postgres@127.0.0.1:5432/test"

/** Load generators only ever target this host. */
export const loopback = "127.0.0.1"

let schemaCounter = 0
/**
 * A fresh PostgreSQL schema name for one run, dropped when the run ends. It carries the process id,
 * so a leftover schema can be told from one a running benchmark (anyone's) still uses.
 */
export const freshSchema = (name: string): string =>
  `bench_${name.replace(/[^a-z0-9]/g, "_")}_${process.pid}_${Date.now().toString(36)}_${(schemaCounter++).toString(36)}`
