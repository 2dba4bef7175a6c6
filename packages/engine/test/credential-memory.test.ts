import { describe, expect, it } from "vitest"
import fc from "fast-check"
import type { Authenticate } from "@ledger/engine"
import { CredentialMemory, entriesMax } from "../src/pipeline/batching/CredentialMemory.ts"

/** The pipeline's memory of API keys (CredentialMemory.ts): what it recalls, until when, and how much. */

const authenticatedOf = (secretHash: string, reusableUntilMs: number): Authenticate.Authenticated => ({
  actor: {
    type: "user",
    id: 1,
    name: "Owner",
    role: "owner",
    companyId: "company",
    scopes: ["read", "propose"],
    isPerson: true,
    keyId: 7,
    credentialKind: "api_key",
    postingThresholdCents: null,
    rateLimitRpm: null,
    firmId: null
  },
  company: { companyId: "company", plan: "business", rateLimitRpm: null, killSwitchSuspended: false },
  stored: null,
  apiKey: { companyId: "company", keyId: 7, state: "state", secretHash, reusableUntilMs }
})

describe("CredentialMemory", () => {
  it("recalls a key until the instant it may no longer be reused, then never again", () => {
    fc.assert(fc.property(fc.integer({ min: 1, max: 10 ** 12 }), fc.integer({ min: 0, max: 10 ** 6 }), (untilMs, afterMs) => {
      const memory = new CredentialMemory()
      memory.remember(authenticatedOf("hash", untilMs))
      expect(memory.recall("hash", untilMs - 1)?.apiKey.keyId).toBe(7)
      expect(memory.recall("hash", untilMs + afterMs)).toBeUndefined()
      expect(memory.recall("hash", untilMs - 1)).toBeUndefined()
    }))
  })

  it("keeps the actor and company, never the idempotency record read with them", () => {
    const memory = new CredentialMemory()
    memory.remember(authenticatedOf("hash", 100))
    const recalled = memory.recall("hash", 0)!
    expect(recalled.actor.name).toBe("Owner")
    expect(recalled.company?.plan).toBe("business")
    expect((recalled as { readonly stored?: unknown }).stored).toBeUndefined()
  })

  it("remembers nothing that is not an API key, and forgets what it is told to", () => {
    const memory = new CredentialMemory()
    const { apiKey: _, ...operator } = authenticatedOf("hash", 100)
    memory.remember(operator)
    expect(memory.size).toBe(0)
    memory.remember(authenticatedOf("hash", 100))
    memory.forget("hash")
    expect(memory.recall("hash", 0)).toBeUndefined()
  })

  it("knows the Idempotency-Keys it answered under, per secret, at most entriesMax of them", () => {
    const memory = new CredentialMemory()
    memory.answered("hash", "key 0")
    expect(memory.wasAnswered("hash", "key 0")).toBe(true)
    expect(memory.wasAnswered("other hash", "key 0")).toBe(false)
    for (let index = 1; index <= entriesMax; index++) memory.answered("hash", `key ${index}`)
    expect(memory.wasAnswered("hash", "key 0")).toBe(false)
    expect(memory.wasAnswered("hash", "key 1")).toBe(true)
    expect(memory.wasAnswered("hash", `key ${entriesMax}`)).toBe(true)
  })

  it("holds at most entriesMax keys, dropping the oldest first", () => {
    const memory = new CredentialMemory()
    for (let index = 0; index <= entriesMax; index++) memory.remember(authenticatedOf(`hash ${index}`, 100))
    expect(memory.size).toBe(entriesMax)
    expect(memory.recall("hash 0", 0)).toBeUndefined()
    expect(memory.recall("hash 1", 0)).toBeDefined()
    expect(memory.recall(`hash ${entriesMax}`, 0)).toBeDefined()
  })
})
