import { dirname } from "node:path"
import { describe, it } from "vitest"
import { allowedArrows } from "./allow-list.ts"
import { cycles, cycleThrough, type ImportGraph, importGraph, packageFolders, typeScriptFiles, expectNone } from "./Sources.ts"

/**
 * Zero import cycles, between files and between folders, and the arrows of the target shape:
 * ports <- kernel <- store <- pipeline <- areas <- Engine.ts (ADR 0008), an area reaching another only through
 * its `index.ts`, and `ledger/` (the books) importing no other area.
 *
 * `import type` counts as an arrow like any other: a type-only cycle is still two modules that
 * cannot be understood, moved or split apart, and the shape wants arrows down only. A type that
 * both sides need belongs in the lower module (or one both import), which is always possible.
 */

const sourceFiles = packageFolders().flatMap((folder) => typeScriptFiles(`${folder}/src`))
// The tests and their support modules: a support module in a cycle is as hard to change as source.
const testFiles = [...typeScriptFiles("test"), ...packageFolders().flatMap((folder) => typeScriptFiles(`${folder}/test`))]
const graph: ImportGraph = importGraph([...sourceFiles, ...testFiles])

const fileArrows = (): Map<string, Set<string>> => {
  const arrows = new Map<string, Set<string>>()
  for (const [file, imports] of graph.imports) {
    arrows.set(file, new Set(imports.flatMap((entry) => entry.target === null || entry.target === file ? [] : [entry.target])))
  }
  return arrows
}

/**
 * A file's node in the folder graph: its folder, except at a package's `src/` root. There the
 * entry points (index.ts, Engine.ts, Catalog.ts, Server.ts) sit beside the package's lowest
 * modules (api's Common.ts, server's EngineVersion.ts), so the root's files count one by one:
 * an area importing Common.ts while Catalog.ts imports the area is an arrow down and one up.
 */
const folderNodeOf = (file: string): string => {
  const folder = dirname(file)
  return /^packages\/[^/]+\/src$/.test(folder) ? file : folder
}

/** Folder -> folders its files import (a folder's own files are not an arrow). */
const folderArrows = (files: Map<string, Set<string>>): Map<string, Set<string>> => {
  const arrows = new Map<string, Set<string>>()
  for (const [file, targets] of files) {
    const from = folderNodeOf(file)
    const set = arrows.get(from) ?? new Set<string>()
    for (const target of targets) if (folderNodeOf(target) !== from) set.add(folderNodeOf(target))
    arrows.set(from, set)
  }
  return arrows
}

/** Each cycle as a list of its members, and one closed path through it with the lines that make it. */
const describeCycles = (arrows: Map<string, Set<string>>, why: (from: string, to: string) => string): Array<string> =>
  cycles([...arrows.keys()].sort(), arrows).map((component) => {
    const path = cycleThrough(component[0]!, arrows, new Set(component))
    const steps = path.slice(0, -1).map((from, index) => `    ${from} -> ${path[index + 1]}${why(from, path[index + 1]!)}`)
    return [`  cycle of ${component.length}: ${component.join(", ")}`, "  for example:", ...steps].join("\n")
  })

const importLine = (from: string, to: string): string => {
  const line = graph.imports.get(from)?.find((entry) => entry.target === to)?.line
  return line === undefined ? "" : ` (line ${line})`
}

/** For a folder arrow, the first file arrow behind it. */
const folderWhy = (from: string, to: string): string => {
  for (const [file, imports] of graph.imports) {
    if (folderNodeOf(file) !== from) continue
    const entry = imports.find((candidate) => candidate.target !== null && folderNodeOf(candidate.target) === to)
    if (entry !== undefined) return ` (${file}:${entry.line} imports ${entry.target})`
  }
  return ""
}

describe("import cycles", () => {
  it("no file imports itself through others", () => {
    const found = describeCycles(fileArrows(), importLine)
    expectNone(found, "import cycles between files:")
  })

  it("no folder imports itself through others", () => {
    const found = describeCycles(folderArrows(fileArrows()), folderWhy)
    expectNone(found, `import cycles between folders:`)
  })
})

// The engine's layers, bottom up. An area is any other folder directly under engine/src.
const engine = "packages/engine/src/"
const layers = ["ports", "kernel", "store", "pipeline"] as const

