import { Effect } from "effect"
import { readFileSync } from "node:fs"
import { describe, expect, it } from "vitest"
import type { Auth } from "@ledger/api"
import { RelyingParty } from "@ledger/engine/ports"
import { PasskeyRules } from "@ledger/engine/rules"

/**
 * The passkey policy over real authenticator messages (fido2-net-lib's test files, see
 * test/fixtures/SOURCES.md): an ES256 `none` registration and an assertion of the same key, from
 * origin https://localhost:44329. Their authenticator did not verify the user, which this service
 * requires: so they verify only with that requirement lifted, proving the rest of the checks run
 * on real data, and are refused as they are.
 */

const fixture = (name: string) => JSON.parse(readFileSync(new URL(`../fixtures/webauthn/${name}`, import.meta.url), "utf8"))
const rp = RelyingParty.fromUrl("https://localhost:44329")
const registration = fixture("fido2-net-lib_attestationNoneResponse.json") as Auth.Shared.WebAuthnCredential
const registrationOptions = fixture("fido2-net-lib_attestationNoneOptions.json")
const assertionRaw = fixture("fido2-net-lib_assertionNoneResponse.json")
const assertionOptions = fixture("fido2-net-lib_assertionNoneOptions.json")
// Upstream keeps this signature in hex; browsers send base64url.
const assertion = {
  ...assertionRaw,
  response: { ...assertionRaw.response, signature: Buffer.from(assertionRaw.response.signature, "hex").toString("base64url") }
} as Auth.Shared.WebAuthnCredential

const run = <A, E>(effect: Effect.Effect<A, E>) => Effect.runPromise(Effect.result(effect))

describe("passkey policy over real WebAuthn messages", () => {
  it("reads the challenge a message answers from its clientDataJSON", () => {
    expect(PasskeyRules.challengeOf(registration)).toBe(registrationOptions.challenge)
    expect(PasskeyRules.challengeOf(assertion)).toBe(assertionOptions.challenge)
  })

  it("verifies the registration and the assertion of the same key, then refuses them without user verification", async () => {
    const registered = await run(PasskeyRules.verifyRegistration(rp, registration, registrationOptions.challenge, false))
    if (registered._tag === "Failure") throw new Error(registered.failure.reason)
    expect(registered.success.credentialId).toBe(registration.id)
    expect(registered.success.signCount).toBe(0)

    const asserted = await run(PasskeyRules.verifyAssertion(rp, assertion, assertionOptions.challenge, registered.success, false))
    if (asserted._tag === "Failure") throw new Error(asserted.failure.reason)
    expect(asserted.success).toBe(52)

    const strictRegistration = await run(PasskeyRules.verifyRegistration(rp, registration, registrationOptions.challenge))
    expect(strictRegistration._tag).toBe("Failure")
    const strictAssertion = await run(PasskeyRules.verifyAssertion(rp, assertion, assertionOptions.challenge, registered.success))
    expect(strictAssertion._tag).toBe("Failure")
  })

  it("refuses the real assertion for another origin, another challenge, or a stored count at or past its own", async () => {
    const registered = await run(PasskeyRules.verifyRegistration(rp, registration, registrationOptions.challenge, false))
    if (registered._tag === "Failure") throw new Error(registered.failure.reason)
    const stored = registered.success
    const elsewhere = RelyingParty.fromUrl("https://localhost:8443")
    expect((await run(PasskeyRules.verifyAssertion(elsewhere, assertion, assertionOptions.challenge, stored, false)))._tag).toBe("Failure")
    expect((await run(PasskeyRules.verifyAssertion(rp, assertion, registrationOptions.challenge, stored, false)))._tag).toBe("Failure")
    expect((await run(PasskeyRules.verifyAssertion(rp, assertion, assertionOptions.challenge, { ...stored, signCount: 52 }, false)))._tag).toBe("Failure")
    const tampered = { ...assertion, response: { ...assertion.response, signature: Buffer.alloc(70, 1).toString("base64url") } }
    expect((await run(PasskeyRules.verifyAssertion(rp, tampered, assertionOptions.challenge, stored, false)))._tag).toBe("Failure")
  })
})
