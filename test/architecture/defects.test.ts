import ts from "typescript"
import { describe, expect, it } from "vitest"
import { packageFolders, readSource, typeScriptFiles } from "./Sources.ts"

/**
 * `Effect.orDie` turns a failure into a defect: right for a programmer's error (a row the engine
 * wrote and cannot read back), wrong for an operating error (the database went away, a
 * serialization failure), which belongs in the error channel where a retry or an answer can see
 * it (issue 42 item 2). The packages' sources hold `orDieMax` of them today; the bound only goes
 * down. A store that moves its statements to typed errors lowers it in the same change.
 */
const orDieMax = 796

/** Every `orDie` the code names (`Effect.orDie`, `.pipe(Effect.orDie)`, `Effect.orDie(x)`), from the syntax tree. */
const orDiesOf = (file: string, text: string): number => {
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, false, file.endsWith(".tsx") ? ts.ScriptKind.TSX : ts.ScriptKind.TS)
  let count = 0
  const visit = (node: ts.Node): void => {
    if (ts.isIdentifier(node) && node.text === "orDie") count++
    ts.forEachChild(node, visit)
  }
  visit(source)
  return count
}

describe("defects", () => {
  it(`the packages' sources turn failures into defects at most ${orDieMax} times`, () => {
    const counts = packageFolders().flatMap((folder) => typeScriptFiles(`${folder}/src`))
      .map((file) => ({ file, count: orDiesOf(file, readSource(file)) }))
      .filter((entry) => entry.count > 0)
    const total = counts.reduce((sum, entry) => sum + entry.count, 0)
    const worst = counts.sort((a, b) => b.count - a.count).slice(0, 10).map((entry) => `  ${entry.file}: ${entry.count}`)
    expect(total, `orDie appears ${total} times, past the bound of ${orDieMax}: keep database failures in the error channel. Most:\n${worst.join("\n")}`)
      .toBeLessThanOrEqual(orDieMax)
  })

  it("counts orDie in code, not in comments", () => {
    expect(orDiesOf("x.ts", "// Effect.orDie in prose\nconst a = b.pipe(Effect.orDie)\nconst c = Effect.orDie(d)")).toBe(2)
  })
})
