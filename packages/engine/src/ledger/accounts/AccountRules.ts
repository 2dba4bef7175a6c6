/**
 * An account and a class as the posting path sees them, and the natural direction of an account's
 * balance: pure data and one pure function, below the journal's rules that resolve lines against
 * them (entries/JournalEntryRules.ts re-exports all three, as `@ledger/engine/rules` always had them).
 */

export interface AccountRef {
  readonly id: number
  readonly code: string
  readonly name: string
  readonly type: "asset" | "liability" | "equity" | "income" | "expense"
  readonly active: boolean
  /** Set on the AR and AP control accounts (entries/ControlAccountRules.ts); absent means none. */
  readonly control?: "ar" | "ap" | null | undefined
  /**
   * The account's all-time debit and credit turnover, read by the posting path only (ADR 0717):
   * an entry that would take either past Number.MAX_SAFE_INTEGER is refused. Absent: not checked.
   */
  readonly turnover?: { readonly debitCents: bigint; readonly creditCents: bigint } | undefined
}

export interface ClassRef {
  readonly id: number
  readonly name: string
}

/**
 * The signed change of a balance kept in the account's natural direction (DECISIONS.md): assets
 * and expenses grow with debits; liabilities, equity and income with credits.
 */
export const naturalSign = (type: AccountRef["type"]): 1 | -1 => type === "asset" || type === "expense" ? 1 : -1
