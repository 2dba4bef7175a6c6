import type { PolicyRule } from "./Categorizer.ts"

/** What this agent knows how to book, on the `general` starter chart. Everything else waits for a person. */
export const policy: ReadonlyArray<PolicyRule> = [
  { pattern: /coffee|cafe|restaurant|grill/i, account: "6060", direction: "out", memo: "Meals" },
  { pattern: /office depot|staples|adobe|github/i, account: "6070", direction: "out", memo: "Office supplies and software" },
  { pattern: /properties|rent/i, account: "6080", direction: "out", memo: "Rent" },
  { pattern: /service charge|monthly fee/i, account: "6010", direction: "out", memo: "Bank fees" },
  { pattern: /stripe payout|square deposit/i, account: "4000", direction: "in", memo: "Card sales" }
]
