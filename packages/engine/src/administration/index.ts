import { Effect } from "effect"
import { SqlClient } from "effect/sql"
import { Administration, type Scope } from "@ledger/api"
import * as Row from "../kernel/Row.ts"
import * as Area from "../pipeline/Area.ts"
import * as ApiKeyCredential from "./ApiKeyCredential.ts"
import * as ApiKeys from "./ApiKeys.ts"
import * as AuditLog from "./AuditLog.ts"
import * as Companies from "./Companies.ts"
import * as Meta from "./Meta.ts"
import * as OperatorToken from "./OperatorToken.ts"
import * as People from "./People.ts"

/** Companies, their people and agents, API keys, the audit log, and the server's meta operations. */
export const area = Area.make({
  name: "administration",
  operations: Administration.operations,
  handlers: [...Meta.handlers, ...Companies.handlers, ...People.handlers, ...ApiKeys.handlers, ...AuditLog.handlers],
  servedByTheServer: ["getOpenApi", "postMcp"],
  // The operator's token and the companies' API keys (OperatorToken.ts, ApiKeyCredential.ts).
  credentialStrategies: [OperatorToken.strategy, ApiKeyCredential.strategy]
})

/** Company creation, for firms' new clients: the company, its owner and its setup, made here only. */
export { createCompanyWithOwner } from "./Companies.ts"

/**
 * Agents other areas make and end for their own connections (an integration's sync agent), so
 * administration stays the one writer of `agents` and of the keys a revoked agent loses.
 */
export const createAgent = Effect.fn("Administration.createAgent")(function*(companyId: string, agent: {
  readonly name: string
  readonly scopes: ReadonlyArray<Scope.Scope>
  readonly postingThresholdCents: number
}, now: string) {
  const sql = yield* SqlClient.SqlClient
  const rows = yield* sql<{ id: unknown }>`INSERT INTO agents ${sql.insert({
    company_id: companyId,
    name: agent.name.slice(0, 200),
    scopes: JSON.stringify(Array.from(new Set(agent.scopes))),
    posting_threshold_cents: agent.postingThresholdCents,
    created_at: now
  })} RETURNING id`.pipe(Effect.orDie)
  return Row.int(rows[0]!.id)
})

export const setAgentPostingThreshold = Effect.fn("Administration.setAgentPostingThreshold")(function*(companyId: string, agentId: number, cents: number) {
  const sql = yield* SqlClient.SqlClient
  yield* sql`UPDATE agents SET posting_threshold_cents = ${cents} WHERE company_id = ${companyId} AND id = ${agentId}`.pipe(Effect.orDie)
})

/** Revokes an agent and its keys, as `POST /v1/agents/{id}/revoke` does; an agent already revoked is left as it is. */
export const revokeAgent = Effect.fn("Administration.revokeAgent")(function*(companyId: string, agentId: number, reason: string, now: string) {
  const sql = yield* SqlClient.SqlClient
  const revoked = yield* sql`UPDATE agents SET status = 'revoked', revoked_at = ${now}, revoked_reason = ${reason}
    WHERE company_id = ${companyId} AND id = ${agentId} AND status = 'active' RETURNING id`.pipe(Effect.orDie)
  if (revoked.length === 0) return
  yield* sql`UPDATE api_keys SET revoked_at = ${now}, revoked_reason = ${"agent revoked: " + reason}
    WHERE company_id = ${companyId} AND agent_id = ${agentId} AND revoked_at IS NULL`.pipe(Effect.orDie)
})

