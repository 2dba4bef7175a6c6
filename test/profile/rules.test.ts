import fc from "fast-check"
import { describe, expect, it } from "vitest"
import { ProfileRules } from "@ledger/engine/rules"

/** The profile's pure rules: WCAG contrast, colours, EINs and websites. */

const hex = fc.integer({ min: 0, max: 0xffffff }).map((n) => `#${n.toString(16).padStart(6, "0")}`)

describe("brand colour contrast (WCAG 2)", () => {
  it("matches the known ratios", () => {
    expect(ProfileRules.contrastOnWhite("#000000")).toBeCloseTo(21, 5)
    expect(ProfileRules.contrastOnWhite("#ffffff")).toBeCloseTo(1, 5)
    expect(ProfileRules.contrastOnWhite("#767676")).toBeCloseTo(4.54, 2)
    expect(ProfileRules.contrastOnWhite("#949494")).toBeCloseTo(3.03, 2)
  })

  it("is between 1 and 21, darker is never lower, and a colour is accepted exactly when it reaches 3:1", () => {
    fc.assert(fc.property(hex, (color) => {
      const ratio = ProfileRules.contrastOnWhite(color)
      expect(ratio).toBeGreaterThanOrEqual(1 - 1e-9)
      expect(ratio).toBeLessThanOrEqual(21 + 1e-9)
      const darker = `#${[1, 3, 5].map((i) => Math.floor(Number.parseInt(color.slice(i, i + 2), 16) / 2).toString(16).padStart(2, "0")).join("")}`
      expect(ProfileRules.contrastOnWhite(darker)).toBeGreaterThanOrEqual(ratio - 1e-9)
      expect(ProfileRules.isProblem(ProfileRules.brandColor(color))).toBe(ratio < 3)
    }))
  })
})

describe("fields", () => {
  it("keeps an EIN's nine digits and shows non-administrators only the last four", () => {
    fc.assert(fc.property(fc.stringMatching(/^\d{9}$/), (digits) => {
      expect(ProfileRules.ein(`${digits.slice(0, 2)}-${digits.slice(2)}`)).toBe(digits)
      expect(ProfileRules.showEin(digits, false)).toBe(`XX-XXX${digits.slice(5)}`)
      expect(ProfileRules.showEin(digits, true)).toBe(`${digits.slice(0, 2)}-${digits.slice(2)}`)
    }))
  })

  it("adds https to a bare website and refuses other schemes", () => {
    expect(ProfileRules.website("acme.example/path")).toBe("https://acme.example/path")
    expect(ProfileRules.website("http://acme.example")).toBe("http://acme.example")
    expect(ProfileRules.isProblem(ProfileRules.website("javascript:alert(1)"))).toBe(true)
    expect(ProfileRules.isProblem(ProfileRules.website("ftp://acme.example"))).toBe(true)
  })
})
