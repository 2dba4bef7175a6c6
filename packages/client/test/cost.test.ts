import { describe, expect, it } from "vitest"
import { measureBundle, measureTypes } from "../scripts/measure.ts"

/**
 * What the SDK costs its users (docs/performance.md, "SDK cost"), held by the figures that do not
 * depend on the machine: the type-checker's instantiations of a 21-line consumer (578 k when the
 * types came from the Effect Schemas, about 5.5 k now) and the bytes of a browser bundle of the
 * Promise client (728 KB with Effect, about 42 KB now). Times and memory are printed, not asserted.
 */
describe("the SDK is light", () => {
  it("type-checks the consumer script cheaply, with createInvoice narrowed by its arguments", () => {
    const types = measureTypes()
    console.log(`sdk types: check ${types.checkSeconds} s, ${types.memoryMB} MB, ${types.instantiations} instantiations, ${types.types} types, ${types.files} files`)
    expect(types.errors).toBe("")
    expect(types.ok).toBe(true)
    expect(types.instantiations).toBeLessThan(50_000)
    // Neither Effect's declarations nor the contract's sources are part of the user's program.
    expect(types.files).toBeLessThan(150)
  }, 120_000)

  it("bundles the Promise client for a browser without Effect or the contract's schemas", () => {
    const bundle = measureBundle()
    console.log(`sdk bundle: ${bundle.bundleKB} KB minified`)
    expect(bundle.effectKB).toBe(0)
    expect(bundle.apiKB).toBe(0)
    expect(bundle.bundleKB).toBeLessThan(120)
  }, 120_000)
})
