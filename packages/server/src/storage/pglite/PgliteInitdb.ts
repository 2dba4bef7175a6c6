import { spawn } from "node:child_process"
import { existsSync, mkdirSync, readdirSync, renameSync, rmdirSync, rmSync } from "node:fs"
import { createRequire } from "node:module"
import { join } from "node:path"
import { pathToFileURL } from "node:url"
import { setFlagsFromString } from "node:v8"

// A new PGlite cluster made by a child process, and the baseline-compiler mode it shares with the
// store (docs/decisions/0704-pglite-memory.md, 0716).

/**
 * V8 flags that keep WebAssembly at its baseline compiler (Liftoff), without the optimizing tier.
 * V8 compiles a hot function again with TurboFan; PostgreSQL's SQL grammar (`raw_parser`, 105 KB
 * of WebAssembly) becomes hot after a few hundred statements are parsed (the migrations parse
 * more) and its compilation alone takes about 640 MB of compiler memory for a second, which is
 * most of a PGlite process's peak. The flags are process-wide: they apply to every WebAssembly
 * module compiled after them.
 */
const baselineWasmFlags = ["--no-wasm-tier-up", "--no-wasm-dynamic-tiering"] as const

let baselineWasmSet = false
/** Sets `baselineWasmFlags` for this process, before PGlite's module is compiled. */
export const useBaselineWasm = (): void => {
  if (baselineWasmSet) return
  baselineWasmSet = true
  for (const flag of baselineWasmFlags) setFlagsFromString(flag)
}

const pgliteEntry = (): string | null => {
  try {
    return pathToFileURL(createRequire(import.meta.url).resolve("@electric-sql/pglite")).href
  } catch {
    return null
  }
}

/** Runs in the child: a new cluster in the folder given, or in memory and written to stdout as a tar. */
const initdbScript = `
const { PGlite } = await import(process.argv[1])
const folder = process.argv[2]
const pglite = new PGlite(folder === "" ? {} : { dataDir: folder })
await pglite.waitReady
if (folder === "") {
  const tar = new Uint8Array(await (await pglite.dumpDataDir("none")).arrayBuffer())
  await new Promise((resolve, reject) => process.stdout.write(tar, (error) => error ? reject(error) : resolve()))
}
await pglite.close()
`

/**
 * A new database cluster made by a short-lived child process: PGlite runs PostgreSQL's initdb in a
 * second WebAssembly instance beside the first, and at its peak that takes about 0.6 GB more than
 * the database it leaves (1 GB with the optimizing compiler), memory the process then keeps. For a
 * folder the result is null, the cluster in place; for memory (no folder) it is the cluster as a tar
 * to load. Undefined when the child could not do it: PGlite then runs initdb in this process, as it
 * always did.
 *
 * The child writes a folder's cluster into a staging folder inside it (`.initdb-<pid>-<ms>`), at
 * its peak of memory and file by file, and only a child that exits 0 has its cluster moved into
 * place: each entry renamed up into the folder, `PG_VERSION` last. A child killed part way (by an
 * OOM killer, in a small container) leaves no `PG_VERSION` in the folder, so no half-made cluster
 * is ever opened as if it were whole. Inside the folder, not beside it, because the folder is
 * often a mount point (a container's volume): it cannot be replaced, and a rename from outside it
 * would cross file systems. A folder that holds anything but earlier staging folders (a start cut
 * off) is left to PGlite, as before. `script` is the child's program (argv: PGlite's entry, then
 * the folder or ""), replaced only by tests.
 */
export const initdbInChild = (dataDir: string | undefined, script: string = initdbScript): Promise<Blob | null | undefined> => {
  // Only a Node executable runs the child (not Electron's, whose execPath is the application).
  const entry = process.release.name === "node" && process.versions.electron === undefined ? pgliteEntry() : null
  if (entry === null) return Promise.resolve(undefined)
  const staging = dataDir === undefined ? undefined : stage(dataDir)
  if (staging === null) return Promise.resolve(undefined)
  return new Promise((resolve) => {
    const chunks: Array<Buffer> = []
    const child = spawn(
      process.execPath,
      [...baselineWasmFlags, "--input-type=module", "-e", script, entry, staging?.folder ?? ""],
      { stdio: ["ignore", staging === undefined ? "pipe" : "ignore", "ignore"], windowsHide: true }
    )
    child.stdout?.on("data", (chunk: Buffer) => chunks.push(chunk))
    child.on("error", () => {
      staging?.discard()
      resolve(undefined)
    })
    child.on("close", (code) => {
      if (staging === undefined) {
        return resolve(code === 0 && chunks.length > 0 ? new Blob([Buffer.concat(chunks)]) : undefined)
      }
      const moved = code === 0 && staging.moveIntoPlace()
      if (!moved) staging.discard()
      resolve(moved ? null : undefined)
    })
  })
}

const stagingPrefix = ".initdb-"

/**
 * A staging folder inside `dataDir` for the child's cluster, or null where there is none to make:
 * the folder holds something besides earlier staging folders (removed here), or cannot be written.
 */
const stage = (dataDir: string) => {
  const madeFolder = !existsSync(dataDir)
  const folder = join(dataDir, `${stagingPrefix}${process.pid}-${Date.now()}`)
  try {
    if (!madeFolder) {
      const entries = readdirSync(dataDir)
      if (entries.some((name) => !name.startsWith(stagingPrefix))) return null
      for (const name of entries) rmSync(join(dataDir, name), { recursive: true, force: true })
    }
    mkdirSync(folder, { recursive: true })
  } catch {
    return null
  }
  return {
    folder,
    /** The cluster's entries renamed up into the folder, `PG_VERSION` last; false when it cannot be. */
    moveIntoPlace: (): boolean => {
      try {
        if (!existsSync(join(folder, "PG_VERSION"))) return false
        const names = readdirSync(folder).filter((name) => name !== "PG_VERSION")
        for (const name of [...names, "PG_VERSION"]) renameSync(join(folder, name), join(dataDir, name))
        rmdirSync(folder)
        return true
      } catch {
        return false
      }
    },
    /** The staging folder removed, and the data folder too when it was made for it and is empty. */
    discard: (): void => {
      rmSync(folder, { recursive: true, force: true })
      if (madeFolder) {
        try {
          rmdirSync(dataDir)
        } catch {
          // Not empty after all: something else wrote there, and it stays.
        }
      }
    }
  }
}
