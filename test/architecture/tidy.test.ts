import { dirname } from "node:path"
import ts from "typescript"
import { describe, it } from "vitest"
import { allowedFiles, allowedFolders, allowedFunctions } from "./allow-list.ts"
import { lineOf, packageFolders, readSource, typeScriptFiles , expectNone } from "./Sources.ts"

/**
 * TigerBeetle's tidy, for this repository: limits that keep every file, function and folder small
 * enough to read in one sitting. Past a limit is a sign to split; what must break one today is in
 * allow-list.ts with its reason, and may not grow past the size it has there.
 */

/** A file past this is two files. */
const fileLinesMax = 300
/** A function past this is two functions (TigerBeetle's own limit). */
const functionLinesMax = 70
/** A folder past this many files has a folder inside it waiting to be named. */
const folderFilesMax = 15

/**
 * Migrations are SQL text in a TypeScript string: their length is the schema's, and a migration
 * is never edited once released, so splitting one would only scatter a single statement list.
 */
const exemptByRule = (file: string): boolean => file.startsWith("packages/engine/src/store/migrations/")

const sourceFiles = packageFolders().flatMap((folder) => typeScriptFiles(`${folder}/src`))
const checkedFiles = [
  ...sourceFiles,
  ...packageFolders().flatMap((folder) => typeScriptFiles(`${folder}/test`)),
  ...typeScriptFiles("test"),
  ...typeScriptFiles("bench")
].filter((file) => !exemptByRule(file))

const parse = (file: string): ts.SourceFile =>
  ts.createSourceFile(file, readSource(file), ts.ScriptTarget.Latest, true, file.endsWith(".tsx") ? ts.ScriptKind.TSX : ts.ScriptKind.TS)

const lineCount = (text: string): number => text.replace(/\n$/, "").split("\n").length

const isFunction = (node: ts.Node): node is ts.FunctionLikeDeclaration =>
  ts.isFunctionDeclaration(node) || ts.isFunctionExpression(node) || ts.isArrowFunction(node) || ts.isMethodDeclaration(node) ||
  ts.isConstructorDeclaration(node) || ts.isGetAccessorDeclaration(node) || ts.isSetAccessorDeclaration(node)

/** `describe(...)`, `describe.skipIf(x)(...)`, `it.layer(l)(...)`: a container of tests, not a function to split. */
const isTestContainer = (node: ts.Node): boolean => {
  const call = node.parent
  if (call === undefined || !ts.isCallExpression(call) || !call.arguments.includes(node as ts.Expression)) return false
  const callee = call.expression.getText()
  return /^(describe|it\.layer|layer)\b/.test(callee)
}

const nameOf = (node: ts.Node): string | null => {
  const named = node as { readonly name?: ts.Node }
  if (named.name !== undefined && (ts.isIdentifier(named.name) || ts.isStringLiteral(named.name) || ts.isPrivateIdentifier(named.name))) {
    return named.name.text
  }
  if (ts.isConstructorDeclaration(node)) return "constructor"
  return null
}

/**
 * A name to report and to allow-list a function by: its own or its declaration's name, with the
 * names of the functions around it, and the call it is passed to when it has none
 * (`dispatch > Effect.gen`).
 */
const functionName = (node: ts.FunctionLikeDeclaration): string => {
  const parts: Array<string> = []
  let current: ts.Node | undefined = node
  while (current !== undefined && !ts.isSourceFile(current)) {
    const own = nameOf(current)
    if (own !== null && (isFunction(current) || ts.isVariableDeclaration(current) || ts.isPropertyAssignment(current) ||
      ts.isClassDeclaration(current) || ts.isPropertyDeclaration(current))) {
      parts.unshift(own)
    } else if (isFunction(current) && current.parent !== undefined && ts.isCallExpression(current.parent)) {
      const callee = current.parent.expression.getText().replace(/\s+/g, "")
      parts.unshift(callee.length > 40 ? `${callee.slice(0, 40)}...` : callee)
    }
    current = current.parent
  }
  return parts.length === 0 ? "<anonymous>" : parts.join(" > ")
}

interface Measured {
  readonly file: string
  readonly name: string
  readonly line: number
  readonly lines: number
}

/** The functions directly inside `node`'s body (not those inside them). */
const innerFunctions = (node: ts.Node): Array<ts.FunctionLikeDeclaration> => {
  const found: Array<ts.FunctionLikeDeclaration> = []
  const visit = (child: ts.Node) => {
    if (isFunction(child)) found.push(child)
    else ts.forEachChild(child, visit)
  }
  ts.forEachChild(node, visit)
  return found
}

const linesOf = (node: ts.Node, source: ts.SourceFile): number =>
  source.getLineAndCharacterOfPosition(node.getEnd()).line - source.getLineAndCharacterOfPosition(node.getStart(source)).line + 1

/**
 * `(input) => Effect.gen(function*() { ... })` or `(...) => Layer.effect(Tag)(Effect.gen(...))`:
 * an arrow whose expression only hands its work to the one function it wraps, which is measured
 * itself; counting both would report one function twice.
 */
