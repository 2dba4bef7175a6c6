#!/usr/bin/env node
// Builds the web app into packages/server/app when that build is missing or older than the app's
// sources, so the README's `pnpm install && pnpm start` serves /app/ on a fresh clone (issue 38
// item 14). Nothing built is checked in; the server's tarball ships app/ built. A build takes a few
// seconds; an up-to-date build costs one directory walk. Used by `pnpm start` and by the browser
// tests (test/support/browser/chromium.ts), with a lock folder so parallel callers take turns.
import { execFile } from "node:child_process"
import { existsSync, mkdirSync, readdirSync, rmSync, statSync } from "node:fs"
import path from "node:path"
import { fileURLToPath } from "node:url"
import { promisify } from "node:util"

export const webRoot = fileURLToPath(new URL("..", import.meta.url))
export const appOutput = path.join(webRoot, "..", "server", "app")
const lock = path.join(webRoot, "..", "server", ".app-build.lock")
/** A lock older than this was left by a killed build: it is taken over. */
const staleLock_ms = 60_000

const newestSource_ms = () => {
  let newest = 0
  const names = [
    ...readdirSync(path.join(webRoot, "src"), { recursive: true, encoding: "utf8" }).map((entry) => path.join("src", entry)),
    "index.html",
    "vite.config.ts"
  ]
  for (const name of names) {
    const stats = statSync(path.join(webRoot, name))
    if (stats.isFile()) newest = Math.max(newest, stats.mtimeMs)
  }
  return newest
}

export const isFresh = () => {
  const index = path.join(appOutput, "index.html")
  return existsSync(index) && statSync(index).mtimeMs >= newestSource_ms()
}

const sleep = (milliseconds) => new Promise((resolve) => setTimeout(resolve, milliseconds))

const withLock = async (work) => {
  for (;;) {
    try {
      mkdirSync(lock)
      break
    } catch {
      if (existsSync(lock) && Date.now() - statSync(lock).mtimeMs > staleLock_ms) rmSync(lock, { recursive: true, force: true })
      await sleep(100)
    }
  }
  try {
    return await work()
  } finally {
    rmSync(lock, { recursive: true, force: true })
  }
}

/** Builds when stale; answers the milliseconds the build took (0 when none ran). */
export const buildIfStale = async () => {
  if (isFresh()) return 0
  return withLock(async () => {
    if (isFresh()) return 0
    const started = Date.now()
    await promisify(execFile)(process.execPath, [path.join(webRoot, "node_modules/vite/bin/vite.js"), "build", "--logLevel", "warn"], {
      cwd: webRoot,
      // Under a test runner NODE_ENV is "test": the app is always the production build.
      env: { ...process.env, NODE_ENV: "production" }
    })
    return Date.now() - started
  })
}

if (process.argv[1] !== undefined && fileURLToPath(import.meta.url) === path.resolve(process.argv[1])) {
  const took_ms = await buildIfStale()
  if (took_ms > 0) console.error(`web app built into packages/server/app in ${took_ms} ms`)
}
