/**
 * What the provider says it holds for the business (spec 4.2, "clearing balance versus provider";
 * issue 39 item 6): read from the processor's balance at each sync and kept with when it was read,
 * so a connection's answer shows it without calling the provider on every read.
 */
export const sql = `
ALTER TABLE integration_connections
  ADD COLUMN provider_balance_cents bigint CHECK (provider_balance_cents BETWEEN -9007199254740991 AND 9007199254740991),
  ADD COLUMN provider_balance_at timestamptz;
`
