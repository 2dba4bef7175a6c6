import { Effect } from "effect"
import { SqlClient } from "effect/sql"
import * as Secret from "../../kernel/Secret.ts"

/**
 * The operator bootstrap token. Given one (LEDGER_OPERATOR_TOKEN) its hash replaces the stored
 * one; given none on a store that has none, one is generated and returned to be printed once.
 * Only the hash is ever stored.
 */
export const ensure = Effect.fn("Operator.ensure")(function*(configured: string | undefined, now: string) {
  const sql = yield* SqlClient.SqlClient
  if (configured !== undefined && configured !== "") {
    const hash = yield* Secret.hash(configured)
    yield* sql`INSERT INTO operator_credentials (id, token_hash, created_at) VALUES (1, ${hash}, ${now})
      ON CONFLICT (id) DO UPDATE SET token_hash = EXCLUDED.token_hash`
    return { generated: null as string | null }
  }
  const existing = yield* sql`SELECT 1 FROM operator_credentials WHERE id = 1`
  if (existing.length > 0) return { generated: null as string | null }
  const token = yield* Secret.generate("ldgop_")
  const hash = yield* Secret.hash(token)
  const inserted = yield* sql`INSERT INTO operator_credentials (id, token_hash, created_at) VALUES (1, ${hash}, ${now})
    ON CONFLICT (id) DO NOTHING RETURNING id`
  // Another replica may have generated one first; then this one is not the token.
  return { generated: inserted.length > 0 ? token : null }
})
