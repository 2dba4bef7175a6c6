import { Effect } from "effect"
import { SqlClient } from "effect/sql"
import { Firms as FirmsApi, type Scope } from "@ledger/api"
import * as Secret from "../kernel/Secret.ts"
import { secondsLater } from "./FirmContext.ts"
import * as FirmRows from "./FirmRows.ts"

/**
 * Firm sessions (`ldgf_`, spec 5.1): 8 hours idle, 7 days at most, never past the key they were
 * opened with. `open` is the seam the sign-in of the auth area uses for a member who signs in
 * through the web (`via: "sign_in"`, no key); `POST /v1/firm/sessions` opens one from a key.
 */
const { FirmLimits } = FirmsApi

export const open = Effect.fn("FirmSessionStore.open")(function*(input: {
  readonly firmId: number
  readonly memberId: number
  readonly keyId: number | null
  readonly keyExpiresAt: string | null
  readonly scopes: ReadonlyArray<Scope.Scope>
  readonly via: "key" | "sign_in"
  readonly now: string
}) {
  const sql = yield* SqlClient.SqlClient
  const secret = yield* Secret.generate("ldgf_")
  const lifetimeEnd = secondsLater(input.now, FirmLimits.sessionLifetimeSeconds)
  const expiresAt = input.keyExpiresAt !== null && input.keyExpiresAt < lifetimeEnd ? input.keyExpiresAt : lifetimeEnd
  const idle = secondsLater(input.now, FirmLimits.sessionIdleSeconds)
  const rows = yield* sql<Record<string, unknown>>`INSERT INTO firm_sessions ${sql.insert({
    firm_id: input.firmId,
    secret_hash: yield* Secret.hash(secret),
    prefix: Secret.displayPrefix(secret),
    member_id: input.memberId,
    key_id: input.keyId,
    scopes: JSON.stringify(input.scopes),
    via: input.via,
    last_seen_at: input.now,
    idle_expires_at: idle < expiresAt ? idle : expiresAt,
    expires_at: expiresAt,
    created_at: input.now
  })} RETURNING *`.pipe(Effect.orDie)
  return { session: FirmRows.session(rows[0]!), secret }
})

export const liveCount = Effect.fn("FirmSessionStore.liveCount")(function*(firmId: number, memberId: number, now: string) {
  const sql = yield* SqlClient.SqlClient
  const rows = yield* sql<{ count: unknown }>`SELECT count(*) AS count FROM firm_sessions WHERE firm_id = ${firmId}
    AND member_id = ${memberId} AND revoked_at IS NULL AND expires_at > ${now} AND idle_expires_at > ${now}`.pipe(Effect.orDie)
  return Number(rows[0]!.count)
})