const onlyWraps = (node: ts.FunctionLikeDeclaration, source: ts.SourceFile): boolean => {
  if (!ts.isArrowFunction(node) || ts.isBlock(node.body)) return false
  const inner = innerFunctions(node.body)
  return inner.length === 1 && linesOf(node, source) - linesOf(inner[0]!, source) <= 3
}

const functionsOf = (file: string): Array<Measured> => {
  const source = parse(file)
  const found: Array<Measured> = []
  const visit = (node: ts.Node) => {
    if (isFunction(node) && node.body !== undefined && !isTestContainer(node) && !onlyWraps(node, source)) {
      const line = source.getLineAndCharacterOfPosition(node.getStart(source)).line + 1
      found.push({ file, name: functionName(node), line, lines: linesOf(node, source) })
    }
    ts.forEachChild(node, visit)
  }
  visit(source)
  return found
}

/** Past the limit and not allowed, or allowed but grown past its allowance. */
const overLimit = <Allowance extends { readonly reason: string }>(
  size: number,
  limit: number,
  allowance: Allowance | undefined,
  maxOf: (allowance: Allowance) => number
): boolean => size > limit && (allowance === undefined || size > maxOf(allowance))

describe("tidy", () => {
  it(`files are at most ${fileLinesMax} lines`, () => {
    const found = checkedFiles.flatMap((file) => {
      const lines = lineCount(readSource(file))
      const allowance = allowedFiles.find((allow) => allow.file === file)
      return overLimit(lines, fileLinesMax, allowance, (allow) => allow.linesMax) ? [`  ${file}: ${lines} lines`] : []
    })
    expectNone(found, `files past ${fileLinesMax} lines (split them, or add them to allow-list.ts with a reason):`)
  })

  it(`functions are at most ${functionLinesMax} lines`, () => {
    const found = checkedFiles.flatMap((file) =>
      functionsOf(file).flatMap((measured) => {
        const allowance = allowedFunctions.find((allow) => allow.file === file && allow.name === measured.name)
        return overLimit(measured.lines, functionLinesMax, allowance, (allow) => allow.linesMax)
          ? [`  ${file}:${measured.line} ${measured.name}: ${measured.lines} lines`]
          : []
      })
    )
    expectNone(found, `functions past ${functionLinesMax} lines (split them, or allow-list them with a reason):`)
    // Parses every file with parent links: about 4 s alone, over a minute on a machine running other suites.
  }, 300_000)

  it(`folders hold at most ${folderFilesMax} files`, () => {
    const counts = new Map<string, number>()
    for (const file of checkedFiles) counts.set(dirname(file), (counts.get(dirname(file)) ?? 0) + 1)
    const found = [...counts].flatMap(([folder, files]) => {
      const allowance = allowedFolders.find((allow) => allow.folder === folder)
      return overLimit(files, folderFilesMax, allowance, (allow) => allow.filesMax) ? [`  ${folder}: ${files} files`] : []
    })
    expectNone(found, `folders past ${folderFilesMax} files (name the folder inside them, or allow-list them):`)
  })

  it("test files are named in kebab-case after what they test: test/<area>/<resource>.test.ts", () => {
    const found = checkedFiles.filter((file) => file.endsWith(".test.ts") && !/^[a-z0-9]+(-[a-z0-9]+)*\.test\.ts$/.test(file.split("/").at(-1)!))
      .map((file) => `  ${file}`)
    expectNone(found, "test files not in kebab-case:")
  })

  it("the allow-list names only what exists and still breaks a limit", () => {
    const stale = [
      ...allowedFiles.filter((allow) => !checkedFiles.includes(allow.file) || lineCount(readSource(allow.file)) <= fileLinesMax)
        .map((allow) => `  file ${allow.file}`),
      ...allowedFunctions.filter((allow) =>
        !checkedFiles.includes(allow.file) ||
        !functionsOf(allow.file).some((measured) => measured.name === allow.name && measured.lines > functionLinesMax)
      ).map((allow) => `  function ${allow.file} ${allow.name}`),
      ...allowedFolders.filter((allow) => checkedFiles.filter((file) => dirname(file) === allow.folder).length <= folderFilesMax)
        .map((allow) => `  folder ${allow.folder}`)
    ]
    expectNone(stale, `allow-list entries no longer needed (remove them):`)
  })
})

/**
 * The request's company, key and actor ids are null where an operation has none; a handler that
 * needs one gets it from the company context resolved once, never by asserting it is there.
 */
const requestContextFields = new Set(["companyId", "keyId", "firmId", "agentModel", "agentRunId", "idempotencyKey"])

describe("no non-null assertions on request context", () => {
  it("packages' sources never write `request.companyId!` and the like", () => {
    const found = sourceFiles.flatMap((file) => {
      const source = parse(file)
      const hits: Array<string> = []
      const visit = (node: ts.Node) => {
        if (ts.isNonNullExpression(node) && ts.isPropertyAccessExpression(node.expression) &&
          requestContextFields.has(node.expression.name.text)) {
          hits.push(`  ${file}:${lineOf(source.text, node.getStart(source))} ${node.getText(source)}`)
        }
        ts.forEachChild(node, visit)
      }
      visit(source)
      return hits
    })
    expectNone(found, `non-null assertions on request context:`)
  })
})
