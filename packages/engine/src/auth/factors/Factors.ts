import { Effect } from "effect"
import { SqlClient } from "effect/sql"
import { ApiError } from "@ledger/api"
import { Entropy } from "../../ports/Entropy.ts"
import { TokenSealer } from "../../ports/TokenSealer.ts"
import * as Row from "../../kernel/Row.ts"
import { codeHash, limits, recoveryCode, sameHash } from "../common/SignInRules.ts"
import * as TotpRules from "./TotpRules.ts"

/**
 * The second factors a person holds (authenticator app, recovery codes), as sign-in's second
 * step, step-up and the settings read them. Every statement is by the person's key.
 */

export const totpRow = Effect.fn("Factors.totpRow")(function*(person: string, lock = false) {
  const sql = yield* SqlClient.SqlClient
  const rows = yield* sql<Record<string, unknown>>`SELECT * FROM auth_totp WHERE person = ${person}
    ${lock ? sql`FOR UPDATE` : sql``}`.pipe(Effect.orDie)
  return rows[0] ?? null
})

export const hasTotp = Effect.fn("Factors.hasTotp")(function*(person: string) {
  const row = yield* totpRow(person)
  return row !== null && row.confirmed_at !== null
})

export const sealer = Effect.gen(function*() {
  const tokenSealer = yield* TokenSealer
  if (!tokenSealer.configured) {
    return yield* Effect.fail(ApiError.fail(
      "authenticator_apps_not_configured",
      "Authenticator apps need the master key that seals their secrets (LEDGER_MASTER_KEY)."
    ))
  }
  return tokenSealer
})

/**
 * Checks an authenticator code against the person's app (confirmed, or pending when `pending`),
 * and keeps the step it matched so it cannot be used again: true when it matched.
 */
export const useTotp = Effect.fn("Factors.useTotp")(function*(person: string, code: string, now: string, pending = false) {
  const sql = yield* SqlClient.SqlClient
  const row = yield* totpRow(person, true)
  if (row === null || (row.confirmed_at === null) !== pending) return false
  const tokenSealer = yield* sealer
  const secret = yield* tokenSealer.open(String(row.sealed_secret), `totp:${person}`)
  const step = TotpRules.matchedStep(secret, code, Date.parse(now), Row.intOrNull(row.last_time_step))
  if (step === null) return false
  yield* sql`UPDATE auth_totp SET last_time_step = ${step} WHERE person = ${person}`.pipe(Effect.orDie)
  return true
})

export const recoveryRemaining = Effect.fn("Factors.recoveryRemaining")(function*(person: string) {
  const sql = yield* SqlClient.SqlClient
  const rows = yield* sql<Record<string, unknown>>`SELECT count(*) AS remaining, max(created_at) AS created_at FROM auth_recovery_codes
    WHERE person = ${person} AND used_at IS NULL AND ended_at IS NULL`.pipe(Effect.orDie)
  return { remaining: Row.int(rows[0]?.remaining ?? 0), createdAt: Row.isoOrNull(rows[0]?.created_at) }
})

/** Uses one recovery code: true when it was one of the person's live codes (it then stops working). */
export const useRecoveryCode = Effect.fn("Factors.useRecoveryCode")(function*(person: string, code: string, now: string) {
  const sql = yield* SqlClient.SqlClient
  const hash = codeHash(`recovery:${person}`, code.toLowerCase())
  const rows = yield* sql<Record<string, unknown>>`SELECT id, code_hash FROM auth_recovery_codes
    WHERE person = ${person} AND used_at IS NULL AND ended_at IS NULL FOR UPDATE`.pipe(Effect.orDie)
  const found = rows.find((row) => sameHash(String(row.code_hash), hash))
  if (found === undefined) return false
  yield* sql`UPDATE auth_recovery_codes SET used_at = ${now} WHERE id = ${Row.int(found.id)} AND person = ${person}`.pipe(Effect.orDie)
  return true
})

/** Ten new recovery codes, shown once: the unused old ones end. */
export const issueRecoveryCodes = Effect.fn("Factors.issueRecoveryCodes")(function*(person: string, companyId: string | null, now: string) {
  const sql = yield* SqlClient.SqlClient
  const entropy = yield* Entropy
  yield* sql`UPDATE auth_recovery_codes SET ended_at = ${now} WHERE person = ${person} AND used_at IS NULL AND ended_at IS NULL`
    .pipe(Effect.orDie)
  const codes: Array<string> = []
  while (codes.length < limits.recoveryCodesIssued) {
    const code = recoveryCode(yield* entropy.bytes(7))
    if (!codes.includes(code)) codes.push(code)
  }
  const rows = codes.map((code) => ({
    person,
    company_id: companyId,
    code_hash: codeHash(`recovery:${person}`, code),
    created_at: now
  }))
  yield* sql`INSERT INTO auth_recovery_codes ${sql.insert(rows as [typeof rows[number], ...Array<typeof rows[number]>])}`.pipe(Effect.orDie)
  return codes
})

/** Which second-step methods a person has: their app when confirmed, recovery codes when any remain. */
export const methodsOf = Effect.fn("Factors.methodsOf")(function*(person: string) {
  const totp = yield* hasTotp(person)
  const recovery = yield* recoveryRemaining(person)
  const methods: Array<"totp" | "recovery_code"> = []
  if (totp) methods.push("totp")
  if (recovery.remaining > 0) methods.push("recovery_code")
  return methods
})
