import { spawnSync } from "node:child_process"
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs"
import { createRequire } from "node:module"
import { tmpdir } from "node:os"
import { dirname, join, resolve } from "node:path"
import { fileURLToPath } from "node:url"
import type { Options } from "tsup"

/**
 * The build every @ledger package shares (docs/decisions/0603-packaging.md): tsup bundles the
 * JavaScript (ESM) into dist/, and the TypeScript compiler writes one declaration file per source
 * file beside it. Declarations are not bundled: bundling them loses the type half of names that
 * are both a value and a type inside `export * as Namespace` re-exports (the Schema-plus-type
 * pattern every record uses), which breaks `Scope.Scope`, `Company.Company` and the like for
 * consumers. Sibling @ledger packages resolve to their built declarations, so packages build in
 * dependency order (`pnpm -r build` does).
 */

const workspaceRoot = dirname(fileURLToPath(import.meta.url))

export interface PackageBuild {
  /** The package folder (the config's own folder). */
  readonly directory: string
  /** Entries of the JavaScript bundle, relative to the package. */
  readonly entry: ReadonlyArray<string>
  readonly platform: "neutral" | "node"
  /** The entries whose declarations are emitted (with everything they import); default the JavaScript entries. */
  readonly declarations?: ReadonlyArray<string>
}

/** Compiles the declarations of `entries` into dist/, with sibling packages resolved to their dist. */
export const emitDeclarations = (directory: string, entries: ReadonlyArray<string>) => {
  const packages = join(directory, "..")
  const siblings = ["api", "client", "engine", "server", "testkit"]
    .filter((name) => existsSync(join(packages, name, "dist", "index.d.ts")) && resolve(packages, name) !== resolve(directory))
  // Each published entry point of a built sibling, as its tarball will expose it.
  const paths: Record<string, Array<string>> = {}
  for (const name of siblings) {
    const manifest = JSON.parse(readFileSync(join(packages, name, "package.json"), "utf8")) as {
      readonly publishConfig?: { readonly exports?: Record<string, { readonly types?: string }> }
    }
    for (const [subpath, target] of Object.entries(manifest.publishConfig?.exports ?? {})) {
      if (target.types !== undefined) paths[`@ledger/${name}${subpath.slice(1)}`] = [join(packages, name, target.types)]
    }
  }
  const scratch = mkdtempSync(join(tmpdir(), "ledger-declarations-"))
  const config = join(scratch, "tsconfig.json")
  writeFileSync(
    config,
    JSON.stringify({
      extends: join(workspaceRoot, "tsconfig.base.json"),
      compilerOptions: {
        noEmit: false,
        declaration: true,
        emitDeclarationOnly: true,
        declarationMap: false,
        outDir: join(directory, "dist"),
        rootDir: join(directory, "src"),
        paths,
        typeRoots: [join(workspaceRoot, "node_modules", "@types")]
      },
      files: entries.map((entry) => join(directory, entry))
    })
  )
  try {
    const tsc = createRequire(join(workspaceRoot, "package.json")).resolve("typescript/bin/tsc")
    const result = spawnSync(process.execPath, [tsc, "-p", config], { cwd: directory, encoding: "utf8" })
    if (result.status !== 0) throw new Error(`Declarations of ${directory} failed:\n${result.stdout}${result.stderr}`)
  } finally {
    rmSync(scratch, { recursive: true, force: true })
  }
}

export const packageBuild = (build: PackageBuild): Options => ({
  entry: [...build.entry],
  format: ["esm"],
  platform: build.platform,
  target: build.platform === "node" ? "node24" : "es2023",
  dts: false,
  sourcemap: true,
  clean: true,
  // Shared chunks keep one copy of each module when a package has several entries.
  splitting: true,
  treeshake: false,
  onSuccess: async () => emitDeclarations(build.directory, build.declarations ?? build.entry)
})
