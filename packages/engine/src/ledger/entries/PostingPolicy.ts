import type { ApiError } from "@ledger/api"

/**
 * Who may post what, where (spec 3.1), as one pure decision: the period comes first (a
 * hard-locked date is refused for everyone, a soft-locked one needs a recorded reason), then the
 * actor (a person with the scope posts; an agent posts at or under its posting threshold and
 * proposes above it).
 */

export type PeriodStatus = "open" | "soft_locked" | "hard_locked"
export type Verdict = "post" | "propose" | "refuse"

export interface Reason {
  readonly type: string
  readonly message: string
}

export interface PolicyInput {
  readonly actor: {
    readonly isPerson: boolean
    /** Agents only; null means the agent has none, so every posting is a proposal. */
    readonly postingThresholdCents: number | null
    /**
     * A person who may propose here but not approve (a firm member under a grant or role without
     * `approve`, ADR 0903): their writes wait for a person who may. Absent means false.
     */
    readonly proposesOnly?: boolean | undefined
  }
  readonly totalCents: number
  /** The period containing the entry date; null when no period covers it (treated as open). */
  readonly periodStatus: PeriodStatus | null
  readonly softLockOverrideReason: string | null
  /** A reason the write always waits for a person when an agent makes it (e.g. `receipt_review`). */
  readonly alwaysProposeForAgents?: Reason | null
  /** The company's kill switch is on: agents' writes are refused (only a dry run gets this far). */
  readonly killSwitchSuspended?: boolean | undefined
}

export interface Decision {
  readonly verdict: Verdict
  readonly reasons: ReadonlyArray<Reason>
  /** Set when the verdict is `refuse`: the error the write fails with. */
  readonly refusal: { readonly type: ApiError.ErrorType; readonly message: string } | null
}

const cents = (value: number): string => `${value < 0 ? "-" : ""}${Math.floor(Math.abs(value) / 100)}.${String(Math.abs(value) % 100).padStart(2, "0")}`

/** The period's word on a date, before anyone's policy. */
export const periodCheck = (
  periodStatus: PeriodStatus | null,
  softLockOverrideReason: string | null
): { readonly refusal: Decision["refusal"]; readonly reasons: ReadonlyArray<Reason> } => {
  if (periodStatus === "hard_locked") {
    return {
      refusal: { type: "period_hard_locked", message: "The entry date is in a hard-locked period; nothing posts there." },
      reasons: [{ type: "period_hard_locked", message: "The entry date is in a hard-locked period." }]
    }
  }
  if (periodStatus === "soft_locked" && softLockOverrideReason === null) {
    return {
      refusal: {
        type: "soft_lock_reason_required",
        message: "The entry date is in a soft-locked period: give soft_lock_override_reason to post there."
      },
      reasons: [{ type: "soft_lock_reason_required", message: "The entry date is in a soft-locked period and no override reason was given." }]
    }
  }
  if (periodStatus === "soft_locked") {
    return { refusal: null, reasons: [{ type: "soft_lock_override", message: "Posts into a soft-locked period with the reason recorded." }] }
  }
  return { refusal: null, reasons: [] }
}

export const decide = (input: PolicyInput): Decision => {
  const period = periodCheck(input.periodStatus, input.softLockOverrideReason)
  if (period.refusal !== null) return { verdict: "refuse", reasons: period.reasons, refusal: period.refusal }
  if (!input.actor.isPerson && input.killSwitchSuspended === true) {
    const message = "Agent writes are suspended by the company's kill switch."
    return { verdict: "refuse", reasons: [...period.reasons, { type: "kill_switch_active", message }], refusal: { type: "kill_switch_active", message } }
  }
  if (input.actor.isPerson && input.actor.proposesOnly === true) {
    return {
      verdict: "propose",
      reasons: [...period.reasons, {
        type: "approval_required",
        message: "This person may propose here but not approve: a person with the approve scope decides."
      }],
      refusal: null
    }
  }
  if (input.actor.isPerson) {
    return {
      verdict: "post",
      reasons: [...period.reasons, { type: "person", message: "A person with the scope posts." }],
      refusal: null
    }
  }
  if (input.alwaysProposeForAgents !== undefined && input.alwaysProposeForAgents !== null) {
    return { verdict: "propose", reasons: [...period.reasons, input.alwaysProposeForAgents], refusal: null }
  }
  const threshold = input.actor.postingThresholdCents ?? 0
  if (input.totalCents <= threshold) {
    return {
      verdict: "post",
      reasons: [...period.reasons, {
        type: "within_threshold",
        message: `The total ${cents(input.totalCents)} is at or under the agent's posting threshold ${cents(threshold)}.`
      }],
      refusal: null
    }
  }
  return {
    verdict: "propose",
    reasons: [...period.reasons, {
      type: "over_threshold",
      message: `The total ${cents(input.totalCents)} is over the agent's posting threshold ${cents(threshold)}.`
    }],
    refusal: null
  }
}

export const formatCents = cents
