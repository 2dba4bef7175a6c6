import * as fc from "fast-check"
import { readFileSync } from "node:fs"
import { describe, expect, it } from "vitest"
import { SignInRules, TotpRules } from "@ledger/engine/rules"
const {
  codeAttempt, limits, parsePerson, personKey, recoveryCode, sameHash, sessionEndedBecause, sessionEnds, sixDigits, stepUpAllowed,
  throttleVerdict, ticketAttempt
} = SignInRules
type LinkState = SignInRules.LinkState

const fixture = (name: string) => JSON.parse(readFileSync(new URL(`../fixtures/totp/${name}`, import.meta.url), "utf8"))

const link = fc.record({
  status: fc.constantFrom<LinkState["status"]>("pending", "used", "locked", "replaced"),
  wrongCodes: fc.integer({ min: 0, max: 4 }),
  expiresAtMs: fc.integer({ min: 0, max: 2_000_000 }),
  matches: fc.boolean()
})

describe("email code rules (properties)", () => {
  it("signs in only with the matching code of a pending, unexpired newest link", () => {
    fc.assert(fc.property(link, fc.constantFrom(null, "used" as const, "replaced" as const), fc.integer({ min: 0, max: 2_000_000 }), (latest, older, now) => {
      const outcome = codeAttempt(latest, older, now)
      if (outcome._tag === "SignIn") {
        expect(latest.matches && latest.status === "pending" && now < latest.expiresAtMs).toBe(true)
      }
      if (latest.status === "locked") expect(outcome).toEqual({ _tag: "Refused", outcome: "locked" })
    }))
  })

  it("locks on the fifth wrong code and counts down the attempts before it", () => {
    fc.assert(fc.property(fc.integer({ min: 0, max: 4 }), (wrongCodes) => {
      const outcome = codeAttempt({ status: "pending", wrongCodes, expiresAtMs: 10, matches: false }, null, 0)
      expect(outcome).toEqual({ _tag: "Wrong", attemptsLeft: limits.wrongCodesMax - wrongCodes - 1, locks: wrongCodes === 4 })
    }))
    // Five wrong codes in a row from a fresh link: locked exactly at the fifth.
    let wrong = 0
    const seen: Array<boolean> = []
    for (let attempt = 0; attempt < 5; attempt++) {
      const outcome = codeAttempt({ status: "pending", wrongCodes: wrong, expiresAtMs: 10, matches: false }, null, 0)
      if (outcome._tag !== "Wrong") throw new Error("expected a wrong code")
      seen.push(outcome.locks)
      wrong += 1
    }
    expect(seen).toEqual([false, false, false, false, true])
  })

  it("tells a code of a replaced or used link apart, and knows no link as invalid", () => {
    expect(codeAttempt(null, null, 0)).toEqual({ _tag: "Refused", outcome: "invalid" })
    expect(codeAttempt({ status: "pending", wrongCodes: 0, expiresAtMs: 10, matches: false }, "replaced", 0)).toEqual({ _tag: "Refused", outcome: "replaced" })
    expect(codeAttempt({ status: "pending", wrongCodes: 0, expiresAtMs: 10, matches: true }, null, 10)).toEqual({ _tag: "Refused", outcome: "expired" })
    expect(codeAttempt({ status: "used", wrongCodes: 0, expiresAtMs: 10, matches: true }, null, 0)).toEqual({ _tag: "Refused", outcome: "used" })
  })

  it("second-step tickets end at the fifth wrong code", () => {
    fc.assert(fc.property(fc.integer({ min: 0, max: 10 }), (wrong) => {
      expect(ticketAttempt(wrong).locks).toBe(wrong + 1 >= 5)
    }))
  })

  it("allows at most five step-ups an hour", () => {
    fc.assert(fc.property(fc.nat(20), (count) => {
      expect(stepUpAllowed(count)).toBe(count < 5)
    }))
  })
})

describe("codes and sessions (properties)", () => {
  it("makes 6-digit codes and well-formed recovery codes from any bytes", () => {
    fc.assert(fc.property(fc.uint8Array({ minLength: 4, maxLength: 4 }), (bytes) => {
      expect(sixDigits(bytes)).toMatch(/^\d{6}$/u)
    }))
    fc.assert(fc.property(fc.uint8Array({ minLength: 7, maxLength: 7 }), (bytes) => {
      expect(recoveryCode(bytes)).toMatch(/^[a-z2-7]{5}-[a-z2-7]{5}$/u)
    }))
  })

  it("compares hashes exactly", () => {
    fc.assert(fc.property(fc.stringMatching(/^[0-9a-f]{64}$/u), fc.stringMatching(/^[0-9a-f]{64}$/u), (left, right) => {
      expect(sameHash(left, right)).toBe(left === right)
    }))
  })

  it("never lets a session outlive 7 days, and idles it out after 8 hours", () => {
    fc.assert(fc.property(fc.nat(10 ** 12), fc.nat(limits.sessionMaxMs * 2), (created, later) => {
      const ends = sessionEnds(created, created + later)
      expect(ends.expiresAtMs).toBe(created + limits.sessionMaxMs)
      expect(ends.idleExpiresAtMs).toBeLessThanOrEqual(ends.expiresAtMs)
      const live = sessionEndedBecause({ revokedAtMs: null, ...ends }, created + later) === null
      expect(live).toBe(created + later < ends.idleExpiresAtMs)
    }))
  })

  it("names people of companies and firms both ways", () => {
    fc.assert(fc.property(fc.uuid(), fc.integer({ min: 1, max: 2 ** 40 }), (companyId, id) => {
      expect(parsePerson(personKey({ type: "user", companyId, id }))).toEqual({ type: "user", companyId, id })
      expect(parsePerson(personKey({ type: "firm_member", firmId: id, id }))).toEqual({ type: "firm_member", firmId: id, id })
    }))
  })
})

