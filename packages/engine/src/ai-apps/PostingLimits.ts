import { Effect } from "effect"
import { SqlClient } from "effect/sql"
import type { PostingLimit } from "../kernel/Registry.ts"
import { RequestContext } from "../kernel/RequestContext.ts"
import * as Row from "../kernel/Row.ts"
import { accountsRefusal, dailyCapRefusal } from "./ConnectionRules.ts"

/**
 * A `post` app's bounds beyond its per-entry cap (its agent's threshold), asked by the governed
 * write path inside the posting's transaction (kernel/Registry.ts `PostingLimit`, ADR 1702):
 *
 * - the allowed accounts: an entry touching an account outside `account_codes`, or any equity
 *   account, becomes a proposal;
 * - the daily cap, per company per UTC day: the posting is counted in `ai_connection_usage` by one
 *   conditional upsert that adds it only while the sum stays within the cap. Of two concurrent
 *   postings the second waits for the first's row and then sees its sum (PostgreSQL re-reads the
 *   row an UPDATE waited for), so together they never pass the cap; the one that does not fit
 *   becomes a proposal. The count rolls back with the write.
 */

export const limit: PostingLimit = (input) =>
  Effect.gen(function*() {
    const request = yield* RequestContext
    const connectionId = request.actor.aiConnectionId
    const companyId = request.companyId
    if (connectionId === null || connectionId === undefined || companyId === null) return null
    const sql = yield* SqlClient.SqlClient
    const rows = yield* sql<Record<string, unknown>>`SELECT daily_cap_cents, account_codes FROM ai_connections
      WHERE id = ${connectionId}`.pipe(Effect.orDie)
    const row = rows[0]
    if (row === undefined) return null
    const allowed = row.account_codes === null ? null : Row.textArray<string>(row.account_codes)
    const accounts = accountsRefusal(allowed, input.accounts)
    if (accounts !== null) return accounts
    const cap = Row.intOrNull(row.daily_cap_cents)
    if (cap === null) return null
    if (!input.reserve) {
      const used = yield* sql<{ posted_cents: unknown }>`SELECT posted_cents FROM ai_connection_usage
        WHERE connection_id = ${connectionId} AND company_id = ${companyId} AND day = ${request.today}`.pipe(Effect.orDie)
      return dailyCapRefusal(cap, used[0] === undefined ? 0 : Row.int(used[0].posted_cents), input.totalCents)
    }
    const counted = yield* sql<{ posted_cents: unknown }>`INSERT INTO ai_connection_usage AS u (connection_id, company_id, day, posted_cents)
      SELECT ${connectionId}, ${companyId}::uuid, ${request.today}::date, ${input.totalCents}::bigint WHERE ${input.totalCents}::bigint <= ${cap}::bigint
      ON CONFLICT (connection_id, company_id, day) DO UPDATE SET posted_cents = u.posted_cents + EXCLUDED.posted_cents
        WHERE u.posted_cents + EXCLUDED.posted_cents <= ${cap}::bigint
      RETURNING u.posted_cents`.pipe(Effect.orDie)
    if (counted.length > 0) return null
    const used = yield* sql<{ posted_cents: unknown }>`SELECT posted_cents FROM ai_connection_usage
      WHERE connection_id = ${connectionId} AND company_id = ${companyId} AND day = ${request.today}`.pipe(Effect.orDie)
    return dailyCapRefusal(cap, used[0] === undefined ? 0 : Row.int(used[0].posted_cents), input.totalCents) ??
      { type: "over_daily_cap", message: `This AI app's daily cap of ${cap} cents would be passed: a person decides.` }
  })
