import { mkdtempSync, readFileSync, rmSync, statSync } from "node:fs"
import { tmpdir } from "node:os"
import path from "node:path"
import { Effect, Layer } from "effect"
import { afterAll, describe, expect, it } from "vitest"
import { Entropy, Ports } from "@ledger/engine"
import { MasterKey } from "@ledger/server/adapters"

/** The master key's sources, and sealing with it: AES-256-GCM bound to its record. */

const folder = mkdtempSync(path.join(tmpdir(), "ledger-master-key-"))
afterAll(() => rmSync(folder, { recursive: true, force: true }))

const sealer = (key: Uint8Array) =>
  Effect.gen(function*() {
    return yield* Ports.TokenSealer
  }).pipe(Effect.provide(Layer.merge(Ports.TokenSealer.layerFromKey(key), Entropy.layer)))

describe("master key", () => {
  it("is generated into the data folder once (mode 0600) and read back after", () => {
    const dataDir = path.join(folder, "data")
    const first = MasterKey.load({ dataDir })
    expect(first.source).toBe("generated")
    const file = path.join(dataDir, MasterKey.fileName)
    expect(statSync(file).mode & 0o777).toBe(0o600)
    const second = MasterKey.load({ dataDir })
    expect(second.source).toBe("data_folder")
    expect(Buffer.from(second.key).equals(Buffer.from(first.key))).toBe(true)
    expect(readFileSync(file, "utf8").trim()).toBe(Buffer.from(first.key).toString("base64"))
  })

  it("is required with DATABASE_URL, and read from LEDGER_MASTER_KEY in base64 or hex", () => {
    expect(() => MasterKey.load({ databaseUrl: "postgres://x" })).toThrow(/LEDGER_MASTER_KEY is required/u)
    const bytes = Uint8Array.from({ length: 32 }, (_, index) => index)
    const base64 = Buffer.from(bytes).toString("base64")
    expect(Array.from(MasterKey.load({ databaseUrl: "postgres://x", masterKey: base64 }).key)).toEqual(Array.from(bytes))
    expect(Array.from(MasterKey.load({ masterKey: Buffer.from(bytes).toString("hex") }).key)).toEqual(Array.from(bytes))
    expect(() => MasterKey.load({ masterKey: "too-short" })).toThrow(/32 bytes/u)
    expect(MasterKey.load({ dataDir: "memory" }).source).toBe("memory")
  })

  it("seals so that only the same key and the same record open it", async () => {
    const key = MasterKey.load({ dataDir: "memory" }).key
    const other = MasterKey.load({ dataDir: "memory" }).key
    const program = Effect.gen(function*() {
      const service = yield* sealer(key)
      const sealed = yield* service.seal("access-secret-token", "bank_feed:a:1").pipe(Effect.provide(Entropy.layer))
      expect(sealed).toMatch(/^v1\.[\w-]+\.[\w-]+$/u)
      expect(sealed).not.toContain("access-secret-token")
      expect(yield* service.open(sealed, "bank_feed:a:1")).toBe("access-secret-token")
      const elsewhere = yield* Effect.exit(service.open(sealed, "bank_feed:b:1"))
      expect(elsewhere._tag).toBe("Failure")
      const wrongKey = yield* Effect.exit((yield* sealer(other)).open(sealed, "bank_feed:a:1"))
      expect(wrongKey._tag).toBe("Failure")
    })
    await Effect.runPromise(program)
  })
})
