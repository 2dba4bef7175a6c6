import { newKey, type TestApp } from "../support/index.ts"

/** The ledger tests' own helpers: entries and balances (agents, people and MCP are in test/support). */

/** Two lines: debit one account, credit another. */
export const simpleLines = (debit: string, credit: string, cents: number) => [
  { account: debit, debit_cents: cents },
  { account: credit, credit_cents: cents }
]

export const propose = (
  app: TestApp,
  token: string,
  body: Record<string, unknown>,
  options: { readonly headers?: Record<string, string>; readonly key?: string | null } = {}
) =>
  app.call("POST", "/v1/journal-entries/propose", {
    token,
    body,
    ...(options.key === null ? {} : { key: options.key ?? newKey() }),
    ...(options.headers === undefined ? {} : { headers: options.headers })
  })

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
