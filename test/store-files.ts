import { existsSync, globSync, readFileSync } from "node:fs"
import { dirname, relative, resolve } from "node:path"

/**
 * The test files whose outcome depends on the store: those that reach `test/support/app.ts` or
 * `test/support/server-process.ts` through their relative imports (the two that open PostgreSQL
 * when DATABASE_URL is set) or read DATABASE_URL themselves. CI's PostgreSQL pass runs only these
 * (`LEDGER_TEST_STORE_ONLY=1`, see .ci/run): a rule's property test or a bundle-size check runs
 * the same code whatever DATABASE_URL says, and the PGlite pass has already run it.
 */

const storeOpeners = ["test/support/app.ts", "test/support/server-process.ts"]

const relativeImports = /(?:from|import)\s*\(?\s*["'](\.{1,2}\/[^"']+)["']/g

const resolveImport = (from: string, specifier: string): string | undefined => {
  const base = resolve(dirname(from), specifier)
  return [base, `${base}.ts`, base.replace(/\.js$/, ".ts"), `${base}/index.ts`].find((candidate) => candidate.endsWith(".ts") && existsSync(candidate))
}

export const storeTestFiles = (root: string, include: ReadonlyArray<string>): Array<string> => {
  const openers = new Set(storeOpeners.map((file) => resolve(root, file)))
  const known = new Map<string, boolean>()
  const reachesStore = (file: string, visiting: Set<string>): boolean => {
    const cached = known.get(file)
    if (cached !== undefined) return cached
    if (openers.has(file)) return true
    if (visiting.has(file)) return false
    visiting.add(file)
    const text = readFileSync(file, "utf8")
    let found = text.includes("DATABASE_URL")
    for (const match of text.matchAll(relativeImports)) {
      if (found) break
      const target = resolveImport(file, match[1]!)
      if (target !== undefined) found = reachesStore(target, visiting)
    }
    known.set(file, found)
    return found
  }
  return globSync([...include], { cwd: root })
    .map((file) => resolve(root, file))
    .filter((file) => reachesStore(file, new Set()))
    .map((file) => relative(root, file))
    .sort()
}
