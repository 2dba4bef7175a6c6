import { builtinModules } from "node:module"
import ts from "typescript"
import { describe, expect, it } from "vitest"
import { expectNone, readSource, typeScriptFiles } from "./Sources.ts"

/**
 * The engine runs anywhere JavaScript does (issue 42 item 4): the testkit in a browser, an edge
 * function, a worker. So its sources name no Node API: no `node:` module or Node builtin imported,
 * no `process`, no `Buffer`, no `require`, no `__dirname`. Compression goes through fflate, base64
 * through the web's `atob` or @scure/base; what must touch a file system is a port the server
 * provides. What breaks the rule today is listed with its reason and may not grow.
 */

const nodeBuiltins = new Set(builtinModules.flatMap((name) => [name, `node:${name}`]))

/** Node globals the engine may not name as values. */
const nodeGlobals = new Set(["process", "Buffer", "require", "__dirname", "__filename", "module", "global", "setImmediate"])

const allowed: ReadonlyArray<{ readonly file: string; readonly name: string; readonly reason: string }> = [
  {
    file: "packages/engine/src/kernel/PdfFonts.ts",
    name: "process",
    reason: "reads the font files beside the package with process.getBuiltinModule; to become a port the server and testkit provide"
  }
]

interface Use {
  readonly file: string
  readonly line: number
  readonly name: string
}

/** The Node modules a file imports and the Node globals it names as values. */
const nodeUses = (file: string, text: string): Array<Use> => {
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true, ts.ScriptKind.TS)
  const found: Array<Use> = []
  const at = (node: ts.Node, name: string) => found.push({ file, name, line: source.getLineAndCharacterOfPosition(node.getStart(source)).line + 1 })
  const visit = (node: ts.Node): void => {
    if ((ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) && node.moduleSpecifier !== undefined &&
      ts.isStringLiteral(node.moduleSpecifier) && nodeBuiltins.has(node.moduleSpecifier.text)) {
      at(node, node.moduleSpecifier.text)
    } else if (ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword) {
      const argument = node.arguments[0]
      if (argument !== undefined && ts.isStringLiteral(argument) && nodeBuiltins.has(argument.text)) at(node, argument.text)
    } else if (ts.isIdentifier(node) && nodeGlobals.has(node.text) && isValueReference(node)) {
      at(node, node.text)
    }
    ts.forEachChild(node, visit)
  }
  visit(source)
  return found
}

/** An identifier read as a value: not a property name, a declaration's own name or a type. */
const isValueReference = (node: ts.Identifier): boolean => {
  const parent = node.parent
  if (ts.isPropertyAccessExpression(parent) && parent.name === node) return false
  if ((ts.isPropertyAssignment(parent) || ts.isPropertyDeclaration(parent) || ts.isPropertySignature(parent) ||
    ts.isMethodDeclaration(parent) || ts.isBindingElement(parent) || ts.isParameter(parent) ||
    ts.isVariableDeclaration(parent) || ts.isFunctionDeclaration(parent)) && parent.name === node) return false
  if (ts.isTypeReferenceNode(parent) || ts.isQualifiedName(parent) || ts.isImportSpecifier(parent) || ts.isExportSpecifier(parent)) return false
  return true
}

describe("the engine names no Node API", () => {
  it("finds a Node module, Buffer and process in code, not in prose or property names", () => {
    const uses = nodeUses("x.ts", [
      "import { inflateSync } from \"node:zlib\"",
      "// Buffer in a comment",
      "const a = Buffer.from(\"x\")",
      "const b = { process: 1 }.process",
      "const c = process.env.X"
    ].join("\n"))
    expect(uses.map((use) => `${use.line} ${use.name}`)).toEqual(["1 node:zlib", "3 Buffer", "5 process"])
  })

  it("in its sources", () => {
    const found = typeScriptFiles("packages/engine/src")
      .flatMap((file) => nodeUses(file, readSource(file)))
      .filter((use) => !allowed.some((allow) => allow.file === use.file && allow.name === use.name))
      .map((use) => `  ${use.file}:${use.line} ${use.name}`)
    expectNone(found, "Node APIs in the engine (use a port, fflate, atob or @scure/base):")
  })
})
