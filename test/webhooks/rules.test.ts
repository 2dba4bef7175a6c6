import { createHmac } from "node:crypto"
import { readFileSync } from "node:fs"
import fc from "fast-check"
import { describe, expect, it } from "vitest"
import { Webhooks } from "@ledger/client"
import { Ports } from "@ledger/engine"
import { WebhookRules } from "@ledger/engine/rules"

/** The webhooks area's pure rules: the retry schedule, the signature, the address classes. */

const vectors = JSON.parse(readFileSync(new URL("../fixtures/misc/hmac_webhook_signature_vectors.json", import.meta.url), "utf8"))

describe("the retry schedule", () => {
  it("waits longer after each failure, within 10 percent of the base delay, and stops after the last attempt", () => {
    fc.assert(fc.property(fc.integer({ min: 1, max: 2 ** 48 }), (deliveryId) => {
      let total = 0
      let previousBase = 0
      for (let attempts = 1; attempts < WebhookRules.attemptsMax; attempts++) {
        const next = WebhookRules.afterFailure(deliveryId, attempts)
        expect(next).not.toBeNull()
        const base = WebhookRules.baseDelaySeconds(attempts)
        expect(base).toBeGreaterThanOrEqual(previousBase)
        expect(next!.retryInSeconds).toBeGreaterThanOrEqual(Math.floor(base * 0.9))
        expect(next!.retryInSeconds).toBeLessThanOrEqual(Math.ceil(base * 1.1))
        // Deterministic: the same delivery and retry always wait the same.
        expect(WebhookRules.afterFailure(deliveryId, attempts)).toEqual(next)
        previousBase = base
        total += next!.retryInSeconds
      }
      expect(WebhookRules.afterFailure(deliveryId, WebhookRules.attemptsMax)).toBeNull()
      // About three days in all, and always before the automatic turn-off.
      expect(total).toBeGreaterThan(2 * 86_400)
      expect(total).toBeLessThan(WebhookRules.turnOffAfterSeconds)
    }))
  })

  it("spreads deliveries that failed together", () => {
    const delays = new Set(Array.from({ length: 50 }, (_, index) => WebhookRules.retryDelaySeconds(1_000 + index, 3)))
    expect(delays.size).toBeGreaterThan(20)
  })

  it("turns an endpoint off only after 72 hours of failures", () => {
    expect(WebhookRules.turnsOff(0, 72 * 3_600_000 - 1)).toBe(false)
    expect(WebhookRules.turnsOff(0, 72 * 3_600_000)).toBe(true)
  })
})

describe("the signature", () => {
  it("is HMAC-SHA256 as the published vectors compute it (RFC 4231, GitHub, Slack)", () => {
    const bytes = (text: string) => new TextEncoder().encode(text)
    for (const testCase of vectors.rfc4231_hmac_sha2.cases) {
      const mac = WebhookRules.hmacHex(Buffer.from(testCase.key_hex, "hex"), Buffer.from(testCase.data_hex, "hex"))
      // Case 5 publishes a MAC truncated to 128 bits.
      expect(mac.startsWith(testCase.hmac_sha256), `RFC 4231 case ${testCase.test_case}`).toBe(true)
    }
    const github = vectors.github_webhook
    expect(WebhookRules.hmacHex(bytes(github.secret), bytes(github.payload))).toBe(github.signature_hex)
    const slack = vectors.slack_request_signing
    const slackMac = WebhookRules.hmacHex(bytes(slack.signing_secret), bytes(`v0:${slack["X-Slack-Request-Timestamp"]}:${slack.raw_body}`))
    expect(`v0=${slackMac}`).toBe(slack["X-Slack-Signature"])
  })

  it("matches an independent HMAC and the SDK's verifier for any secret, time and body", async () => {
    await fc.assert(fc.asyncProperty(
      fc.string({ minLength: 1, maxLength: 60 }),
      fc.integer({ min: 0, max: 4_000_000_000 }),
      fc.string({ unit: "grapheme", maxLength: 200 }),
      async (secret, timestamp, body) => {
        const expected = createHmac("sha256", secret).update(`${timestamp}.${body}`).digest("hex")
        expect(WebhookRules.signature(secret, timestamp, body)).toBe(expected)
        const header = WebhookRules.signatureHeader([`ldgwhsec_${secret}`, "ldgwhsec_previous"], timestamp, body)
        expect(header).toBe(await Webhooks.signatureHeader([`ldgwhsec_${secret}`, "ldgwhsec_previous"], timestamp, body))
        const verdict = await Webhooks.verifySignature({ header, payload: body, secrets: `ldgwhsec_${secret}`, nowSeconds: timestamp })
        expect(verdict.valid).toBe(true)
      }
    ), { numRuns: 100 })
  })
})

describe("public addresses", () => {
  it("refuses every private, loopback, link-local, multicast and reserved IPv4 address, and their IPv4-mapped forms", () => {
    const privateV4 = fc.oneof(
      fc.tuple(fc.constant(10), fc.nat(255), fc.nat(255), fc.nat(255)),
      fc.tuple(fc.constant(127), fc.nat(255), fc.nat(255), fc.nat(255)),
      fc.tuple(fc.constant(169), fc.constant(254), fc.nat(255), fc.nat(255)),
      fc.tuple(fc.constant(172), fc.integer({ min: 16, max: 31 }), fc.nat(255), fc.nat(255)),
      fc.tuple(fc.constant(192), fc.constant(168), fc.nat(255), fc.nat(255)),
      fc.tuple(fc.constant(100), fc.integer({ min: 64, max: 127 }), fc.nat(255), fc.nat(255)),
      fc.tuple(fc.integer({ min: 224, max: 255 }), fc.nat(255), fc.nat(255), fc.nat(255)),
      fc.tuple(fc.constant(0), fc.nat(255), fc.nat(255), fc.nat(255))
    )
    fc.assert(fc.property(privateV4, (parts) => {
      const address = parts.join(".")
      expect(Ports.isPublicAddress(address)).toBe(false)
      expect(Ports.isPublicAddress(`::ffff:${address}`)).toBe(false)
      expect(Ports.addressProblem(`https://${address}/hook`, false)).not.toBeNull()
      expect(Ports.addressProblem(`https://${address}/hook`, true)).toBeNull()
    }))
  })

  it("allows public addresses and refuses the IPv6 special ranges", () => {
    for (const address of ["93.184.215.14", "8.8.8.8", "2606:4700:4700::1111"]) expect(Ports.isPublicAddress(address), address).toBe(true)
    for (const address of ["::1", "::", "fe80::1", "fc00::1", "fd00:ec2::254", "ff02::1", "64:ff9b::7f00:1", "2002:7f00:1::1"]) {
      expect(Ports.isPublicAddress(address), address).toBe(false)
    }
  })
})
