import { execFile, spawn } from "node:child_process"
import os from "node:os"
import path from "node:path"
import { promisify } from "node:util"
import fc from "fast-check"
import { describe, expect, it, vi } from "vitest"
import * as Cgroup from "../../bench/lib/Cgroup.ts"
import { Config, PgliteWasm } from "@ledger/server"
import { freePort, repositoryRoot } from "../support/server-process.ts"

/**
 * Which V8 tier runs embedded PGlite (PgliteWasm.ts, ADR 0716): an explicit setting always wins;
 * "auto", the default, keeps PostgreSQL's WebAssembly on the baseline compiler where the process
 * may use under 2 GiB, so its one-second 0.6 GB compile of the SQL grammar cannot meet a small
 * container's limit.
 */

const gib = 1024 ** 3
const memory = fc.integer({ min: 64 * 1024 ** 2, max: 1024 * gib })

describe("PgliteWasm.parseSetting", () => {
  it("takes the three words, and unset or empty as auto", () => {
    expect(PgliteWasm.parseSetting("auto")).toBe("auto")
    expect(PgliteWasm.parseSetting("optimizing")).toBe("optimizing")
    expect(PgliteWasm.parseSetting("baseline")).toBe("baseline")
    expect(PgliteWasm.parseSetting(undefined)).toBe("auto")
    expect(PgliteWasm.parseSetting("")).toBe("auto")
  })

  it("refuses anything else, naming the variable and the words it takes", () => {
    fc.assert(fc.property(fc.string({ minLength: 1 }).filter((value) => !["auto", "optimizing", "baseline"].includes(value)), (value) => {
      expect(() => PgliteWasm.parseSetting(value)).toThrow(/^LEDGER_PGLITE_WASM must be auto, optimizing or baseline, got /)
    }))
    // A near miss is the case that used to pass silently as the optimizing tier.
    expect(() => PgliteWasm.parseSetting("Baseline")).toThrow('got "Baseline"')
  })
})

describe("PgliteWasm.choose", () => {
  it("gives an explicit tier whatever the memory", () => {
    fc.assert(fc.property(fc.constantFrom<PgliteWasm.Tier>("optimizing", "baseline"), memory, (tier, bytes) => {
      expect(PgliteWasm.choose(tier, bytes)).toEqual({ tier, reason: `LEDGER_PGLITE_WASM=${tier}` })
    }))
  })

  it("on auto, chooses the baseline compiler exactly below 2 GiB, and says how to override it", () => {
    fc.assert(fc.property(memory, (bytes) => {
      const choice = PgliteWasm.choose("auto", bytes)
      expect(choice.tier).toBe(bytes < 2 * gib ? "baseline" : "optimizing")
      expect(choice.reason.includes("LEDGER_PGLITE_WASM=optimizing overrides")).toBe(choice.tier === "baseline")
    }))
    expect(PgliteWasm.choose("auto", 2 * gib - 1).tier).toBe("baseline")
    expect(PgliteWasm.choose("auto", 2 * gib).tier).toBe("optimizing")
    expect(PgliteWasm.choose("auto", gib).reason).toBe("1.0 GiB of memory, under 2.0 GiB; LEDGER_PGLITE_WASM=optimizing overrides")
  })
})

describe("PgliteWasm.processMemoryBytes", () => {
  it("is the cgroup's limit when lower than the machine's, else the machine's", () => {
    const machine = 8 * gib
    expect(PgliteWasm.processMemoryBytes(machine, gib)).toBe(gib)
    // libuv answers 0, or the largest 64-bit number (as a double), when no limit is set.
    expect(PgliteWasm.processMemoryBytes(machine, 0)).toBe(machine)
    expect(PgliteWasm.processMemoryBytes(machine, 2 ** 64)).toBe(machine)
    expect(PgliteWasm.processMemoryBytes(machine, 16 * gib)).toBe(machine)
  })

  it("reads this process's own limits: the machine's memory and its cgroup's, as Node reports them", () => {
    expect(PgliteWasm.processMemoryBytes()).toBe(PgliteWasm.processMemoryBytes(os.totalmem(), process.constrainedMemory()))
    expect(PgliteWasm.processMemoryBytes()).toBeGreaterThan(0)
  })
})

