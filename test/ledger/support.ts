import type { TestApp } from "../support/index.ts"

/** The ledger tests' own helpers: balances (entries, agents, people and MCP are in test/support). */

export { propose, simpleLines } from "../support/postings.ts"

/** The company's balances by account code, as GET /v1/accounts reports them. */
export const balances = async (app: TestApp, token: string, asOf?: string): Promise<Record<string, number>> => {
  const result = await app.call(
    "GET",
    `/v1/accounts?include_balances=true&include_inactive=true&limit=1000${asOf === undefined ? "" : `&as_of=${asOf}`}`,
    { token }
  )
  if (result.status !== 200) throw new Error(`accounts: ${result.status} ${JSON.stringify(result.body)}`)
  return Object.fromEntries(result.body.data.map((account: { code: string; balance_cents: number }) => [account.code, account.balance_cents]))
}

/** Today's date as the server sees it (UTC). */
export const today = () => new Date().toISOString().slice(0, 10)
