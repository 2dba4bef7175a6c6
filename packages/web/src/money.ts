/**
 * Amounts are integer cents end to end; they are formatted with integer arithmetic only, never
 * through a float: 123456 -> "1,234.56", -5 -> "-0.05".
 */
export const formatCents = (cents: number): string => {
  if (!Number.isSafeInteger(cents)) return "—"
  const negative = cents < 0
  const digits = String(negative ? -cents : cents).padStart(3, "0")
  const whole = digits.slice(0, -2).replace(/\B(?=(\d{3})+(?!\d))/g, ",")
  return `${negative ? "-" : ""}${whole}.${digits.slice(-2)}`
}

/**
 * Cents from what a person types ("1,234.5", "12", "0.05"), by string parsing only; null when it
 * is not a non-negative amount with at most two decimals.
 */
export const parseCents = (text: string): number | null => {
  const match = /^(\d{1,13})(?:\.(\d{1,2}))?$/.exec(text.trim().replace(/,/g, ""))
  if (match === null) return null
  return Number(match[1]) * 100 + Number((match[2] ?? "").padEnd(2, "0"))
}
