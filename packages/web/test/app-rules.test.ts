import fc from "fast-check"
import { describe, expect, it } from "vitest"
import { LedgerApiError, LedgerNetworkError, LedgerUnexpectedResponse } from "@ledger/client"
import { messageOf } from "../src/api.ts"
import { declineUrl } from "../src/consentDecline.ts"
import { formatCents, parseCents } from "../src/money.ts"
import { routeOf, w9TokenOf } from "../src/router.ts"
import { bodyOf } from "../src/screens/w9Body.ts"
import { amountsInWords, kindInWords, refusalInWords } from "../src/words.ts"

/**
 * The web app's own rules, without a browser: amounts formatted from integer cents with integer
 * arithmetic only and typed amounts read back to cents, its client routes, and the W-9 page's body.
 */

const reference = (cents: number) => {
  const value = BigInt(cents)
  const negative = value < 0n
  const magnitude = negative ? -value : value
  const whole = (magnitude / 100n).toLocaleString("en-US")
  return `${negative ? "-" : ""}${whole}.${(magnitude % 100n).toString().padStart(2, "0")}`
}

describe("formatCents", () => {
  it("formats known amounts", () => {
    expect(formatCents(0)).toBe("0.00")
    expect(formatCents(5)).toBe("0.05")
    expect(formatCents(-5)).toBe("-0.05")
    expect(formatCents(12_345)).toBe("123.45")
    expect(formatCents(123_456_789)).toBe("1,234,567.89")
    expect(formatCents(Number.MAX_SAFE_INTEGER)).toBe("90,071,992,547,409.91")
    expect(formatCents(0.5)).toBe("—")
  })

  it("agrees with a BigInt reference for every safe integer", () => {
    fc.assert(fc.property(fc.integer({ min: Number.MIN_SAFE_INTEGER, max: Number.MAX_SAFE_INTEGER }), (cents) => {
      expect(formatCents(cents)).toBe(reference(cents))
    }))
  })
})

describe("client routes", () => {
  it("places each path under /app", () => {
    expect(routeOf("/app/")).toBe("inbox")
    expect(routeOf("/app/inbox")).toBe("inbox")
    expect(routeOf("/app/sign-in/email")).toBe("sign-in-email")
    expect(routeOf("/app/console/")).toBe("console")
    expect(routeOf("/app/connect")).toBe("consent")
    for (const screen of ["security", "periods", "close", "reports", "consents", "claim"] as const) expect(routeOf(`/app/${screen}/`)).toBe(screen)
    expect(routeOf("/app/nowhere")).toBe("not-found")
  })
})

describe("parseCents", () => {
  it("reads typed amounts by string parsing, refusing what is not an amount", () => {
    expect(parseCents("250")).toBe(25_000)
    expect(parseCents("1,234.5")).toBe(123_450)
    expect(parseCents(" 0.05 ")).toBe(5)
    for (const bad of ["", "-1", "1.234", "abc", "1e3", "0x10"]) expect(parseCents(bad), bad).toBeNull()
  })

  it("round-trips every formatted non-negative amount", () => {
    fc.assert(fc.property(fc.integer({ min: 0, max: 999_999_999_999_99 }), (cents) => {
      expect(parseCents(formatCents(cents))).toBe(cents)
    }))
  })
})

describe("the W-9 page's route and body", () => {
  it("routes /app/w9/<token> to the public page with its token, and sends only what was filled", () => {
    expect(routeOf("/app/w9/w9_abc-DEF_123")).toBe("w9")
    expect(routeOf("/app/w9/w9_abc/")).toBe("w9")
    expect(routeOf("/app/w9/a/b")).toBe("not-found")
    expect(w9TokenOf("/app/w9/w9_abc-DEF_123/")).toBe("w9_abc-DEF_123")
    const values = {
      legal_name: " Jane ", business_name: "", tax_class: "individual", tax_class_other: "left over", exempt_payee_code: "", fatca_code: "",
      address1: "1 Main", address2: "", city: "Town", state: "wi", zip: "53703", tin_type: "SSN", tin: "123-45-6789"
    }
    expect(bodyOf(values)).toEqual({ certify: true, legal_name: "Jane", tax_class: "individual", address1: "1 Main", city: "Town", state: "WI", zip: "53703", tin_type: "SSN", tin: "123-45-6789" })
    expect(bodyOf({ ...values, tax_class: "other" })).toMatchObject({ tax_class: "other", tax_class_other: "left over" })
  })
})

