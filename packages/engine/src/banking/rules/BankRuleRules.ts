/**
 * Bank rules (spec 4.5): evaluated in priority order (lowest number first), then by age (oldest
 * first); the first active rule whose every condition holds gives the suggestion shown on an
 * unmatched line. Rules never post.
 */

export interface Rule {
  readonly id: number
  readonly name: string
  readonly priority: number
  readonly createdAt: string
  readonly active: boolean
  readonly bankAccountId: number | null
  readonly payeeContains: string | null
  readonly direction: "in" | "out" | "any"
  readonly amountMinCents: number | null
  readonly amountMaxCents: number | null
  readonly account: string
  readonly className: string | null
  readonly memo: string | null
}

export interface LineFacts {
  readonly bankAccountId: number
  readonly amountCents: number
  readonly payee: string | null
  readonly memo: string | null
}

/** Evaluation order: priority, then age, then id (two rules made in the same instant). */
export const compare = (left: Rule, right: Rule): number =>
  left.priority - right.priority || left.createdAt.localeCompare(right.createdAt) || left.id - right.id

export const matches = (rule: Rule, line: LineFacts): boolean => {
  if (!rule.active) return false
  if (rule.bankAccountId !== null && rule.bankAccountId !== line.bankAccountId) return false
  if (rule.direction === "in" && line.amountCents <= 0) return false
  if (rule.direction === "out" && line.amountCents >= 0) return false
  const size = Math.abs(line.amountCents)
  if (rule.amountMinCents !== null && size < rule.amountMinCents) return false
  if (rule.amountMaxCents !== null && size > rule.amountMaxCents) return false
  if (rule.payeeContains !== null) {
    // The payee text is looked for in the payee and, for banks that put it there, the memo.
    const needle = rule.payeeContains.toLowerCase()
    const haystack = `${line.payee ?? ""}\n${line.memo ?? ""}`.toLowerCase()
    if (!haystack.includes(needle)) return false
  }
  return true
}

/** The first matching rule in evaluation order, or undefined. */
export const firstMatch = (rules: ReadonlyArray<Rule>, line: LineFacts): Rule | undefined =>
  [...rules].sort(compare).find((rule) => matches(rule, line))
