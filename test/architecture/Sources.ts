import { existsSync, readdirSync, readFileSync, statSync } from "node:fs"
import { dirname, join, relative, resolve, sep } from "node:path"
import { fileURLToPath } from "node:url"
import ts from "typescript"
import { expect } from "vitest"

/**
 * The repository's TypeScript files and the arrows between them, read with TypeScript's own
 * parser (no regex over text), for the architecture tests. Paths are repository-relative with `/`.
 */

export const repoRoot = resolve(fileURLToPath(new URL("../../", import.meta.url)))

/** Folders never walked: installed packages, build output, generated bundles and code (a test checks each is fresh). */
const skippedFolders = new Set(["node_modules", "dist", "coverage", ".turbo", "generated"])

const toRepo = (absolute: string): string => relative(repoRoot, absolute).split(sep).join("/")

/** Every `.ts` and `.tsx` file under `folder` (repository-relative), sorted. */
export const typeScriptFiles = (folder: string): Array<string> => {
  const files: Array<string> = []
  const walk = (absolute: string) => {
    for (const entry of readdirSync(absolute, { withFileTypes: true })) {
      if (entry.isDirectory()) {
        if (!skippedFolders.has(entry.name) && !entry.name.startsWith(".")) walk(join(absolute, entry.name))
      } else if ((entry.name.endsWith(".ts") || entry.name.endsWith(".tsx")) && !entry.name.endsWith(".d.ts")) {
        files.push(toRepo(join(absolute, entry.name)))
      }
    }
  }
  const start = join(repoRoot, folder)
  if (existsSync(start) && statSync(start).isDirectory()) walk(start)
  return files.sort()
}

/** The workspace packages' folders: `packages/api`, `packages/engine`, ... */
export const packageFolders = (): Array<string> =>
  readdirSync(join(repoRoot, "packages"), { withFileTypes: true })
    .filter((entry) => entry.isDirectory() && existsSync(join(repoRoot, "packages", entry.name, "package.json")))
    .map((entry) => `packages/${entry.name}`)
    .sort()

export const readSource = (file: string): string => readFileSync(join(repoRoot, file), "utf8")

/** `@ledger/engine/ports` -> `packages/engine/src/ports/index.ts`, from each package's `exports`. */
const packageEntries = (): Map<string, string> => {
  const entries = new Map<string, string>()
  for (const folder of packageFolders()) {
    const manifest = JSON.parse(readSource(`${folder}/package.json`)) as {
      readonly name: string
      readonly exports?: string | Record<string, string | Record<string, string>>
    }
    const exports = typeof manifest.exports === "string" ? { ".": manifest.exports } : manifest.exports ?? {}
    for (const [subpath, target] of Object.entries(exports)) {
      const file = typeof target === "string" ? target : target.import ?? target.default
      if (file === undefined || !file.endsWith(".ts")) continue
      const specifier = subpath === "." ? manifest.name : `${manifest.name}/${subpath.replace(/^\.\//, "")}`
      entries.set(specifier, `${folder}/${file.replace(/^\.\//, "")}`)
    }
  }
  return entries
}

export interface Import {
  /** As written in the source. */
  readonly specifier: string
  /** The repository file it names, or null for an outside package or a node builtin. */
  readonly target: string | null
  /** 1-based line of the import in the importing file. */
  readonly line: number
}

const resolveRelative = (from: string, specifier: string): string | null => {
  const base = resolve(repoRoot, dirname(from), specifier)
  for (const candidate of [base, `${base}.ts`, `${base}.tsx`, join(base, "index.ts"), base.replace(/\.js$/, ".ts")]) {
    // A stylesheet the web app imports is a file with no imports of its own: an arrow that ends there.
    if (/\.(ts|tsx|mjs|css)$/.test(candidate) && existsSync(candidate) && statSync(candidate).isFile()) return toRepo(candidate)
  }
  return null
}

/** 1-based line of a character position. */
export const lineOf = (text: string, position: number): number => {
  let line = 1
  for (let at = text.indexOf("\n"); at !== -1 && at < position; at = text.indexOf("\n", at + 1)) line++
  return line
}

/** The module specifiers a file names, each with its position: every form the language has. */
const specifiersOf = (file: string, text: string): Array<{ readonly specifier: string; readonly position: number }> => {
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, false, file.endsWith(".tsx") ? ts.ScriptKind.TSX : ts.ScriptKind.TS)
  const found: Array<{ readonly specifier: string; readonly position: number }> = []
  const literal = (node: ts.Node | undefined) => {
    if (node !== undefined && ts.isStringLiteralLike(node)) found.push({ specifier: node.text, position: node.getStart(source) })
  }
  const visit = (node: ts.Node): void => {
    // `import ... from "x"`, `import "x"`, `export ... from "x"` and `export * as X from "x"`.
    if (ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) literal(node.moduleSpecifier)
    // `import X = require("x")`.
    else if (ts.isImportEqualsDeclaration(node) && ts.isExternalModuleReference(node.moduleReference)) literal(node.moduleReference.expression)
    // `import("x")` with a literal, as an expression.
    else if (ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword) literal(node.arguments[0])
    // `typeof import("x")` and `import("x").T` in types.
    else if (ts.isImportTypeNode(node) && ts.isLiteralTypeNode(node.argument)) literal(node.argument.literal)
    ts.forEachChild(node, visit)
  }
  visit(source)
  return found
}

