/**
 * Who may send what without a second pair of eyes (spec 3.8, 4.10). A person's send to the
 * customer's address on file is queued at once. An agent's send waits in `pending_approval`
 * when it goes to any other address, or when the document's amount is over the agent's posting
 * threshold (the same policy that governs its postings).
 */
export interface PolicyInput {
  readonly isPerson: boolean
  readonly postingThresholdCents: number | null
  readonly to: string
  readonly cc: ReadonlyArray<string>
  readonly addressOnFile: string | null
  readonly amountCents: number
}

export interface Verdict {
  readonly verdict: "send" | "approve"
  readonly reasons: ReadonlyArray<string>
}

const same = (a: string, b: string | null) => b !== null && a.trim().toLowerCase() === b.trim().toLowerCase()

export const decide = (input: PolicyInput): Verdict => {
  if (input.isPerson) return { verdict: "send", reasons: ["person"] }
  const reasons: Array<string> = []
  if (!same(input.to, input.addressOnFile)) reasons.push("non_default_recipient")
  if (input.cc.some((address) => !same(address, input.addressOnFile))) reasons.push("non_default_cc")
  if (input.amountCents > (input.postingThresholdCents ?? 0)) reasons.push("over_threshold")
  return reasons.length === 0 ? { verdict: "send", reasons: ["within_policy"] } : { verdict: "approve", reasons }
}
