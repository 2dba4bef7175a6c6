import { readdirSync, readFileSync } from "node:fs"
import { join, relative } from "node:path"
import { describe, expect, it } from "vitest"

/**
 * A company is made in one place (administration's createCompanyWithOwner), which firms call for
 * their clients: a second `INSERT INTO companies` would let the two drift apart again (issue 42).
 */

const sources = join(import.meta.dirname, "../src")

const files = (readdirSync(sources, { recursive: true, encoding: "utf8" }) as Array<string>)
  .filter((file) => file.endsWith(".ts") && !file.startsWith("store/migrations"))

describe("company creation", () => {
  it("only administration/Companies.ts inserts into companies", () => {
    const inserting = files.filter((file) => /INSERT\s+INTO\s+companies\b/iu.test(readFileSync(join(sources, file), "utf8")))
    expect(inserting.map((file) => relative(".", file).split("\\").join("/"))).toStrictEqual(["administration/Companies.ts"])
  })
})
