import { execFileSync } from "node:child_process"
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs"
import os from "node:os"
import path from "node:path"
import { afterEach, describe, expect, it } from "vitest"
import * as PgliteSql from "../src/storage/pglite/PgliteSql.ts"

/**
 * A new folder's cluster is made by a child process (PgliteSql.initdbInChild, ADR 0704) that
 * writes it into a staging folder and has it moved into place only when it exits 0 (ADR 0716): a
 * child killed part way, as a small container's OOM killer does at its peak, must never leave a
 * `PG_VERSION` over half a cluster for the server to open as if it were whole. The staging folder
 * is inside the folder, which is often a mount point that cannot be replaced.
 */

const parents: Array<string> = []
const newParent = () => {
  const parent = mkdtempSync(path.join(os.tmpdir(), "ledger-initdb-"))
  parents.push(parent)
  return parent
}
afterEach(() => {
  for (const parent of parents.splice(0)) rmSync(parent, { recursive: true, force: true })
})

/** A child that starts writing a cluster (PG_VERSION first, then a data file) and is killed. */
const killedPartWay = `
const fs = await import("node:fs")
const folder = process.argv[2]
fs.mkdirSync(folder, { recursive: true })
fs.writeFileSync(folder + "/PG_VERSION", "18\\n")
fs.mkdirSync(folder + "/base")
fs.writeFileSync(folder + "/base/1", "half")
process.kill(process.pid, "SIGKILL")
`

describe("a new folder's cluster made by a child process", () => {
  it("is not used when the child dies part way: the folder gets no PG_VERSION and nothing is left behind", async () => {
    const parent = newParent()
    const folder = path.join(parent, "books")
    expect(await PgliteSql.initdbInChild(folder, killedPartWay)).toBeUndefined()
    expect(existsSync(path.join(folder, "PG_VERSION"))).toBe(false)
    expect(readdirSync(parent)).toEqual([])
  })

  it("is not used when the child exits with a failure after writing", async () => {
    const parent = newParent()
    const folder = path.join(parent, "books")
    mkdirSync(folder)
    const failing = killedPartWay.replace(`process.kill(process.pid, "SIGKILL")`, "process.exit(1)")
    expect(await PgliteSql.initdbInChild(folder, failing)).toBeUndefined()
    expect(readdirSync(folder)).toEqual([])
    expect(readdirSync(parent)).toEqual(["books"])
  })

  it("is moved into place whole when the child succeeds, into a missing or an empty folder, and opens", async () => {
    for (const existing of [false, true]) {
      const parent = newParent()
      const folder = path.join(parent, "books")
      if (existing) mkdirSync(folder)
      expect(await PgliteSql.initdbInChild(folder)).toBeNull()
      expect(readdirSync(parent)).toEqual(["books"])
      expect(existsSync(path.join(folder, "PG_VERSION"))).toBe(true)
      const pglite = await PgliteSql.open({ dataDir: folder })
      try {
        expect((await pglite.query<{ answer: number }>("SELECT 40 + 2 AS answer")).rows).toEqual([{ answer: 42 }])
      } finally {
        await pglite.close()
      }
    }
  }, 120_000)

  it("fills a folder that is a mount point, as a container's volume is, without replacing it", async (context) => {
    const parent = newParent()
    const volume = path.join(parent, "volume")
    const folder = path.join(parent, "books")
    mkdirSync(volume)
    mkdirSync(folder)
    // A bind mount stands for the volume: it needs root, and the test skips without it.
    try {
      execFileSync("mount", ["--bind", volume, folder], { stdio: "ignore" })
    } catch {
      return context.skip()
    }
    try {
      expect(await PgliteSql.initdbInChild(folder)).toBeNull()
      expect(existsSync(path.join(volume, "PG_VERSION"))).toBe(true)
      expect(readdirSync(folder).filter((name) => name.startsWith(".initdb-"))).toEqual([])
      const pglite = await PgliteSql.open({ dataDir: folder })
      try {
        expect((await pglite.query<{ answer: number }>("SELECT 40 + 2 AS answer")).rows).toEqual([{ answer: 42 }])
      } finally {
        await pglite.close()
      }
    } finally {
      execFileSync("umount", [folder])
    }
  }, 120_000)

  it("clears the staging folder of a start that was cut off, and makes the cluster", async () => {
    const parent = newParent()
    const folder = path.join(parent, "books")
    mkdirSync(path.join(folder, ".initdb-1-1", "base"), { recursive: true })
    writeFileSync(path.join(folder, ".initdb-1-1", "PG_VERSION"), "18\n")
    expect(await PgliteSql.initdbInChild(folder)).toBeNull()
    expect(readdirSync(folder).filter((name) => name.startsWith(".initdb-"))).toEqual([])
    expect(existsSync(path.join(folder, "PG_VERSION"))).toBe(true)
  }, 120_000)

  it("leaves a folder that holds something else to PGlite, untouched", async () => {
    const parent = newParent()
    const folder = path.join(parent, "books")
    mkdirSync(folder)
    mkdirSync(path.join(folder, "notes"))
    expect(await PgliteSql.initdbInChild(folder)).toBeUndefined()
    expect(readdirSync(folder)).toEqual(["notes"])
    expect(readdirSync(parent)).toEqual(["books"])
  }, 120_000)
})