describe("words shown instead of the API's raw words (issue 38 item 16)", () => {
  it("names kinds in words", () => {
    expect(kindInWords("journal_entry")).toBe("Journal entry")
    expect(kindInWords("bank_transfer")).toBe("Bank transfer")
    expect(kindInWords("integration_sale")).toBe("Integration sale")
    expect(kindInWords("w9")).toBe("W-9")
  })

  it("formats amounts in a heading as the lines format them", () => {
    expect(amountsInWords("Void payment 3 (123456 cents): duplicate")).toBe("Void payment 3 (1,234.56): duplicate")
    expect(amountsInWords("No amount here")).toBe("No amount here")
    fc.assert(fc.property(fc.integer({ min: -1_000_000_000, max: 1_000_000_000 }), (cents) => {
      expect(amountsInWords(`(${cents} cents)`)).toBe(`(${formatCents(cents)})`)
    }))
  })

  it("shows a refusal's field issues and the tries left, not only its message", () => {
    expect(refusalInWords({
      type: "invalid_request",
      message: "The request is not valid.",
      details: { issues: [{ path: ["reason"], message: "is required" }, { path: ["lines", 0, "account"], message: "Expected a string" }] }
    })).toBe("The request is not valid. reason: is required; lines.0.account: Expected a string.")
    expect(refusalInWords({ type: "wrong_code", message: "That code is not right.", details: { attempts_left: 3 } }))
      .toBe("That code is not right. 3 tries left.")
    expect(refusalInWords({ type: "wrong_code", message: "That code is not right.", details: { attempts_left: 1 } }))
      .toBe("That code is not right. 1 try left.")
    expect(refusalInWords({ type: "not_found", message: "No such record." })).toBe("No such record.")
    const many = Array.from({ length: 8 }, (_, index) => ({ path: [`field${index}`], message: "is required" }))
    expect(refusalInWords({ type: "invalid_request", message: "Bad.", details: { issues: many } })).toMatch(/field4: is required; and 3 more\.$/)
  })

  it("reaches the screens: messageOf words the SDK's refusal the same way", () => {
    const failure = new LedgerApiError({
      type: "sign_in_refused",
      status: 401,
      message: "That code is not right.",
      details: { outcome: "wrong_code", attempts_left: 2 },
      idempotencyKey: null,
      operationId: "signInWithEmailCode"
    })
    expect(messageOf(failure)).toBe("That code is not right. 2 tries left.")
  })

  it("words the SDK's own failures for a person: no connection, or an answer that is not the contract's", () => {
    const lost = new LedgerNetworkError({ type: "network_error", message: "getMe: no answer after 1 attempt(s): Failed to fetch", cause: null, idempotencyKey: null, operationId: "getMe", attempts: 1 })
    expect(messageOf(lost)).toBe("The server could not be reached. Check your connection and try again.")
    const page = new LedgerUnexpectedResponse({ type: "unexpected_response", message: "getMe answered 502 without a known error type.", status: 502, body: "<html>", operationId: "getMe" })
    expect(messageOf(page)).toBe("The server answered 502.")
    const newer = new LedgerUnexpectedResponse({ type: "unexpected_response", message: "x", status: 409, body: { error: { type: "brand_new", message: "Not now." } }, operationId: "getMe" })
    expect(messageOf(newer)).toBe("Not now.")
  })
})

describe("the consent screen's Decline", () => {
  it("goes to the server's /oauth/decline with the request's client, redirect URI and state only", () => {
    const consent = new URLSearchParams({
      response_type: "code", client_id: "ldgc_abc", redirect_uri: "http://127.0.0.1:9/cb?x=1", state: "s t&ate",
      code_challenge: "c".repeat(43), code_challenge_method: "S256", client_name: "Desk"
    })
    const url = new URL(declineUrl(consent), "https://ledger.example")
    expect(url.pathname).toBe("/oauth/decline")
    expect([...url.searchParams.entries()]).toEqual([["client_id", "ldgc_abc"], ["redirect_uri", "http://127.0.0.1:9/cb?x=1"], ["state", "s t&ate"]])
    expect(new URL(declineUrl(new URLSearchParams({ client_id: "ldgc_abc", redirect_uri: "http://127.0.0.1:9/cb" })), "https://l.example").searchParams.has("state")).toBe(false)
  })
})
