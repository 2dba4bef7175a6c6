import { Effect } from "effect"
import { SqlClient } from "effect/sql"
import type { Auth } from "@ledger/api"
import * as Row from "../kernel/Row.ts"
import * as Secret from "../kernel/Secret.ts"
import * as StepUp from "../kernel/StepUp.ts"
import { limits, type Person, personKey, sessionEnds } from "./SignInRules.ts"

/**
 * Sessions (spec 5.1): `ldgs_` for a company's person, `ldgf_` for a firm member, stored hashed,
 * 8 hours idle and 7 days at most. The pipeline authenticates them in
 * pipeline/authenticate/Session.ts; this file creates, shows and ends them.
 */

/** A person as sessions show them: their name, company and address. */
export interface PersonInfo {
  readonly person: Person
  readonly name: string
  readonly email: string | null
  readonly emailVerified: boolean
  readonly requireTwoStep: boolean
}

/** The person a sign-in names, or null (a firm member until the firms area wires its members: the seam). */
export const loadPerson = Effect.fn("SessionStore.loadPerson")(function*(person: Person) {
  const sql = yield* SqlClient.SqlClient
  if (person.type !== "user") return null
  const rows = yield* sql<Record<string, unknown>>`SELECT u.name, u.email, u.email_verified_at, c.require_two_step
    FROM users u JOIN companies c ON c.company_id = u.company_id
    WHERE u.company_id = ${person.companyId} AND u.id = ${person.id}`.pipe(Effect.orDie)
  const row = rows[0]
  if (row === undefined) return null
  return {
    person,
    name: String(row.name),
    email: (row.email as string | null) ?? null,
    emailVerified: row.email_verified_at !== null,
    requireTwoStep: row.require_two_step === true
  } satisfies PersonInfo
})

/**
 * The people an address signs in (oldest first; docs/decisions/1001-sign-in-address.md). Firm
 * members join here once the firms area gives them sign-in.
 */
export const peopleByEmail = Effect.fn("SessionStore.peopleByEmail")(function*(address: string) {
  const sql = yield* SqlClient.SqlClient
  const rows = yield* sql<Record<string, unknown>>`SELECT company_id, id FROM users
    WHERE lower(email) = ${address.toLowerCase()} ORDER BY created_at, id LIMIT 1`.pipe(Effect.orDie)
  return rows.map((row): Person => ({ type: "user", companyId: String(row.company_id), id: Row.int(row.id) }))
})

export const toWire = (row: Record<string, unknown>, name: string): Auth.Shared.Session => {
  const steppedUp = Row.isoOrNull(row.stepped_up_at)
  return {
    id: Row.int(row.id),
    kind: row.kind === "firm" ? "firm" : "web",
    principal: {
      type: row.kind === "firm" ? "firm_member" : "user",
      id: Row.int(row.kind === "firm" ? row.member_id : row.user_id),
      name,
      company_id: (row.company_id as string | null) ?? null,
      firm_id: Row.intOrNull(row.firm_id)
    },
    method: String(row.method),
    created_at: Row.iso(row.created_at),
    expires_at: Row.iso(row.expires_at),
    idle_expires_at: Row.iso(row.idle_expires_at),
    stepped_up_until: steppedUp === null ? null : new Date(Date.parse(steppedUp) + StepUp.validMs).toISOString()
  }
}

/** A new session for a person who signed in by `method` at `now` (signing in counts as a step-up). */
export const create = Effect.fn("SessionStore.create")(function*(info: PersonInfo, method: string, now: string) {
  const sql = yield* SqlClient.SqlClient
  const { person } = info
  const secret = yield* Secret.generate(person.type === "user" ? "ldgs_" : "ldgf_")
  const ends = sessionEnds(Date.parse(now), Date.parse(now))
  const rows = yield* sql<Record<string, unknown>>`INSERT INTO auth_sessions ${sql.insert({
    kind: person.type === "user" ? "web" : "firm",
    secret_hash: yield* Secret.hash(secret),
    person: personKey(person),
    company_id: person.type === "user" ? person.companyId : null,
    user_id: person.type === "user" ? person.id : null,
    firm_id: person.type === "firm_member" ? person.firmId : null,
    member_id: person.type === "firm_member" ? person.id : null,
    method,
    created_at: now,
    last_used_at: now,
    idle_expires_at: new Date(ends.idleExpiresAtMs).toISOString(),
    expires_at: new Date(ends.expiresAtMs).toISOString(),
    stepped_up_at: now
  })} RETURNING *`.pipe(Effect.orDie)
  return { session: toWire(rows[0]!, info.name), secret } satisfies Auth.Shared.SignedIn
})

/** The calling session's row, by its id (the actor's key id) and its person. */
export const current = Effect.fn("SessionStore.current")(function*(sessionId: number, person: string) {
  const sql = yield* SqlClient.SqlClient
  const rows = yield* sql<Record<string, unknown>>`SELECT * FROM auth_sessions WHERE id = ${sessionId} AND person = ${person}`
    .pipe(Effect.orDie)
  if (rows[0] === undefined) return yield* Effect.die(new Error("the calling session is gone"))
  return rows[0]
})

export const revoke = Effect.fn("SessionStore.revoke")(function*(id: number, person: string, now: string, reason: string) {
  const sql = yield* SqlClient.SqlClient
  yield* sql`UPDATE auth_sessions SET revoked_at = ${now}, revoked_reason = ${reason}
    WHERE id = ${id} AND person = ${person} AND revoked_at IS NULL`
    .pipe(Effect.orDie)
})

/** Ends every live session of a person but `keep`; how many ended. */
export const revokeOthers = Effect.fn("SessionStore.revokeOthers")(function*(person: string, keep: number, now: string, reason: string) {
  const sql = yield* SqlClient.SqlClient
  const rows = yield* sql`UPDATE auth_sessions SET revoked_at = ${now}, revoked_reason = ${reason}
    WHERE person = ${person} AND id <> ${keep} AND revoked_at IS NULL AND expires_at > ${now} RETURNING id`.pipe(Effect.orDie)
  return rows.length
})

export const markSteppedUp = Effect.fn("SessionStore.markSteppedUp")(function*(id: number, now: string) {
  const sql = yield* SqlClient.SqlClient
  yield* sql`UPDATE auth_sessions SET stepped_up_at = ${now} WHERE id = ${id}`.pipe(Effect.orDie)
})

export { limits }
