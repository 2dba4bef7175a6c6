/**
 * Benchmark 6: statement import. A generated 100,000-line statement, as OFX (1.x SGML) and as CSV,
 * imported through the engine into a bank account: seconds, and the process's peak resident memory
 * (VmHWM), on which the target is judged. Each import runs in a fresh child process, so its
 * high-water mark is its own and not a neighbour's. Beside it: the resident size when the import
 * starts (engine and database loaded), and the import's own peak, from a high-water mark started
 * again at that moment. On PGlite's optimizing tier the process's peak is set before the import, by
 * V8 compiling PostgreSQL's SQL grammar once (ADR 0704); the import's own peak shows what the
 * import adds to a running server.
 */
import { spawnSync } from "node:child_process"
import { fileURLToPath } from "node:url"
import * as Engine from "./lib/Engine.ts"
import * as Machine from "./lib/Machine.ts"
import * as Options from "./lib/Options.ts"
import * as Results from "./lib/Results.ts"
import { statement } from "./lib/Statement.ts"
import { now } from "./lib/Stats.ts"

const importPath = ["POST", "/v1/bank-accounts/{id}/imports"] as const
const lineCount = Options.count(100_000, 1_000)
const targets = { postgresql: 6, pglite: 15 } as const
const memoryTargetMb = 500

interface Measured {
  readonly seconds: number
  /** Resident when the import starts. */
  readonly rss_at_start_mb: number | null
  /** The process's peak before the import: its start, the engine, the database and the set-up. */
  readonly rss_peak_before_mb: number | null
  /** The peak while the import ran, from a high-water mark started again as it began; null where it cannot be. */
  readonly rss_peak_of_import_mb: number | null
  /** The process's peak over its whole life: the target's figure. */
  readonly rss_peak_mb: number | null
  readonly lines_imported: number
  readonly file_characters: number
}

/** One import in this process: the child's side. */
const measureOne = async (storage: Options.StorageKind, format: "ofx" | "csv", wasm: Wasm): Promise<Measured> => {
  const operationId = Engine.available(...importPath)!
  const engine = await Engine.open(storage, { name: `import_${format}`, pgliteOptimizedWasm: wasm === "optimizing" })
  // The parent drops the schema if this process is stopped before it can.
  process.stdout.write(`LOCATION ${engine.location}\n`)
  try {
    const company = await Engine.createCompany(engine, { starter_chart: "general" })
    const accounts = await engine.call("listAccounts", { credential: company.ownerKey, query: { limit: 1000 } })
    const cash = (accounts.body as { data: Array<{ code: string; type: string; subtype: string | null; name: string }> }).data
      .find((account) => account.type === "asset" && /bank|checking|cash/i.test(`${account.subtype ?? ""} ${account.name}`))
    if (cash === undefined) throw new Error("the general chart has no bank or cash account")
    const bank = Engine.expectStatus(await engine.call("createBankAccount", {
      credential: company.ownerKey,
      idempotencyKey: Engine.newKey("bank"),
      body: { name: "Operating", kind: "checking", ledger_account: cash.code }
    }), [201], "bank account")
    const bankId = (bank.body as { id: number }).id
    let content: string | null = statement(format, lineCount)
    const characters = content.length
    const rssAtStart = Machine.rssMb()
    const peakBefore = Machine.peakRssMb()
    const peakReset = Machine.resetPeakRss()
    const begin = now()
    const outcome = Engine.expectStatus(await engine.call(operationId, {
      credential: company.ownerKey,
      idempotencyKey: Engine.newKey("import"),
      path: { id: bankId },
      body: { format, content, filename: `bench.${format}` }
    }), [201], "import")
    const seconds = (now() - begin) / 1000
    content = null
    const peakAfter = Machine.peakRssMb()
    return {
      seconds,
      rss_at_start_mb: rssAtStart,
      rss_peak_before_mb: peakBefore,
      rss_peak_of_import_mb: peakReset ? peakAfter : null,
      rss_peak_mb: peakBefore === null || peakAfter === null ? null : Math.max(peakBefore, peakAfter),
      lines_imported: (outcome.body as { lines_imported: number }).lines_imported,
      file_characters: characters
    }
  } finally {
    await engine.close()
  }
}

