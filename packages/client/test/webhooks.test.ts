import { createHmac } from "node:crypto"
import * as fc from "fast-check"
import { describe, expect, it } from "vitest"
import { Webhooks } from "@ledger/client"

/** The signature computed independently of the SDK: Node's HMAC over `t + "." + body`. */
const reference = (secret: string, timestamp: number, body: string | Buffer) =>
  createHmac("sha256", secret).update(`${timestamp}.`).update(body).digest("hex")

const secret = "ldgwhsec_3p1rK8sQvX0aTzY7bN2mC5dF9gH4jL6w"
const previous = "ldgwhsec_old0000000000000000000000000000000"
const timestamp = 1_735_689_600 // 2025-01-01T00:00:00Z
const body = JSON.stringify({ id: "evt_1", type: "entry.posted", data: { entry_id: 1001, total_cents: 4200 } })

describe("Webhooks.verifySignature", () => {
  it("matches an independently computed HMAC-SHA256 (fixed vector)", async () => {
    // Pinned once from Node's crypto, so a change in either implementation shows here.
    const expected = reference(secret, timestamp, body)
    expect(await Webhooks.computeSignature(secret, timestamp, body)).toBe(expected)
    expect(expected).toBe(createHmac("sha256", secret).update(`${timestamp}.${body}`).digest("hex"))
    const header = `t=${timestamp},v1=${expected}`
    expect(await Webhooks.verifySignature({ header, payload: body, secrets: secret, nowSeconds: timestamp + 10 })).toEqual({
      valid: true,
      timestamp
    })
  })

  it("accepts either v1 during a rotation, and either secret on the receiver's side", async () => {
    const header = `t=${timestamp},v1=${reference(secret, timestamp, body)},v1=${reference(previous, timestamp, body)}`
    for (const secrets of [secret, previous, [previous, secret]]) {
      expect((await Webhooks.verifySignature({ header, payload: body, secrets, nowSeconds: timestamp })).valid).toBe(true)
    }
    expect(await Webhooks.signatureHeader([secret, previous], timestamp, body)).toBe(header)
  })

  it("refuses a changed body, another secret, a stale or future timestamp, and malformed headers", async () => {
    const header = `t=${timestamp},v1=${reference(secret, timestamp, body)}`
    const verify = (options: Partial<Webhooks.VerifyOptions>) =>
      Webhooks.verifySignature({ header, payload: body, secrets: secret, nowSeconds: timestamp, ...options })
    expect(await verify({ payload: body.replace("4200", "4201") })).toEqual({ valid: false, reason: "no_matching_signature" })
    expect(await verify({ secrets: previous })).toEqual({ valid: false, reason: "no_matching_signature" })
    expect(await verify({ nowSeconds: timestamp + 301 })).toEqual({ valid: false, reason: "timestamp_out_of_tolerance" })
    expect(await verify({ nowSeconds: timestamp - 301 })).toEqual({ valid: false, reason: "timestamp_out_of_tolerance" })
    expect((await verify({ nowSeconds: timestamp + 3_000, toleranceSeconds: 3_600 })).valid).toBe(true)
    expect(await verify({ header: undefined })).toEqual({ valid: false, reason: "missing_header" })
    for (const malformed of ["v1=abc", `t=${timestamp}`, `t=soon,v1=${"0".repeat(64)}`, "garbage", `t=${timestamp},v1=${"z".repeat(64)}`]) {
      expect(await verify({ header: malformed })).toEqual({ valid: false, reason: "malformed_header" })
    }
    // The signature of another timestamp does not carry over to this one.
    const replayed = `t=${timestamp + 60},v1=${reference(secret, timestamp, body)}`
    expect(await verify({ header: replayed, nowSeconds: timestamp + 60 })).toEqual({ valid: false, reason: "no_matching_signature" })
  })

  it("verifies raw bytes, including non-ASCII bodies", async () => {
    const bytes = Buffer.from(JSON.stringify({ memo: "Café — 東京 ✓" }), "utf8")
    const header = `t=${timestamp},v1=${reference(secret, timestamp, bytes)}`
    expect((await Webhooks.verifySignature({ header, payload: new Uint8Array(bytes), secrets: secret, nowSeconds: timestamp })).valid).toBe(true)
    expect((await Webhooks.verifySignature({ header, payload: bytes.toString("utf8"), secrets: secret, nowSeconds: timestamp })).valid).toBe(true)
  })

  it("agrees with Node's HMAC on any body, secret and time", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.string({ maxLength: 2_000 }),
        fc.string({ minLength: 1, maxLength: 80 }),
        fc.integer({ min: 0, max: 4_000_000_000 }),
        async (payload, key, time) => {
          const header = `t=${time},v1=${reference(key, time, payload)}`
          expect(await Webhooks.computeSignature(key, time, payload)).toBe(reference(key, time, payload))
          expect((await Webhooks.verifySignature({ header, payload, secrets: key, nowSeconds: time })).valid).toBe(true)
        }
      ),
      { numRuns: 200 }
    )
  })
})