/**
 * The imports of one file: static imports and every form of export from another module (`export *
 * as X from` included, which `ts.preProcessFile` does not report), `import type`, `import =
 * require()`, and `import()` of a literal in code or in types. Read from the syntax tree that
 * TypeScript's own parser builds.
 */
export const importsOf = (file: string, text: string, entries: ReadonlyMap<string, string>): Array<Import> =>
  specifiersOf(file, text).map(({ specifier, position }) => {
    const target = specifier.startsWith(".") ? resolveRelative(file, specifier) : entries.get(specifier) ?? null
    return { specifier, target, line: lineOf(text, position) }
  })

export interface ImportGraph {
  readonly files: ReadonlyArray<string>
  readonly imports: ReadonlyMap<string, ReadonlyArray<Import>>
}

/** The import graph of the given files; arrows to files outside the set are kept, as targets. */
export const importGraph = (files: ReadonlyArray<string>): ImportGraph => {
  const entries = packageEntries()
  const imports = new Map<string, ReadonlyArray<Import>>()
  for (const file of files) imports.set(file, importsOf(file, readSource(file), entries))
  return { files, imports }
}

/**
 * Strongly connected components of more than one node, or of one node with an arrow to itself
 * (Tarjan's algorithm, iterative so that a deep graph cannot overflow the stack).
 */
export const cycles = (nodes: ReadonlyArray<string>, arrows: ReadonlyMap<string, ReadonlySet<string>>): Array<Array<string>> => {
  const index = new Map<string, number>()
  const lowLink = new Map<string, number>()
  const onStack = new Set<string>()
  const stack: Array<string> = []
  const components: Array<Array<string>> = []
  let next = 0
  for (const root of nodes) {
    if (index.has(root)) continue
    const work: Array<{ node: string; successors: Array<string>; position: number }> = []
    const enter = (node: string) => {
      index.set(node, next)
      lowLink.set(node, next)
      next++
      stack.push(node)
      onStack.add(node)
      work.push({ node, successors: [...(arrows.get(node) ?? [])].sort(), position: 0 })
    }
    enter(root)
    while (work.length > 0) {
      const frame = work[work.length - 1]!
      if (frame.position < frame.successors.length) {
        const successor = frame.successors[frame.position++]!
        if (!index.has(successor)) enter(successor)
        else if (onStack.has(successor)) lowLink.set(frame.node, Math.min(lowLink.get(frame.node)!, index.get(successor)!))
        continue
      }
      work.pop()
      if (work.length > 0) {
        const parent = work[work.length - 1]!.node
        lowLink.set(parent, Math.min(lowLink.get(parent)!, lowLink.get(frame.node)!))
      }
      if (lowLink.get(frame.node) === index.get(frame.node)) {
        const component: Array<string> = []
        let member: string
        do {
          member = stack.pop()!
          onStack.delete(member)
          component.push(member)
        } while (member !== frame.node)
        const selfArrow = arrows.get(frame.node)?.has(frame.node) ?? false
        if (component.length > 1 || selfArrow) components.push(component.sort())
      }
    }
  }
  return components.sort((a, b) => a[0]!.localeCompare(b[0]!))
}

/** One shortest path of arrows from `from` back to `from` inside a component, to show a cycle. */
export const cycleThrough = (from: string, arrows: ReadonlyMap<string, ReadonlySet<string>>, within: ReadonlySet<string>): Array<string> => {
  const previous = new Map<string, string>()
  const queue = [from]
  for (let head = 0; head < queue.length; head++) {
    const node = queue[head]!
    for (const successor of [...(arrows.get(node) ?? [])].sort()) {
      if (!within.has(successor)) continue
      if (successor === from) {
        const path = [node]
        while (path[0] !== from) path.unshift(previous.get(path[0]!)!)
        return [...path, from]
      }
      if (!previous.has(successor)) {
        previous.set(successor, node)
        queue.push(successor)
      }
    }
  }
  return [from]
}

/** Fails listing every finding under `title`, once (a diff of two lists would print them twice). */
export const expectNone = (found: ReadonlyArray<string>, title: string): void => {
  if (found.length > 0) expect.fail(`${title}\n${found.join("\n")}`)
}
