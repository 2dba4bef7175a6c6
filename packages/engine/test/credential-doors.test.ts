import { Effect, Option, Result } from "effect"
import { describe, expect, it } from "vitest"
import fc from "fast-check"
import { ApiError } from "@ledger/api"
import { areas, credentials } from "../src/Engine.ts"
import { type Asking, type Authenticated, type CredentialStrategy, doorsOf, type Refused } from "../src/pipeline/Authenticate.ts"

/**
 * The pipeline's doors over the credential strategies the areas register (Authenticate.ts
 * `doorsOf`, Credential.ts `CredentialStrategy`): which strategy answers a token, in what order,
 * and which refusal stands.
 */

const asking: Asking = { now: "2026-01-01T00:00:00.000Z", idempotencyKey: null, secretHash: null, company: null }

const who = (name: string): Authenticated => ({
  actor: {
    type: "user",
    id: 1,
    name,
    role: "owner",
    companyId: "company",
    scopes: ["read"],
    isPerson: true,
    keyId: 1,
    credentialKind: "api_key",
    postingThresholdCents: null,
    rateLimitRpm: null,
    firmId: null
  },
  company: null
})

type Outcome = "answers" | "passes" | "refuses unknown" | "refuses known"

const strategy = (name: string, order: number, outcome: Outcome, tried: Array<string>): CredentialStrategy => ({
  name,
  door: "company",
  order,
  recognises: (token) => token.startsWith("t_"),
  authenticate: () => {
    tried.push(name)
    if (outcome === "answers") return Effect.succeed(Option.some(who(name)))
    if (outcome === "passes") return Effect.succeed(Option.none())
    const refused: Refused = { error: ApiError.fail("unauthorized", `${name} refuses`), known: outcome === "refuses known" ? who(name) : null }
    return Effect.fail(refused)
  }
})

/** What the door answers: the name of who answered, or the refusal's message. */
const outcomeOf = async (strategies: ReadonlyArray<CredentialStrategy>, token: string) => {
  const effect = doorsOf(strategies).forOperation("company", token, asking) as Effect.Effect<Authenticated | null, unknown>
  const result = await Effect.runPromise(Effect.result(effect))
  return Result.isSuccess(result) ? `answered by ${result.success?.actor.name}` : (result.failure as Refused).error.message
}

const outcomes: ReadonlyArray<Outcome> = ["answers", "passes", "refuses unknown", "refuses known"]

describe("credential doors", () => {
  it("tries a door's strategies by their order, whatever the order they were registered in, and says which answer stands", async () => {
    await fc.assert(fc.asyncProperty(
      fc.array(fc.constantFrom(...outcomes), { minLength: 1, maxLength: 5 }),
      fc.integer({ min: 0, max: 1000 }),
      async (plan, seed) => {
        const tried: Array<string> = []
        const inOrder = plan.map((outcome, index) => strategy(`s${index}`, (index + 1) * 10, outcome, tried))
        const shuffled = [...inOrder].sort((a, b) => ((a.order * 7919 + seed) % 101) - ((b.order * 7919 + seed) % 101))
        const answer = await outcomeOf(shuffled, "t_token")
        // The rule, told plainly: the first answer or refusal naming somebody ends it; a refusal
        // naming nobody goes on and stands if nothing after it does; nothing at all: not valid.
        const ends = plan.findIndex((outcome) => outcome === "answers" || outcome === "refuses known")
        const firstUnknown = plan.findIndex((outcome, index) => outcome === "refuses unknown" && (ends < 0 || index < ends))
        const expected = ends >= 0
          ? plan[ends] === "answers" ? `answered by s${ends}` : `s${ends} refuses`
          : firstUnknown >= 0 ? `s${firstUnknown} refuses` : "The credential is not valid."
        expect(answer).toBe(expected)
        expect(tried).toEqual(plan.slice(0, ends < 0 ? plan.length : ends + 1).map((_, index) => `s${index}`))
      }
    ), { numRuns: 200 })
  })

  it("asks no strategy that does not recognise the token, and refuses a token none recognises", async () => {
    const tried: Array<string> = []
    expect(await outcomeOf([strategy("s0", 10, "answers", tried)], "other")).toBe("The credential is not valid.")
    expect(tried).toEqual([])
    expect(doorsOf([strategy("s0", 10, "answers", tried)]).mayAuthenticate("company", "other", null)).toBe(false)
    expect(doorsOf([strategy("s0", 10, "answers", tried)]).mayAuthenticate("company", "t_x", null)).toBe(true)
  })

  it("refuses two strategies of one door with one order, and one name given twice", () => {
    expect(() => doorsOf([strategy("a", 10, "answers", []), strategy("b", 10, "answers", [])])).toThrow(/share the order 10/)
    expect(() => doorsOf([strategy("a", 10, "answers", []), strategy("a", 20, "answers", [])])).toThrow(/registered twice/)
  })

  it("the engine's areas register the stated strategies, each door's in its order", () => {
    const registered = areas.flatMap((area) =>
      area.credentialStrategies.map((registeredStrategy) => `${registeredStrategy.door} ${registeredStrategy.order} ${registeredStrategy.name} ${area.name}`))
    expect(registered.sort()).toEqual([
      "company 10 oauth_access_token ai-apps",
      "company 20 firm_credential_in_client firms",
      "company 30 api_key administration",
      "company 40 web_session auth",
      "company 90 firm_key_without_client firms",
      "firm 10 firm_session firms",
      "firm 20 firm_key firms",
      "invitation 10 owner_invitation firms",
      "operator 10 operator_token administration"
    ])
  })

  it("tells a token's form as before: API keys remembered, firm credentials in a client left out of a company's own", () => {
    expect(credentials.isApiKey("ldg_abc")).toBe(true)
    expect(credentials.isApiKey("ldgs_abc")).toBe(false)
    expect(credentials.recognises("company", "ldgf_abc")).toBe(false)
    expect(credentials.recognises("firm", "ldgf_abc")).toBe(true)
    expect(credentials.recognises("company", "ldgat_abc")).toBe(true)
    expect(credentials.mayAuthenticate("company", "ldgf_abc", null)).toBe(true)
    expect(credentials.mayAuthenticate("company", "nope", null)).toBe(false)
    expect(credentials.mayAuthenticate("company", null, null)).toBe(false)
    expect(credentials.mayAuthenticate("invitation", "ldg_abc", null)).toBe(false)
    expect(credentials.mayAuthenticate("operator", "anything", null)).toBe(true)
  })
})
