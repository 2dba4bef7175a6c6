import { isClientError } from "@ledger/client"
import type { Scenario, ScenarioAgent, ScenarioRun, Step, StepOutcome, TestLedger } from "./Model.ts"

export type { Scenario, ScenarioAgent, ScenarioRun, Step, StepContext, StepExpectation, StepOutcome } from "./Model.ts"

/**
 * Scenarios: a company's history as a list of dated requests to public operations, replayed
 * against a test ledger in date order with the clock moved to each date. A scenario states what
 * its books must show at the end, computed by its own model, so running it is a test of the
 * ledger as well as a way to give an agent a realistic company to work in.
 */

/** A step did not end as the scenario says it must. */
export class ScenarioStepFailed extends Error {
  override readonly name = "ScenarioStepFailed"
  constructor(readonly scenario: string, readonly step: Step, readonly detail: string, override readonly cause?: unknown) {
    super(`${scenario}: step "${step.label}" (${step.date}, ${step.operation}) ${detail}`)
  }
}

/** Steps in date order; steps of one date keep the order they were given in. */
export const ordered = (steps: ReadonlyArray<Step>): ReadonlyArray<Step> =>
  steps.map((step, index) => ({ step, index }))
    .sort((left, right) => left.step.date.localeCompare(right.step.date) || left.index - right.index)
    .map(({ step }) => step)

const describe = (error: unknown): string =>
  isClientError(error) ? `${error.type}: ${error.message}` : error instanceof Error ? error.message : String(error)

/** An agent renews its key this long before it expires, as a long-running agent must. */
export const keyRenewalMs = 7 * 86_400_000

/** Rotates the agent's key with the agent's own key (agents may) when it is close to expiring. */
const renewNearExpiry = async (agent: ScenarioAgent, nowMs: number) => {
  if (Date.parse(agent.keyExpiresAt) - nowMs > keyRenewalMs) return
  const rotated = await agent.client.rotateKey({ id: agent.keyId, overlap_seconds: 0, reason: "Scheduled renewal" })
  agent.keyId = rotated.key.id
  agent.keyExpiresAt = rotated.key.expires_at
  agent.client = agent.client.with({ token: rotated.secret })
}

/**
 * Replays a scenario in a new company of the ledger; fails at the first step that goes otherwise.
 * Agents renew their keys as they near expiry (agents' keys last at most 90 days).
 */
export const run = async (ledger: TestLedger, scenario: Scenario): Promise<ScenarioRun> => {
  const company = await ledger.createCompany(scenario.company ?? { name: scenario.name })
  const agents: Record<string, ScenarioAgent> = {}
  for (const agent of scenario.agents ?? []) {
    const made = await company.createAgent(agent)
    agents[agent.name] = { id: made.id, keyId: made.keyId, keyExpiresAt: made.keyExpiresAt, client: made.client }
  }
  const saved: Record<string, unknown> = {}
  const outcomes: Array<StepOutcome> = []
  const steps = ordered(scenario.steps)

  for (const step of steps) {
    const at = Date.parse(`${step.date}T09:00:00.000Z`)
    if (Number.isNaN(at)) throw new ScenarioStepFailed(scenario.name, step, "has no valid date")
    if (at > Date.parse(ledger.clock.now())) ledger.clock.set(at)

    const agent = step.actor === undefined || step.actor === "owner" ? undefined : agents[step.actor]
    if (step.actor !== undefined && step.actor !== "owner" && agent === undefined) {
      throw new ScenarioStepFailed(scenario.name, step, `names no known actor "${step.actor}"`)
    }
    // Time passes for every agent, not only the one acting.
    for (const each of Object.values(agents)) await renewNearExpiry(each, Date.parse(ledger.clock.now()))
    const client = agent?.client ?? company.client
    const input = typeof step.input === "function" ? step.input({ saved }) : step.input
    const expectation = step.expect ?? "ok"

    let status: number
    try {
      const response = await client.request(step.operation, input as never)
      status = response.status
      if (typeof expectation === "object") {
        throw new ScenarioStepFailed(scenario.name, step, `should be refused with ${expectation.refused} but answered ${status}`)
      }
      if (expectation === "queued" && status !== 202) {
        throw new ScenarioStepFailed(scenario.name, step, `should be queued for approval (202) but answered ${status}`)
      }
      if (expectation === "ok" && status === 202) {
        throw new ScenarioStepFailed(scenario.name, step, "was queued for approval (202) where it should take effect")
      }
      if (step.save !== undefined) saved[step.save] = response.body
    } catch (error) {
      if (error instanceof ScenarioStepFailed) throw error
      if (typeof expectation === "object" && isClientError(error) && error.type === expectation.refused) {
        outcomes.push({ label: step.label, date: step.date, operation: step.operation, status: "status" in error ? error.status : 0 })
        continue
      }
      throw new ScenarioStepFailed(scenario.name, step, `failed: ${describe(error)}`, error)
    }
    outcomes.push({ label: step.label, date: step.date, operation: step.operation, status })
  }

  if (scenario.expectedBalances !== undefined) {
    const asOf = scenario.balancesAsOf ?? steps.at(-1)?.date ?? ledger.clock.today()
    await company.assertBalances(scenario.expectedBalances, { asOf })
  }
  return { company, agents, saved, outcomes }
}
