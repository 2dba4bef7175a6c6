import { createHash } from "node:crypto"
import fc from "fast-check"
import { describe, expect, it } from "vitest"
import { AiApps } from "@ledger/engine"

/** The pure rules of AI app authorization, as properties (ai-apps/ConnectionRules.ts). */

const Rules = AiApps.ConnectionRules
const level = fc.constantFrom("read", "suggest", "post") as fc.Arbitrary<"read" | "suggest" | "post">
const verifier = fc.stringMatching(/^[A-Za-z0-9._~-]{43,128}$/)

describe("levels", () => {
  it("never give an app approve or admin; read holds read only; writes need suggest or post", () => {
    fc.assert(fc.property(level, (chosen) => {
      const scopes = Rules.scopesOf(chosen)
      expect(scopes).toContain("read")
      expect(scopes).not.toContain("approve")
      expect(scopes).not.toContain("admin")
      expect(scopes.includes("propose")).toBe(chosen !== "read")
    }))
  })

  it("post only below the per-entry cap: read and suggest post nothing, post at most the cap", () => {
    fc.assert(fc.property(level, fc.option(fc.nat({ max: 10_000_000_000 }), { nil: undefined }), (chosen, cap) => {
      const threshold = Rules.thresholdOf(chosen, cap)
      if (chosen !== "post") expect(threshold).toBe(0)
      else expect(threshold).toBe(cap ?? Rules.noCap)
      expect(Number.isSafeInteger(threshold)).toBe(true)
    }))
  })
})

describe("PKCE S256", () => {
  it("verifies exactly the verifier the challenge was made from (RFC 7636 appendix B vector too)", () => {
    expect(Rules.challengeOf("dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk")).toBe("E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM")
    fc.assert(fc.property(verifier, verifier, (one, other) => {
      const challenge = createHash("sha256").update(one).digest("base64url")
      expect(Rules.challengeOf(one)).toBe(challenge)
      expect(Rules.verifies(one, challenge)).toBe(true)
      if (other !== one) expect(Rules.verifies(other, challenge)).toBe(false)
    }))
  })

  it("refuses verifiers outside 43 to 128 unreserved characters, even when they hash right", () => {
    fc.assert(fc.property(fc.string({ maxLength: 42 }), (short) => {
      expect(Rules.verifies(short, Rules.challengeOf(short))).toBe(false)
    }))
  })
})

describe("redirect URIs", () => {
  it("match only character for character", () => {
    fc.assert(fc.property(fc.webUrl(), fc.string({ minLength: 1, maxLength: 3 }), (uri, suffix) => {
      expect(Rules.redirectMatches([uri], uri)).toBe(true)
      expect(Rules.redirectMatches([uri], uri + suffix)).toBe(false)
      expect(Rules.redirectMatches([uri], uri.toUpperCase() === uri ? `${uri}/x` : uri.toUpperCase())).toBe(false)
    }))
  })

  it("admits https, loopback http and private-use schemes, never fragments or other hosts over http", () => {
    expect(Rules.isAcceptableRedirect("https://client.example/cb")).toBe(true)
    expect(Rules.isAcceptableRedirect("http://127.0.0.1:4000/cb")).toBe(true)
    expect(Rules.isAcceptableRedirect("http://localhost/cb")).toBe(true)
    expect(Rules.isAcceptableRedirect("com.example.app:/cb")).toBe(true)
    expect(Rules.isAcceptableRedirect("http://client.example/cb")).toBe(false)
    expect(Rules.isAcceptableRedirect("https://client.example/cb#frag")).toBe(false)
    expect(Rules.isAcceptableRedirect("javascript:alert(1)")).toBe(false)
  })
})
