import { Effect, Option } from "effect"
import { SqlClient } from "effect/sql"
import { ApiError, type Auth } from "@ledger/api"
import * as Row from "../../kernel/Row.ts"
import { Entropy } from "../../ports/Entropy.ts"
import { RelyingParty } from "../../ports/RelyingParty.ts"
import type { StoredPasskey } from "./PasskeyRules.ts"
import { limits } from "../common/SignInRules.ts"

/** Passkeys and WebAuthn challenges as stored: challenges single use, 5 minutes. */

export const relyingParty = Effect.gen(function*() {
  const rp = yield* Effect.serviceOption(RelyingParty)
  if (Option.isNone(rp)) {
    return yield* Effect.fail(ApiError.fail("service_unavailable", "Passkeys need the web app's address (LEDGER_APP_URL).", { configure: "LEDGER_APP_URL" }))
  }
  return rp.value
})

export const challengeBytes = Effect.gen(function*() {
  const entropy = yield* Entropy
  return yield* entropy.bytes(32)
})

export const saveChallenge = Effect.fn("PasskeyStore.saveChallenge")(function*(
  challenge: string,
  purpose: "sign_in" | "register" | "step_up",
  now: string,
  owner: { readonly person: string; readonly sessionId: number } | null = null
) {
  const sql = yield* SqlClient.SqlClient
  const expiresAt = new Date(Date.parse(now) + limits.challengeValidMs).toISOString()
  // Challenges a day past their end are of no use, even to the audit: the table keeps only live ones and the last day's.
  yield* sql`DELETE FROM auth_challenges WHERE expires_at < ${new Date(Date.parse(now) - 86_400_000).toISOString()}`.pipe(Effect.orDie)
  yield* sql`INSERT INTO auth_challenges ${sql.insert({
    challenge,
    purpose,
    person: owner?.person ?? null,
    session_id: owner?.sessionId ?? null,
    created_at: now,
    expires_at: expiresAt
  })}`.pipe(Effect.orDie)
  return expiresAt
})

/**
 * Takes a challenge for good: true when it was live, of this purpose (and this session's, when
 * given). A taken challenge never works again, whatever the message it came with proves.
 */
export const takeChallenge = Effect.fn("PasskeyStore.takeChallenge")(function*(
  challenge: string | null,
  purpose: "sign_in" | "register" | "step_up",
  now: string,
  sessionId: number | null = null
) {
  const sql = yield* SqlClient.SqlClient
  if (challenge === null) return false
  const rows = yield* sql`UPDATE auth_challenges SET used_at = ${now}
    WHERE challenge = ${challenge} AND purpose = ${purpose} AND used_at IS NULL AND expires_at > ${now}
    ${sessionId === null ? sql`` : sql`AND session_id = ${sessionId}`} RETURNING id`.pipe(Effect.orDie)
  return rows.length === 1
})

export const toWire = (row: Record<string, unknown>): Auth.Security.Passkey => ({
  id: Row.int(row.id),
  name: String(row.name),
  created_at: Row.iso(row.created_at),
  last_used_at: Row.isoOrNull(row.last_used_at)
})

export const storedOf = (row: Record<string, unknown>): StoredPasskey => ({
  credentialId: String(row.credential_id),
  publicKey: Row.bytesOrNull(row.public_key) ?? new Uint8Array(),
  signCount: Row.int(row.sign_count),
  transports: Row.json<Array<string>>(row.transports)
})

export const byCredentialId = Effect.fn("PasskeyStore.byCredentialId")(function*(credentialId: string, person: string | null = null) {
  const sql = yield* SqlClient.SqlClient
  const rows = yield* sql<Record<string, unknown>>`SELECT * FROM auth_passkeys WHERE credential_id = ${credentialId}
    AND removed_at IS NULL ${person === null ? sql`` : sql`AND person = ${person}`} FOR UPDATE`.pipe(Effect.orDie)
  return rows[0] ?? null
})

export const listOf = Effect.fn("PasskeyStore.listOf")(function*(person: string) {
  const sql = yield* SqlClient.SqlClient
  return yield* sql<Record<string, unknown>>`SELECT * FROM auth_passkeys WHERE person = ${person} AND removed_at IS NULL
    ORDER BY id`.pipe(Effect.orDie)
})

export const recordUse = Effect.fn("PasskeyStore.recordUse")(function*(id: number, signCount: number, now: string) {
  const sql = yield* SqlClient.SqlClient
  yield* sql`UPDATE auth_passkeys SET sign_count = ${signCount}, last_used_at = ${now} WHERE id = ${id}`.pipe(Effect.orDie)
})