/**
 * PGlite's WebAssembly on V8's optimizing tier or its baseline compiler (ADR 0704), which
 * `ledger serve` chooses by the memory it may use (ADR 0716): both are measured whatever the machine.
 */
type Wasm = "optimizing" | "baseline"

if (process.argv[2] === "--one") {
  const measured = await measureOne(process.argv[3] as Options.StorageKind, process.argv[4] as "ofx" | "csv", process.argv[5] as Wasm)
  process.stdout.write(`RESULT ${JSON.stringify(measured)}\n`)
  process.exit(0)
}

const run = Results.start("import")
const variants: ReadonlyArray<{ readonly storage: Options.StorageKind; readonly wasm: Wasm }> = Options.storages.flatMap((storage) =>
  (storage === "pglite" ? ["optimizing", "baseline"] as const : ["optimizing"] as const).map((wasm) => ({ storage, wasm }))
)
for (const { storage, wasm } of variants) {
  for (const format of ["ofx", "csv"] as const) {
    const figure = `${lineCount.toLocaleString("en-US")}-line ${format.toUpperCase()} import: seconds, peak RSS` +
      (storage === "pglite"
        ? ` (WebAssembly ${wasm === "baseline" ? "baseline compiler: the default under 2 GiB" : "optimizing: the default from 2 GiB"})`
        : "")
    const target = `<= ${targets[storage]} s, < ${memoryTargetMb} MB`
    if (Engine.available(...importPath) === null) {
      run.skip(figure, storage, "POST /v1/bank-accounts/{id}/imports", target)
      continue
    }
    const child = spawnSync(process.execPath, ["--import", "tsx", fileURLToPath(import.meta.url), "--one", storage, format, wasm], {
      encoding: "utf8",
      env: process.env,
      timeout: 300_000,
      maxBuffer: 64 * 1024 * 1024
    })
    const line = child.stdout.split("\n").find((text) => text.startsWith("RESULT "))
    const location = child.stdout.split("\n").find((text) => text.startsWith("LOCATION schema "))
    if (line === undefined && location !== undefined) {
      spawnSync("psql", [Options.databaseUrl, "-qAtXc", `DROP SCHEMA IF EXISTS ${location.slice("LOCATION schema ".length)} CASCADE`], {
        stdio: "ignore"
      })
    }
    if (line === undefined) {
      run.add({ figure, storage, value: `failed: ${(child.stderr || child.stdout).trim().split("\n").slice(-3).join(" ")}`, target, verdict: "missed" })
      continue
    }
    const measured = JSON.parse(line.slice("RESULT ".length)) as Measured
    const met = measured.seconds <= targets[storage] && (measured.rss_peak_mb ?? Infinity) < memoryTargetMb &&
      measured.lines_imported === lineCount
    run.add({
      figure,
      storage,
      value: `${measured.seconds.toFixed(2)} s, peak RSS ${measured.rss_peak_mb} MB (${measured.rss_at_start_mb} MB at the ` +
        `import's start, peak ${measured.rss_peak_before_mb} MB before it, ${measured.rss_peak_of_import_mb ?? "?"} MB during it), ` +
        `${measured.lines_imported} lines imported, file ${(measured.file_characters / 1e6).toFixed(1)} M characters`,
      target,
      verdict: met ? "met" : "missed",
      details: { ...measured }
    })
  }
}
run.note("imports go through the engine (Ledger.call), without HTTP; over HTTP a statement import takes a body up to 64 MiB (test/banking/large-import.test.ts)")
run.finish()
process.exit(0)
