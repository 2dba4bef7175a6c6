import { createHash } from "node:crypto"
import { mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs"
import { createRequire } from "node:module"
import { tmpdir } from "node:os"
import { dirname, join } from "node:path"
import { PGlite, type PGliteOptions } from "@electric-sql/pglite"
import { Effect, Layer } from "effect"
import { Migrations } from "@ledger/engine"
import { Storage } from "@ledger/server"

/**
 * A migrated, empty database, made once and copied for every test ledger: starting PGlite and
 * running every migration takes seconds, loading a copy of its data folder a few hundred
 * milliseconds (docs/decisions/0602-testkit-template-and-determinism.md).
 *
 * The copy is kept in memory for the process and on disk for the next processes (each vitest
 * file is one), named by a hash of the migrations and the PGlite version so a changed migration
 * never loads a stale copy. `LEDGER_TESTKIT_CACHE_DIR` moves the folder; `off` keeps nothing on disk.
 */

interface PgliteFiles {
  readonly version: string
  readonly boot: Pick<PGliteOptions, "pgliteWasmModule" | "fsBundle">
}

/** The PGlite build in use, and its compiled WebAssembly and file bundle to hand to each copy. */
const pgliteFiles = (): PgliteFiles => {
  try {
    const dist = dirname(createRequire(import.meta.url).resolve("@electric-sql/pglite"))
    const version = String((JSON.parse(readFileSync(join(dist, "..", "package.json"), "utf8")) as { version?: unknown }).version)
    return {
      version,
      boot: {
        pgliteWasmModule: new WebAssembly.Module(readFileSync(join(dist, "pglite.wasm"))),
        fsBundle: new Blob([readFileSync(join(dist, "pglite.data"))])
      }
    }
  } catch {
    // Another layout (a bundler's): PGlite finds its own files, a little slower.
    return { version: "unknown", boot: {} }
  }
}

let files: PgliteFiles | undefined
const filesOnce = () => (files ??= pgliteFiles())

/** Names the template by everything that shapes it. */
export const fingerprint = (): string =>
  createHash("sha256")
    .update(JSON.stringify({ pglite: filesOnce().version, migrations: Migrations.migrations }))
    .digest("hex")
    .slice(0, 24)

const cacheDirectory = (): string | null => {
  const configured = process.env.LEDGER_TESTKIT_CACHE_DIR
  if (configured === "off") return null
  return configured !== undefined && configured !== "" ? configured : join(tmpdir(), "ledger-testkit")
}

const readCached = (path: string): Blob | null => {
  try {
    return new Blob([readFileSync(path)])
  } catch {
    return null
  }
}

const writeCached = async (path: string, template: Blob) => {
  const partial = `${path}.${process.pid}.partial`
  try {
    mkdirSync(dirname(path), { recursive: true })
    writeFileSync(partial, new Uint8Array(await template.arrayBuffer()))
    // A rename is atomic: another process reads the whole file or none.
    renameSync(partial, path)
    // Templates of earlier migrations are never loaded again (readers hold whole copies in memory).
    for (const name of readdirSync(dirname(path))) {
      if (/^template-[0-9a-f]+\.tar$/.test(name) && join(dirname(path), name) !== path) {
        rmSync(join(dirname(path), name), { force: true })
      }
    }
  } catch {
    rmSync(partial, { force: true })
  }
}

/** Storage over an open PGlite applies every migration before it is ready. */
const migrate = (pglite: PGlite) => Effect.runPromise(Effect.scoped(Layer.build(Storage.layer({ pglite }))))

const build = async (): Promise<Blob> => {
  const directory = cacheDirectory()
  const path = directory === null ? null : join(directory, `template-${fingerprint()}.tar`)
  const cached = path === null ? null : readCached(path)
  if (cached !== null) return cached
  const pglite = new PGlite({ ...filesOnce().boot, startParams: [...Storage.pgliteStartParams] })
  try {
    await pglite.waitReady
    await migrate(pglite)
    // A checkpoint first, so a copy starts without replaying the migrations from the WAL;
    // uncompressed, so loading skips the gunzip.
    await pglite.exec("CHECKPOINT")
    const template = await pglite.dumpDataDir("none")
    if (path !== null) await writeCached(path, template)
    return template
  } finally {
    await pglite.close()
  }
}

let template: Promise<Blob> | undefined

/** The migrated template's data folder, built (or read from the disk cache) on first use. */
export const dataDir = (): Promise<Blob> => {
  template ??= build().catch((error: unknown) => {
    template = undefined
    throw error
  })
  return template
}

/** A new in-memory PGlite holding a copy of the migrated template. The caller closes it. */
export const clone = async (): Promise<PGlite> => {
  // The server's start settings (a 16 MB buffer pool: about 110 MB less resident per copy).
  const pglite = new PGlite({ ...filesOnce().boot, startParams: [...Storage.pgliteStartParams], loadDataDir: await dataDir() })
  await pglite.waitReady
  return pglite
}
