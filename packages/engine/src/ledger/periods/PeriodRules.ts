import type { ApiError } from "@ledger/api"

/**
 * Period status transitions (spec 3.2). Admins move open and soft-locked periods freely between
 * open, soft-locked and hard-locked; a hard lock only ever goes back to open, by a person, with a
 * reason. Agents may never reopen one.
 */

export type Status = "open" | "soft_locked" | "hard_locked"

export interface Transition {
  readonly from: Status
  readonly to: Status
  readonly actorIsPerson: boolean
  readonly reason: string | null
  /**
   * The reason the period was locked with, if any. A reopening states its own (the database's
   * period guard, migration 0039, refuses one that repeats the lock's: ADR 2016).
   */
  readonly lockReason?: string | null
}

export type Verdict =
  | { readonly _tag: "Unchanged" }
  | { readonly _tag: "Allowed" }
  | {
    readonly _tag: "Refused"
    readonly type: ApiError.ErrorType
    readonly message: string
    readonly field?: "reason"
  }

export const check = (transition: Transition): Verdict => {
  const { actorIsPerson, from, reason, to } = transition
  if (from === to) return { _tag: "Unchanged" }
  if (from !== "hard_locked") return { _tag: "Allowed" }
  if (to !== "open") {
    return {
      _tag: "Refused",
      type: "invalid_period_transition",
      message: "A hard-locked period can only be reopened (to open)."
    }
  }
  if (!actorIsPerson) return { _tag: "Refused", type: "insufficient_scope", message: "Only a person may reopen a hard-locked period." }
  if (reason === null || reason.trim() === "") {
    return { _tag: "Refused", type: "validation_failed", message: "Reopening a hard-locked period needs a reason.", field: "reason" }
  }
  if (transition.lockReason !== undefined && transition.lockReason !== null && reason === transition.lockReason) {
    return { _tag: "Refused", type: "validation_failed", message: "Reopening a hard-locked period needs its own reason, not the lock's.", field: "reason" }
  }
  return { _tag: "Allowed" }
}
