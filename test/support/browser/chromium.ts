import { existsSync, readFileSync } from "node:fs"
import path from "node:path"
import type { Page } from "playwright-core"
import { repositoryRoot } from "../server-process.ts"

/** The web app's build and the browser the tests drive (docs/web-app.md "Tests"). */

export const webRoot = path.join(repositoryRoot, "packages/web")
export const appOutput = path.join(repositoryRoot, "packages/server/app")

/** Debian's Chromium (installed by `.ci/run`); CHROMIUM_PATH overrides. */
export const chromiumPath = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium"
export const hasChromium = existsSync(chromiumPath)

/**
 * Builds the app with Vite when its output is missing or older than its sources (about two
 * seconds), as `pnpm start` does (packages/web/scripts/build-if-stale.mjs); nothing built is
 * checked in. Returns the milliseconds the build took (0 when none ran).
 */
export const ensureBuilt = async (): Promise<number> => {
  const script = await import("../../../packages/web/scripts/build-if-stale.mjs")
  return script.buildIfStale()
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
