import { spawn } from "node:child_process"
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, statSync, symlinkSync, writeFileSync } from "node:fs"
import { createServer } from "node:net"
import { tmpdir } from "node:os"
import { dirname, join, resolve } from "node:path"
import { fileURLToPath } from "node:url"

/**
 * Builds and packs the workspace's packages the way a release would, without touching the working
 * tree: each package is copied into a staging workspace (its own pnpm-workspace.yaml, so `pnpm
 * pack` rewrites `workspace:*` and applies `publishConfig`), built there with its tsup config,
 * and packed into a folder of tarballs. The live tree keeps running from sources: a dist/ in it
 * would be picked up by bin/ledger.mjs while other tests run.
 */

export const root = resolve(dirname(fileURLToPath(import.meta.url)), "..", "..")
export const packageNames = ["api", "client", "engine", "server", "testkit"] as const
export type PackageName = typeof packageNames[number]

const nodeBin = dirname(process.execPath)

export interface Run {
  readonly code: number
  readonly output: string
}

/** Runs a command to its end, with Node's own folder first on PATH (pnpm and npm live beside it). */
export const run = (command: string, args: ReadonlyArray<string>, cwd: string, environment: Record<string, string> = {}): Promise<Run> =>
  new Promise((done, fail) => {
    const child = spawn(command, args, {
      cwd,
      env: { ...process.env, ...environment, PATH: `${nodeBin}:${process.env.PATH ?? ""}`, NO_COLOR: "1" },
      stdio: ["ignore", "pipe", "pipe"]
    })
    let output = ""
    child.stdout.on("data", (chunk: Buffer) => (output += chunk.toString()))
    child.stderr.on("data", (chunk: Buffer) => (output += chunk.toString()))
    child.on("error", fail)
    child.on("close", (code) => done({ code: code ?? 1, output }))
  })

const expectSuccess = async (what: string, pending: Promise<Run>): Promise<string> => {
  const result = await pending
  if (result.code !== 0) throw new Error(`${what} failed (exit ${result.code}):\n${result.output.slice(-4_000)}`)
  return result.output
}

export interface Workspace {
  readonly directory: string
  readonly stage: string
  readonly tarballs: string
}

/** A temporary folder with a staging workspace holding copies of the packages' sources. */
export const stage = (names: ReadonlyArray<PackageName> = packageNames): Workspace => {
  const directory = mkdtempSync(join(tmpdir(), "ledger-packaging-"))
  const staged = join(directory, "stage")
  const tarballs = join(directory, "tarballs")
  mkdirSync(join(staged, "packages"), { recursive: true })
  mkdirSync(tarballs)
  writeFileSync(join(staged, "package.json"), JSON.stringify({ name: "ledger-stage", private: true, type: "module" }))
  writeFileSync(join(staged, "pnpm-workspace.yaml"), "packages:\n  - packages/*\n")
  for (const file of ["tsconfig.base.json", "tsconfig.json", "tsup.shared.ts"]) cpSync(join(root, file), join(staged, file))
  // Tools and dependencies come from the real install; only sources and manifests are copied.
  symlinkSync(join(root, "node_modules"), join(staged, "node_modules"))
  for (const name of names) {
    const from = join(root, "packages", name)
    const to = join(staged, "packages", name)
    mkdirSync(to)
    for (const entry of ["package.json", "tsup.config.ts", "src", "bin", "README.md", "LICENSE", "fonts", "app"]) {
      if (existsSync(join(from, entry))) cpSync(join(from, entry), join(to, entry), { recursive: true })
    }
    symlinkSync(join(from, "node_modules"), join(to, "node_modules"))
  }
  return { directory, stage: staged, tarballs }
}

/** `tsup` with the package's own config: ESM and bundled declarations in dist/. */
export const build = (workspace: Workspace, name: PackageName) =>
  expectSuccess(
    `building @ledger/${name}`,
    run(process.execPath, [join(root, "node_modules", "tsup", "dist", "cli-default.js")], join(workspace.stage, "packages", name))
  )

