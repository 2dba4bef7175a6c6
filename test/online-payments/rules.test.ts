import { createHmac } from "node:crypto"
import fc from "fast-check"
import { describe, expect, it } from "vitest"
import { PaymentProcessorPort } from "@ledger/engine/ports"
import { PaymentRules } from "@ledger/engine/rules"

const cents = fc.integer({ min: 0, max: 10_000_000_00 })

describe("fee and net arithmetic in integer cents", () => {
  it("a charge's net plus its fee is the charge, for any amounts", () => {
    fc.assert(fc.property(cents, cents, (amount, fee) => {
      const net = PaymentRules.netOf(amount, fee)
      expect(Number.isInteger(net)).toBe(true)
      expect(net + fee).toBe(amount)
    }))
  })

  it("refunds never exceed the charge; failed ones free their amount", () => {
    const refund = fc.record({ amount_cents: fc.integer({ min: 1, max: 1_000_00 }), status: fc.constantFrom("pending", "succeeded", "failed") })
    fc.assert(fc.property(cents, fc.array(refund, { maxLength: 8 }), (amount, refunds) => {
      const live = refunds.filter((item) => item.status !== "failed").reduce((sum, item) => sum + item.amount_cents, 0)
      expect(PaymentRules.refundable(amount, refunds)).toBe(amount - live)
      expect(PaymentRules.refundable(amount, refunds.map((item) => ({ ...item, status: "failed" })))).toBe(amount)
    }))
  })

  it("a payout is the sum of its lines' nets, and its CSV has a row a line with exact cents", () => {
    const line = fc.record({ type: fc.constantFrom("charge", "refund", "adjustment"), source: fc.string({ maxLength: 12 }),
      amount_cents: fc.integer({ min: -1_000_000, max: 1_000_000 }), fee_cents: fc.integer({ min: 0, max: 10_000 }) })
      .map((item) => ({ ...item, net_cents: item.amount_cents - item.fee_cents }))
    fc.assert(fc.property(fc.array(line, { maxLength: 20 }), (lines) => {
      const total = PaymentRules.payoutTotal(lines)
      expect(total).toBe(lines.reduce((sum, item) => sum + item.amount_cents, 0) - lines.reduce((sum, item) => sum + item.fee_cents, 0))
      const csv = PaymentRules.payoutCsv(lines)
      // RFC 4180 like every other CSV Ledger writes: CRLF after every row, no bare LF.
      expect(csv.endsWith("\r\n")).toBe(true)
      expect(csv.replace(/\r\n/g, "")).not.toContain("\n")
      const rows = csv.trimEnd().split("\r\n")
      expect(rows).toHaveLength(lines.length + 1)
      const parsed = lines.map((item) => PaymentRules.payoutCsv([item]).trimEnd().split("\r\n")[1]!.split(",").slice(-1)[0]!)
      parsed.forEach((text, index) => expect(Math.round(Number(text) * 100)).toBe(lines[index]!.net_cents))
    }))
  })

  it("a payer pays the open balance, or a part only when partial payments are allowed", () => {
    fc.assert(fc.property(fc.integer({ min: 1, max: 1_000_000 }), fc.option(fc.integer({ min: 1, max: 2_000_000 }), { nil: undefined }), fc.boolean(), (open, asked, partial) => {
      const decided = PaymentRules.payableAmount(open, asked, partial)
      if (asked === undefined || asked === open) expect(decided).toEqual({ ok: true, cents: open })
      else if (asked > open) expect(decided).toEqual({ ok: false, why: "over" })
      else expect(decided).toEqual(partial ? { ok: true, cents: asked } : { ok: false, why: "partial" })
    }))
  })
})

describe("event signatures", () => {
  const secret = "whsec_test"
  const payload = JSON.stringify({ id: "evt_1", type: "payout.paid" }, null, 2)

  it("matches an independent HMAC-SHA256 of t.payload", () => {
    fc.assert(fc.property(fc.string(), fc.integer({ min: 0, max: 2 ** 31 }), fc.string(), (key, t, body) => {
      expect(PaymentProcessorPort.signEvent(key, t, body)).toBe(createHmac("sha256", key).update(`${t}.${body}`).digest("hex"))
    }))
  })

  it("verifies within the tolerance window and refuses outside it (replays)", () => {
    const t = 1_800_000_000
    const header = PaymentProcessorPort.signatureHeader(secret, t, payload)
    expect(PaymentProcessorPort.signatureRefusal(secret, header, payload, t)).toBeNull()
    expect(PaymentProcessorPort.signatureRefusal(secret, header, payload, t + 300)).toBeNull()
    expect(PaymentProcessorPort.signatureRefusal(secret, header, payload, t - 300)).toBeNull()
    expect(PaymentProcessorPort.signatureRefusal(secret, header, payload, t + 301)).toMatch(/tolerance/)
    expect(PaymentProcessorPort.signatureRefusal(secret, header, payload, t - 301)).toMatch(/tolerance/)
  })

  it("refuses another secret, a changed payload, a changed timestamp and malformed headers; accepts any matching v1", () => {
    const t = 1_800_000_000
    const header = PaymentProcessorPort.signatureHeader(secret, t, payload)
    expect(PaymentProcessorPort.signatureRefusal("whsec_other", header, payload, t)).toMatch(/no matching/)
    expect(PaymentProcessorPort.signatureRefusal(secret, header, payload.replace("payout", "charge"), t)).toMatch(/no matching/)
    expect(PaymentProcessorPort.signatureRefusal(secret, header.replace(`t=${t}`, `t=${t + 1}`), payload, t)).toMatch(/no matching/)
    for (const bad of ["", "v1=abc", `t=${t}`, "t=soon,v1=00", "garbage"]) expect(PaymentProcessorPort.signatureRefusal(secret, bad, payload, t)).not.toBeNull()
    const rolled = `t=${t},v1=${"0".repeat(64)},v1=${PaymentProcessorPort.signEvent(secret, t, payload)}`
    expect(PaymentProcessorPort.signatureRefusal(secret, rolled, payload, t)).toBeNull()
  })

  it("compares whole strings: equal only when equal", () => {
    fc.assert(fc.property(fc.string(), fc.string(), (a, b) => {
      expect(PaymentProcessorPort.constantTimeEqual(a, b)).toBe(a === b)
    }))
  })
})
