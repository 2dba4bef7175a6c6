import { readdirSync } from "node:fs"
import { join, posix } from "node:path"
import ts from "typescript"
import { describe, it } from "vitest"
import { expectNone, lineOf, readSource, repoRoot } from "./Sources.ts"

/**
 * Tests and benchmarks use the packages as their users do: by name, through the subpaths each
 * package.json `exports` (`@ledger/engine/rules`, `@ledger/server/adapters`, ...), never by a path
 * into a package's `src/`. A test of a detail no user should see lives beside its package instead
 * (`packages/<name>/test/`, which may import its own `src/`).
 */

/** Every TypeScript and JavaScript module under a folder, repository-relative. */
const modulesUnder = (folder: string): Array<string> =>
  (readdirSync(join(repoRoot, folder), { recursive: true, encoding: "utf8" }) as Array<string>)
    .map((entry) => posix.join(folder, entry.split("\\").join("/")))
    .filter((file) => /\.(ts|mts|js|mjs)$/.test(file) && !file.endsWith(".d.ts") && !file.split("/").includes("node_modules"))
    .sort()

const intoSources = /^packages\/[^/]+\/src(\/|$)/

describe("tests and benchmarks import packages by name", () => {
  it("no file under test/ or bench/ imports a package's src/ by a relative path", () => {
    const found: Array<string> = []
    for (const file of [...modulesUnder("test"), ...modulesUnder("bench")]) {
      const text = readSource(file)
      for (const reference of ts.preProcessFile(text, true, true).importedFiles) {
        const specifier = reference.fileName
        if (!specifier.startsWith(".")) continue
        const target = posix.normalize(posix.join(posix.dirname(file), specifier))
        if (intoSources.test(target)) found.push(`  ${file}:${lineOf(text, reference.pos)} imports ${specifier}`)
      }
    }
    expectNone(found, "imports into a package's src/ (import it by name, e.g. @ledger/engine/rules, or move the test to packages/<name>/test/):")
  })
})