/** `pnpm pack` of a built package; answers the tarball's path. */
export const pack = async (workspace: Workspace, name: PackageName): Promise<string> => {
  await expectSuccess(`packing @ledger/${name}`, run("pnpm", ["pack", "--pack-destination", workspace.tarballs], join(workspace.stage, "packages", name)))
  const tarball = readdirSync(workspace.tarballs).find((file) => file.startsWith(`ledger-${name}-`) && file.endsWith(".tgz"))
  if (tarball === undefined) throw new Error(`no tarball for @ledger/${name}`)
  return join(workspace.tarballs, tarball)
}

/** What each package needs built first: its declarations refer to theirs. */
export const dependencies: Readonly<Record<PackageName, ReadonlyArray<PackageName>>> = {
  api: [],
  client: ["api"],
  engine: ["api"],
  server: ["engine"],
  testkit: ["server", "client"]
}

/** Builds every package, each once its dependencies are built, independent ones side by side. */
export const buildAll = async (workspace: Workspace, names: ReadonlyArray<PackageName> = packageNames) => {
  const started = new Map<PackageName, Promise<string>>()
  const start = (name: PackageName): Promise<string> => {
    let pending = started.get(name)
    if (pending === undefined) {
      pending = Promise.all(dependencies[name].filter((dependency) => names.includes(dependency)).map(start))
        .then(() => build(workspace, name))
      started.set(name, pending)
    }
    return pending
  }
  await Promise.all(names.map(start))
}

/** Runs `task` over `items`, at most `concurrency` at a time. */
export const eachLimited = async <A, B>(items: ReadonlyArray<A>, concurrency: number, task: (item: A) => Promise<B>) => {
  const results: Array<B> = new Array(items.length)
  let next = 0
  const worker = async () => {
    while (next < items.length) {
      const index = next++
      results[index] = await task(items[index]!)
    }
  }
  await Promise.all(Array.from({ length: Math.min(concurrency, items.length) }, worker))
  return results
}

/** A fresh npm project with the tarballs installed; registry dependencies come from npm (its cache first). */
export const installConsumer = async (workspace: Workspace, tarballs: ReadonlyArray<string>, folder = "consumer"): Promise<string> => {
  const consumer = join(workspace.directory, folder)
  mkdirSync(consumer)
  writeFileSync(join(consumer, "package.json"), JSON.stringify({ name: "ledger-consumer", private: true, type: "module" }))
  await expectSuccess(
    "npm install of the tarballs",
    run("npm", ["install", "--no-audit", "--no-fund", "--prefer-offline", "--loglevel=error", ...tarballs], consumer)
  )
  return consumer
}

/**
 * Type-checks files in the consumer as a strict NodeNext project would, declarations of libraries
 * included. Answers the errors found in third-party declarations (PGlite's refer to Emscripten
 * types it does not depend on), which a consumer with `skipLibCheck` never sees; an error in the
 * consumer's file or in a @ledger declaration fails.
 */
export const typecheck = async (consumer: string, files: ReadonlyArray<string>): Promise<ReadonlyArray<string>> => {
  writeFileSync(
    join(consumer, "tsconfig.json"),
    JSON.stringify({
      compilerOptions: {
        target: "ES2023",
        lib: ["ES2023", "DOM", "DOM.Iterable"],
        module: "NodeNext",
        moduleResolution: "NodeNext",
        strict: true,
        exactOptionalPropertyTypes: true,
        noEmit: true,
        skipLibCheck: false,
        typeRoots: [join(root, "node_modules", "@types")],
        types: ["node"]
      },
      files
    })
  )
  const result = await run(process.execPath, [join(root, "node_modules", "typescript", "bin", "tsc"), "-p", "."], consumer)
  const errors = result.output.split("\n").filter((line) => /^\S.*\(\d+,\d+\): error TS\d+/.test(line))
  const thirdParty = (line: string) => line.startsWith("node_modules/") && !line.startsWith("node_modules/@ledger/")
  const ours = errors.filter((line) => !thirdParty(line))
  if (ours.length > 0 || (result.code !== 0 && errors.length === 0)) {
    throw new Error(`tsc --noEmit in the consumer failed:\n${(ours.length > 0 ? ours.join("\n") : result.output).slice(-4_000)}`)
  }
  return errors.filter(thirdParty)
}

