import type { Fetch } from "./metered.ts"

/**
 * The company whose month the scripted agent closes (issue 40 item 5), set up over HTTP by its
 * owner as the months before it left it: a checking account on 1010, the rules a person wrote for
 * the recurring payees, a customer, and a bookkeeping agent (read and propose, posting up to
 * $2,500 on its own). The month's statement is the agent's to import.
 */

export interface MonthEndCompany {
  /** YYYY-MM, the month to close. */
  readonly month: string
  readonly lastDay: string
  readonly bankAccountId: number
  readonly customerId: number
  readonly agentKey: string
  readonly ownerKey: string
  /** The month's bank statement (CSV) and its ending balance. */
  readonly statement: string
  readonly endingBalanceCents: number
  readonly thresholdCents: number
}

export const agentThresholdCents = 250_000

/** The month's lines: [day, payee, signed amount in cents]. */
export const statementLines: ReadonlyArray<readonly [number, string, number]> = [
  [2, "Owner transfer in", 2_000_000],
  [3, "Dell Technologies laptop and monitors", -600_000],
  [5, "Hartford insurance premium", -30_000],
  [10, "Amazon Web Services", -12_000],
  [20, "Acme Corp payment", 150_000],
  [28, "Monthly service fee", -1_500]
]

const dollars = (cents: number) => `${cents < 0 ? "-" : ""}${Math.floor(Math.abs(cents) / 100)}.${String(Math.abs(cents) % 100).padStart(2, "0")}`

export const lastDayOf = (month: string): string => {
  const [year, number] = month.split("-").map(Number) as [number, number]
  return `${month}-${String(new Date(Date.UTC(year, number, 0)).getUTCDate()).padStart(2, "0")}`
}

export const dayOf = (month: string, day: number) => `${month}-${String(day).padStart(2, "0")}`

let keys = 0
const newKey = () => `month-end-${Date.now().toString(36)}-${(keys++).toString(36)}-${Math.random().toString(36).slice(2, 8)}`

/** One write by the owner, its 201 body or an error naming what failed. */
const writer = (fetch: Fetch, base: string, token: string) => async (path: string, body: unknown): Promise<any> => {
  const response = await fetch(new Request(`${base}${path}`, {
    method: "POST",
    headers: { authorization: `Bearer ${token}`, "content-type": "application/json", "idempotency-key": newKey() },
    body: JSON.stringify(body)
  }))
  const answer = await response.json() as any
  if (response.status !== 201) throw new Error(`set-up ${path}: ${response.status} ${JSON.stringify(answer)}`)
  return answer
}

/** Sets the company up for `month` over HTTP at `base` (the API's root), as its owner. */
export const setUpMonthEnd = async (fetch: Fetch, base: string, ownerKey: string, month: string): Promise<MonthEndCompany> => {
  const write = writer(fetch, base, ownerKey)
  const bank = await write("/v1/bank-accounts", { name: "Operating checking", kind: "checking", ledger_account: "1010", mask: "4321" })
  const rules = [
    { name: "Owner transfers are investment", priority: 10, payee_contains: "owner transfer", direction: "in", account: "3010" },
    { name: "Hartford is insurance", priority: 20, payee_contains: "hartford", direction: "out", account: "6030" },
    { name: "Bank fees", priority: 30, payee_contains: "service fee", direction: "out", account: "6010" }
  ]
  for (const rule of rules) await write("/v1/bank-rules", rule)
  const customer = await write("/v1/contacts", { kind: "customer", name: "Acme Corp", email: "ap@acme.example", terms_days: 30 })
  const agent = await write("/v1/agents", { name: "Month-end agent", scopes: ["read", "propose"], posting_threshold_cents: agentThresholdCents })
  const key = await write("/v1/keys", { principal_type: "agent", agent_id: agent.id, scopes: ["read", "propose"] })
  const rows = statementLines.map(([day, payee, cents]) => `${dayOf(month, day)},${payee},${dollars(cents)}`)
  return {
    month,
    lastDay: lastDayOf(month),
    bankAccountId: bank.id,
    customerId: customer.id,
    agentKey: key.secret,
    ownerKey,
    statement: ["Date,Description,Amount", ...rows].join("\n") + "\n",
    endingBalanceCents: statementLines.reduce((sum, [, , cents]) => sum + cents, 0),
    thresholdCents: agentThresholdCents
  }
}
