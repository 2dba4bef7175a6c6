import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { BalanceMismatch, makeTestLedger, Scenario, ScenarioStepFailed, type TestLedger, yearOfBusiness } from "@ledger/testkit"

const databaseUrl = process.env.DATABASE_URL === "" ? undefined : process.env.DATABASE_URL

let ledger: TestLedger
beforeAll(async () => {
  ledger = await makeTestLedger({ seed: 99, databaseUrl })
})
afterAll(() => ledger.close())

describe("scenarios", () => {
  it("replays a year of business through public operations and the books match the scenario's model", async () => {
    const scenario = yearOfBusiness({ year: 2025, seed: 4 })
    expect(scenario.steps.length).toBeGreaterThan(100)
    const run = await ledger.runScenario(scenario)

    // The runner already asserted every expected balance; check the model is not trivial.
    const expected = scenario.expectedBalances!
    expect(expected["4000"]).toBeGreaterThan(0)
    expect(expected["1010"]).not.toBe(0)
    expect(run.outcomes.filter((outcome) => outcome.status === 202)).toHaveLength(1)

    const trial = await run.company.client.getTrialBalance({ as_of: "2025-12-31" })
    if ("format" in trial) throw new Error("asked for JSON")
    expect(trial.total_debit_cents).toBe(trial.total_credit_cents)
    const revenue = trial.rows.find((row) => row.code === "4000")
    expect(revenue?.credit_cents).toBe(expected["4000"])
    expect(ledger.clock.today() <= "2025-12-31").toBe(true)
  }, 300_000)

  it("the same seed gives the same year; another seed another one", () => {
    const amounts = (seed: number) => JSON.stringify(yearOfBusiness({ seed }).expectedBalances)
    expect(amounts(5)).toBe(amounts(5))
    expect(amounts(5)).not.toBe(amounts(6))
  })

  it("fails at the first step that goes otherwise, naming it", async () => {
    const lines = [{ account: "6070", debit_cents: 10_00 }, { account: "1010", credit_cents: 9_00 }]
    const refused: Scenario.Scenario = {
      name: "Unbalanced on purpose",
      steps: [{ date: "2025-02-03", label: "unbalanced entry", operation: "proposeJournalEntry", input: { entry_date: "2025-02-03", lines }, expect: { refused: "unbalanced_entry" } }]
    }
    await expect(ledger.runScenario(refused)).resolves.toMatchObject({ outcomes: [{ label: "unbalanced entry", status: 422 }] })

    const failing: Scenario.Scenario = { ...refused, steps: [{ ...refused.steps[0]!, expect: "ok" }] }
    const error = await ledger.runScenario(failing).then(() => null, (cause: unknown) => cause)
    expect(error).toBeInstanceOf(ScenarioStepFailed)
    expect((error as Error).message).toContain(`step "unbalanced entry"`)
    expect((error as Error).message).toContain("unbalanced_entry")

    const wrongBooks: Scenario.Scenario = {
      name: "Wrong expectations",
      steps: [{ date: "2025-02-04", label: "supplies", operation: "proposeJournalEntry", input: { entry_date: "2025-02-04", lines: [lines[0]!, { account: "1010", credit_cents: 10_00 }] } }],
      expectedBalances: { "6070": 11_00 }
    }
    await expect(ledger.runScenario(wrongBooks)).rejects.toBeInstanceOf(BalanceMismatch)
  })
})