export const node = (consumer: string, file: string) => expectSuccess(`node ${file}`, run(process.execPath, [file], consumer))

/** Bytes of every file under a folder (symbolic links not followed). */
export const folderBytes = (folder: string): number => {
  let total = 0
  const pending = [folder]
  while (pending.length > 0) {
    const current = pending.pop()!
    for (const entry of readdirSync(current, { withFileTypes: true })) {
      const path = join(current, entry.name)
      if (entry.isDirectory()) pending.push(path)
      else if (entry.isFile()) total += statSync(path).size
    }
  }
  return total
}

/**
 * `npx ledger serve` in the consumer, on embedded in-memory storage and a free port: waits for
 * /health, reads the OpenAPI document's operation count, and stops the server.
 */
export const serveInstalled = async (consumer: string): Promise<{ readonly health: number; readonly operations: number }> => {
  const port = await new Promise<number>((done, fail) => {
    const server = createServer()
    server.listen(0, "127.0.0.1", () => {
      const address = server.address()
      server.close(() => (typeof address === "object" && address !== null ? done(address.port) : fail(new Error("no port"))))
    })
  })
  const child = spawn("npx", ["--no-install", "ledger", "serve"], {
    cwd: consumer,
    env: { ...process.env, PATH: `${nodeBin}:${process.env.PATH ?? ""}`, PORT: String(port), LEDGER_DATA_DIR: "memory", LEDGER_WORKERS: "off", NO_COLOR: "1" },
    stdio: ["ignore", "pipe", "pipe"],
    // Its own process group: npx does not pass SIGTERM on to the server it started, which outlived the test.
    detached: true
  })
  let output = ""
  child.stdout.on("data", (chunk: Buffer) => (output += chunk.toString()))
  child.stderr.on("data", (chunk: Buffer) => (output += chunk.toString()))
  try {
    const base = `http://127.0.0.1:${port}`
    for (let attempt = 0; attempt < 600; attempt++) {
      if (child.exitCode !== null) throw new Error(`ledger serve exited ${child.exitCode}:\n${output.slice(-4_000)}`)
      const health = await fetch(`${base}/health`).then((response) => response.status, () => null)
      if (health !== null) {
        const document = await (await fetch(`${base}/openapi.json`)).json() as { paths: Record<string, Record<string, unknown>> }
        const operations = Object.values(document.paths).reduce((sum, methods) => sum + Object.keys(methods).length, 0)
        return { health, operations }
      }
      await new Promise((done) => setTimeout(done, 200))
    }
    throw new Error(`ledger serve did not answer within 120 s:\n${output.slice(-4_000)}`)
  } finally {
    if (child.pid !== undefined && child.exitCode === null) process.kill(-child.pid, "SIGTERM")
  }
}

/** The first TypeScript example of a package's README, as a reader would copy it (null if none). */
export const readmeExample = (name: PackageName): string | null => {
  const readme = readFileSync(join(root, "packages", name, "README.md"), "utf8")
  const match = /```ts\n([\s\S]*?)```/.exec(readme)
  return match === null ? null : match[1]!
}

/** Writes each package's README example into the consumer as `readme-<name>.ts`; answers the files. */
export const writeReadmeExamples = (consumer: string, names: ReadonlyArray<PackageName>): ReadonlyArray<string> =>
  names.flatMap((name) => {
    const example = readmeExample(name)
    if (example === null) return []
    const file = `readme-${name}.ts`
    // A module, so its top-level await is allowed as a reader's own `.ts` file would be.
    writeFileSync(join(consumer, file), example.includes("import ") ? example : `export {}\n${example}`)
    return [file]
  })
