import { execFile } from "node:child_process"
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync } from "node:fs"
import path from "node:path"
import { promisify } from "node:util"
import type { Page } from "playwright-core"
import { repositoryRoot } from "../server-process.ts"

/** The web app's build and the browser the tests drive (docs/web-app.md "Tests"). */

export const webRoot = path.join(repositoryRoot, "packages/web")
export const appOutput = path.join(repositoryRoot, "packages/server/app")

/** Debian's Chromium (installed by `.ci/run`); CHROMIUM_PATH overrides. */
export const chromiumPath = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium"
export const hasChromium = existsSync(chromiumPath)

const newestSource = (): number => {
  let newest = 0
  for (const name of [...readdirSync(path.join(webRoot, "src"), { recursive: true, encoding: "utf8" }).map((entry) => path.join("src", entry)), "index.html", "vite.config.ts"]) {
    const stats = statSync(path.join(webRoot, name))
    if (stats.isFile()) newest = Math.max(newest, stats.mtimeMs)
  }
  return newest
}

const isFresh = () => {
  const index = path.join(appOutput, "index.html")
  return existsSync(index) && statSync(index).mtimeMs >= newestSource()
}

const lock = path.join(repositoryRoot, "packages/server/.app-build.lock")
const sleep = (milliseconds: number) => new Promise((resolve) => setTimeout(resolve, milliseconds))

/** Runs `work` holding a lock folder, so test files building at once (in parallel workers) take turns. */
const withLock = async <A>(work: () => Promise<A>): Promise<A> => {
  for (;;) {
    try {
      mkdirSync(lock)
      break
    } catch {
      // A lock left by a killed run is taken over after a minute.
      if (existsSync(lock) && Date.now() - statSync(lock).mtimeMs > 60_000) rmSync(lock, { recursive: true, force: true })
      await sleep(100)
    }
  }
  try {
    return await work()
  } finally {
    rmSync(lock, { recursive: true, force: true })
  }
}

/**
 * Builds the app with Vite when its output is missing or older than its sources (about two
 * seconds); nothing built is checked in. Returns the milliseconds the build took (0 when none ran).
 */
export const ensureBuilt = async (): Promise<number> => {
  if (isFresh()) return 0
  return withLock(async () => {
    if (isFresh()) return 0
    const started = Date.now()
    await promisify(execFile)(process.execPath, [path.join(webRoot, "node_modules/vite/bin/vite.js"), "build", "--logLevel", "warn"], {
      cwd: webRoot,
      // Vitest runs with NODE_ENV=test: the build must be the production one.
      env: { ...process.env, NODE_ENV: "production" }
    })
    return Date.now() - started
  })
}

/** Where screenshots of each screen are kept (a CI artifact). */
export const artifacts = path.join(repositoryRoot, "test/web/.artifacts")

const axeSource = () => readFileSync(path.join(repositoryRoot, "node_modules/axe-core/axe.min.js"), "utf8")

/** What an axe-core violation is reported as: the rule, its impact and the elements it names. */
export interface AxeViolation {
  readonly id: string
  readonly impact: string | null
  readonly targets: ReadonlyArray<string>
}

/**
 * The WCAG 2 A/AA violations axe-core finds on the page as it is now. The source is evaluated
 * through the DevTools protocol, not as an inline script, so the app's Content-Security-Policy
 * stays in force while it runs.
 */
export const axeViolations = async (page: Page): Promise<ReadonlyArray<AxeViolation>> => {
  await page.evaluate(axeSource())
  return page.evaluate(async () => {
    const axe = (window as unknown as { axe: { run: (context: Document, options: unknown) => Promise<any> } }).axe
    const results = await axe.run(document, { runOnly: { type: "tag", values: ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"] }, resultTypes: ["violations"] })
    return (results.violations as Array<any>).map((violation) => ({
      id: String(violation.id),
      impact: violation.impact ?? null,
      targets: (violation.nodes as Array<any>).slice(0, 5).map((node) => JSON.stringify(node.target))
    }))
  })
}
