import { isClientError, type OperationId, type PromiseClient } from "@ledger/client"
import type { NewAgent, NewCompany, TestCompany } from "./TestCompany.ts"
import type { TestLedger } from "./TestLedger.ts"

/**
 * Scenarios: a company's history as a list of dated requests to public operations, replayed
 * against a test ledger in date order with the clock moved to each date. A scenario states what
 * its books must show at the end, computed by its own model, so running it is a test of the
 * ledger as well as a way to give an agent a realistic company to work in.
 */

/** What steps can read: the bodies earlier steps saved, by name. */
export interface StepContext {
  readonly saved: Readonly<Record<string, any>>
}

export type StepExpectation =
  /** Any success (the default). */
  | "ok"
  /** Queued for a person's approval (202). */
  | "queued"
  /** Refused with this error type. */
  | { readonly refused: string }

export interface Step {
  /** YYYY-MM-DD: the clock moves to 09:00 UTC that day before the step (never backwards). */
  readonly date: string
  /** Says what the step is, in failure messages. */
  readonly label: string
  /** `owner` (the default), or the name of one of the scenario's agents. */
  readonly actor?: string
  readonly operation: OperationId
  /** The flat input, or a function of earlier results. */
  readonly input: Readonly<Record<string, unknown>> | ((context: StepContext) => Readonly<Record<string, unknown>>)
  /** Saves the answer's body under this name for later steps. */
  readonly save?: string
  readonly expect?: StepExpectation
}

export interface Scenario {
  readonly name: string
  readonly company?: NewCompany
  /** Agents created before the first step, by name. */
  readonly agents?: ReadonlyArray<NewAgent & { readonly name: string }>
  readonly steps: ReadonlyArray<Step>
  /** Balances in cents by account code the ledger must show at the end (natural direction). */
  readonly expectedBalances?: Readonly<Record<string, number>>
  /** The date `expectedBalances` are as of; default the last step's date. */
  readonly balancesAsOf?: string
}

export interface StepOutcome {
  readonly label: string
  readonly date: string
  readonly operation: string
  readonly status: number
}

/** An agent of a running scenario; its key and client change when it renews its key. */
export interface ScenarioAgent {
  readonly id: number
  keyId: number
  keyExpiresAt: string
  client: PromiseClient
}

export interface ScenarioRun {
  readonly company: TestCompany
  readonly agents: Readonly<Record<string, ScenarioAgent>>
  readonly saved: Readonly<Record<string, unknown>>
  readonly outcomes: ReadonlyArray<StepOutcome>
}

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