type Place =
  | { readonly kind: "root" }
  | { readonly kind: (typeof layers)[number] }
  | { readonly kind: "area"; readonly area: string }

const placeOf = (file: string): Place | null => {
  if (!file.startsWith(engine)) return null
  const parts = file.slice(engine.length).split("/")
  if (parts.length === 1) return { kind: "root" }
  const folder = parts[0]!
  return (layers as ReadonlyArray<string>).includes(folder) ? { kind: folder as (typeof layers)[number] } : { kind: "area", area: folder }
}

const describePlace = (place: Place): string => place.kind === "area" ? `area ${place.area}` : place.kind

/** Why `from` may not import `to`, or null when the arrow points the right way. */
const arrowRefusal = (fromFile: string, toFile: string): string | null => {
  const from = placeOf(fromFile)
  const to = placeOf(toFile)
  if (from === null || to === null) return null
  if (from.kind === to.kind && (from.kind !== "area" || to.kind !== "area" || from.area === to.area)) return null
  switch (from.kind) {
    // A port is the engine's edge to the outside world (randomness, mail, the bank aggregator): it
    // names nothing of the engine, so the kernel's handler types and secrets may name it.
    case "ports":
      return `ports import only ports, not ${describePlace(to)}`
    case "kernel":
      return to.kind === "ports" ? null : `kernel imports only kernel and ports, not ${describePlace(to)}`
    case "store":
      return to.kind === "kernel" || to.kind === "ports" ? null : `store imports only kernel, ports and store, not ${describePlace(to)}`
    case "pipeline":
      return to.kind === "area" || to.kind === "root" ? `pipeline imports no area and not the composition root, here ${describePlace(to)}` : null
    case "area":
      if (to.kind === "root") return "an area does not import the composition root (Engine.ts, index.ts)"
      if (to.kind !== "area") return null
      if (from.area === "ledger") return `ledger/ (the books) imports no other area, here ${to.area}`
      return toFile === `${engine}${to.area}/index.ts` ? null : `area ${from.area} reaches area ${to.area} only through ${to.area}/index.ts`
    case "root":
      return null
  }
}

/** A package reaches another by its name (`@ledger/api`), never by a path into its folder. */
const packageOf = (file: string): string | null => file.startsWith("packages/") ? file.split("/").slice(0, 2).join("/") : null

/** A test folder (test/<area>) imports its own files and test/support, never another's tests or helpers. */
const testFolderOf = (file: string): string | null => file.startsWith("test/") ? file.split("/").slice(0, 2).join("/") : null

const violations = (rule: (from: string, to: string, specifier: string) => string | null): Array<string> => {
  const found: Array<string> = []
  for (const [file, imports] of graph.imports) {
    for (const entry of imports) {
      if (entry.target === null) continue
      const refusal = rule(file, entry.target, entry.specifier)
      if (refusal === null) continue
      const allowed = allowedArrows.some((allow) => allow.from === file && allow.to === entry.target)
      if (!allowed) found.push(`  ${file}:${entry.line} imports ${entry.target}: ${refusal}`)
    }
  }
  return found
}

describe("arrows point down only", () => {
  it("the engine's layers: ports <- kernel <- store <- pipeline <- areas <- Engine.ts", () => {
    const found = violations(arrowRefusal)
    expectNone(found, `arrows against the engine's layers:`)
  })

  it("a package reaches another only by its name", () => {
    const found = violations((from, to, specifier) => {
      const owner = packageOf(from)
      return owner !== null && packageOf(to) !== owner && specifier.startsWith(".") ? `import ${packageOf(to)} by its name` : null
    })
    expectNone(found, `paths into another package:`)
  })

  it("tests import packages and test/support, never another test folder's files", () => {
    const found = violations((from, to) => {
      const folder = testFolderOf(from)
      const target = testFolderOf(to)
      if (folder === null || target === null || target === folder || target === "test/support") return null
      return `import shared helpers from test/support, not from ${target}`
    })
    expectNone(found, `tests importing another folder's tests:`)
  })

  it("every relative import names a file that exists", () => {
    const found: Array<string> = []
    for (const [file, imports] of graph.imports) {
      for (const entry of imports) if (entry.specifier.startsWith(".") && entry.target === null) found.push(`  ${file}:${entry.line} ${entry.specifier}`)
    }
    expectNone(found, `imports of missing files (the graph would miss their arrows):`)
  })
})
