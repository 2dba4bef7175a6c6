import { Effect, Option } from "effect"
import { SqlClient, type SqlError } from "effect/sql"
import { operator } from "../kernel/Actor.ts"
import * as Secret from "../kernel/Secret.ts"
import { type Authenticated, type CredentialStrategy, type Refused, refusedUnknown } from "../pipeline/authenticate/Credential.ts"

/**
 * The operator bootstrap token. Given one (LEDGER_OPERATOR_TOKEN) its hash replaces the stored
 * one; given none on a store that has none, one is generated and returned to be printed once.
 * Only the hash is ever stored.
 */
export const ensure = Effect.fn("OperatorToken.ensure")(function*(configured: string | undefined, now: string) {
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

/** Checks the operator bootstrap token against the stored hash. */
export const authenticate = Effect.fn("OperatorToken.authenticate")(function*(
  token: string
): Effect.fn.Return<Authenticated, Refused | SqlError.SqlError, SqlClient.SqlClient> {
  const sql = yield* SqlClient.SqlClient
  const hash = yield* Secret.hash(token)
  const rows = yield* sql<{ token_hash: string }>`SELECT token_hash FROM operator_credentials WHERE id = 1`
  const stored = rows[0]?.token_hash
  if (stored === undefined || !constantTimeEqual(stored, hash)) {
    return yield* Effect.fail(refusedUnknown("The operator token is not valid."))
  }
  return { actor: operator, company: null }
})

const constantTimeEqual = (a: string, b: string): boolean => {
  if (a.length !== b.length) return false
  let difference = 0
  for (let index = 0; index < a.length; index++) difference |= a.charCodeAt(index) ^ b.charCodeAt(index)
  return difference === 0
}

/**
 * A configured operator token may be any text (LEDGER_OPERATOR_TOKEN), so every token is
 * recognised; only operator operations ask this strategy.
 */
export const strategy: CredentialStrategy = {
  name: "operator_token",
  door: "operator",
  order: 10,
  recognises: () => true,
  authenticate: (token) => Effect.map(authenticate(token), Option.some)
}