describe("TOTP against the RFC vectors", () => {
  const vectors = fixture("rfc6238_appendix_b_totp_vectors.json")
  const rows: Array<Record<string, unknown>> = vectors.vectors ?? vectors.rows ?? vectors.table

  it("otplib, as configured here, reproduces RFC 6238 Appendix B", () => {
    expect(rows.length).toBe(18)
    for (const row of rows) {
      const mode = String(row.mode ?? row.algorithm).toUpperCase().replace("HMAC-", "")
      const secret = TotpRules.encodeSecret(new TextEncoder().encode(vectors.shared_secret_ascii[mode]))
      const code = TotpRules.codeWith({
        secret,
        algorithm: mode.toLowerCase() as "sha1",
        digits: 8,
        period: vectors.parameters.time_step_X,
        epochSeconds: Number(row.time_unix)
      })
      expect(code).toBe(String(row.totp))
    }
  })

  it("encodes secrets as RFC 4648 base32", () => {
    const base32 = fixture("rfc4648_base32_vectors.json")
    const cases: Array<Record<string, string>> = base32.vectors ?? base32.cases
    for (const item of cases) {
      const input = item.input_ascii ?? ""
      expect(TotpRules.encodeSecret(new TextEncoder().encode(input))).toBe((item.base32 ?? "").replace(/=+$/u, ""))
    }
  })

  it("accepts a code once within its window and refuses it again", () => {
    const secret = TotpRules.encodeSecret(new TextEncoder().encode("12345678901234567890"))
    const now = Date.parse("2026-05-01T12:00:10Z")
    const code = TotpRules.codeAt(secret, now)
    const step = TotpRules.matchedStep(secret, code, now, null)
    expect(step).toBe(Math.floor(now / 1000 / 30))
    expect(TotpRules.matchedStep(secret, code, now + 5_000, step)).toBeNull()
    // One step of drift is allowed, two are not.
    expect(TotpRules.matchedStep(secret, code, now + 30_000, null)).not.toBeNull()
    expect(TotpRules.matchedStep(secret, code, now + 90_000, null)).toBeNull()
  })
})

describe("abuse limits (properties)", () => {
  const window = 15 * 60_000
  const steps = fc.array(fc.integer({ min: 0, max: 3 * window }), { maxLength: 40 }).map((times) => [...times].sort((a, b) => a - b))

  it("allows a step exactly while fewer than max fall in the window", () => {
    fc.assert(fc.property(steps, fc.integer({ min: 1, max: 10 }), fc.integer({ min: 0, max: 3 * window }), (times, max, now) => {
      const inWindow = times.filter((time) => time > now - window && time <= now).length
      expect(throttleVerdict(times, max, window, now).allowed).toBe(inWindow < max)
    }))
  })

  it("a refused step is allowed at its Retry-After and not a second before", () => {
    fc.assert(fc.property(steps, fc.integer({ min: 1, max: 10 }), fc.integer({ min: 0, max: 3 * window }), (times, max, now) => {
      const verdict = throttleVerdict(times, max, window, now)
      if (verdict.allowed) return
      expect(verdict.retryAfterSeconds).toBeGreaterThanOrEqual(1)
      expect(verdict.retryAfterSeconds * 1000).toBeLessThanOrEqual(window + 999)
      // Nothing new is counted meanwhile (a refused step is not): at the time told, one fits again.
      const past = times.filter((time) => time <= now)
      expect(throttleVerdict(past, max, window, now + verdict.retryAfterSeconds * 1000).allowed).toBe(true)
      if (verdict.retryAfterSeconds > 1) {
        expect(throttleVerdict(past, max, window, now + (verdict.retryAfterSeconds - 1) * 1000 - 1).allowed).toBe(false)
      }
    }))
  })

  it("the email limits let one client ask for an address fewer times than all clients together", () => {
    expect(limits.emailLinksPerEmailPerClient).toBeLessThan(limits.emailLinksPerEmail)
    expect(limits.emailLinksPerEmail).toBeLessThan(limits.publicStepsPerClient)
  })
})