describe("Config.fromEnvironment", () => {
  it("chooses PGlite's tier from LEDGER_PGLITE_WASM and the memory given", () => {
    expect(Config.fromEnvironment({}, gib).pgliteWasm.tier).toBe("baseline")
    expect(Config.fromEnvironment({}, 8 * gib).pgliteWasm.tier).toBe("optimizing")
    expect(Config.fromEnvironment({ LEDGER_PGLITE_WASM: "optimizing" }, gib).pgliteWasm.tier).toBe("optimizing")
    expect(Config.fromEnvironment({ LEDGER_PGLITE_WASM: "baseline" }, 8 * gib).pgliteWasm.tier).toBe("baseline")
    expect(() => Config.fromEnvironment({ LEDGER_PGLITE_WASM: "fast" }, 8 * gib)).toThrow(/LEDGER_PGLITE_WASM/)
  })
})

describe("ledger serve with a setting it cannot run with", () => {
  const ledger = path.join(repositoryRoot, "packages/server/bin/ledger.mjs")
  const run = (env: Record<string, string>) =>
    promisify(execFile)(process.execPath, [ledger, "serve"], {
      cwd: repositoryRoot,
      env: { ...process.env, LEDGER_DATA_DIR: "memory", PORT: "0", ...env },
      timeout: 60_000
    }).then(
      () => ({ code: 0, stdout: "", stderr: "" }),
      (error: { code: number; stdout: string; stderr: string }) => error
    )

  it("exits 2 with one line that says what is wrong, before opening any storage", async () => {
    const bad = await run({ LEDGER_PGLITE_WASM: "Baseline" })
    expect(bad.code).toBe(2)
    expect(bad.stderr).toBe('ledger: LEDGER_PGLITE_WASM must be auto, optimizing or baseline, got "Baseline"\n')
    expect(bad.stdout).toBe("")
    const port = await run({ PORT: "http" })
    expect(port.code).toBe(2)
    expect(port.stderr).toBe("ledger: PORT must be a port number, got http\n")
  }, 120_000)
})

describe("ledger serve in a memory-limited cgroup, as in a container with --memory", () => {
  it("chooses the baseline compiler by itself, and says why", async (context) => {
    const group = Cgroup.create(`ledger-test-${process.pid}`, 1024 ** 3)
    // Making a cgroup needs root or a delegated hierarchy; CI's machine has both.
    if (group === null) return context.skip()
    try {
      const ledger = path.join(repositoryRoot, "packages/server/bin/ledger.mjs")
      const port = await freePort()
      const env: Record<string, string> = {}
      for (const [name, value] of Object.entries(process.env)) {
        if (value !== undefined && !name.startsWith("LEDGER_") && name !== "DATABASE_URL") env[name] = value
      }
      const server = spawn("sh", ["-c", `echo $$ > ${group.procsFile} && exec "$0" "$@"`, process.execPath, ledger, "serve"], {
        cwd: repositoryRoot,
        env: { ...env, LEDGER_DATA_DIR: "memory", PORT: String(port), HOST: "127.0.0.1" },
        stdio: ["ignore", "pipe", "pipe"]
      })
      let output = ""
      server.stdout!.on("data", (chunk: Buffer) => (output += chunk.toString()))
      server.stderr!.on("data", (chunk: Buffer) => (output += chunk.toString()))
      const exited = new Promise((resolve) => server.once("exit", resolve))
      try {
        await vi.waitFor(() => expect(output).toContain("Ledger listening"), { timeout: 120_000, interval: 100 })
        expect(output).toContain(
          "with embedded PGlite (in memory; baseline WebAssembly compiler: 1.0 GiB of memory, under 2.0 GiB; " +
            "LEDGER_PGLITE_WASM=optimizing overrides)"
        )
        const health = await fetch(`http://127.0.0.1:${port}/health`)
        expect(health.status).toBe(200)
      } finally {
        server.kill("SIGTERM")
        await exited
      }
      expect(group.oomKills()).toBe(0)
    } finally {
      group.remove()
    }
  }, 180_000)
})
