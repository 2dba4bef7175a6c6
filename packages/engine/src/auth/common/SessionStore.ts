import { Effect } from "effect"
import { SqlClient } from "effect/sql"
import type { Auth } from "@ledger/api"
import * as Row from "../../kernel/Row.ts"
import * as Secret from "../../kernel/Secret.ts"
import * as StepUp from "../../kernel/StepUp.ts"
import { FirmSessionStore } from "../../firms/index.ts"
import { type MemberRole, memberRoleScopes } from "../../pipeline/authenticate/FirmPrincipal.ts"
import { limits, type Person, personKey, sessionEnds } from "./SignInRules.ts"

/**
 * Sessions (spec 5.1): `ldgs_` for a company's person, `ldgf_` for a firm member, stored hashed,
 * 8 hours idle and 7 days at most. The pipeline authenticates them in
 * auth/SessionCredential.ts and firms/credentials/FirmSession.ts; this file creates, shows and ends them.
 */

/** A person as sessions show them: their name, company and address. */
export interface PersonInfo {
  readonly person: Person
  readonly name: string
  readonly email: string | null
  readonly emailVerified: boolean
  readonly requireTwoStep: boolean
}

/** The person a sign-in names, or null: a company's person, or an active firm member. */
export const loadPerson = Effect.fn("SessionStore.loadPerson")(function*(person: Person) {
  const sql = yield* SqlClient.SqlClient
  if (person.type === "firm_member") {
    // A removed member signs in no more: their sessions end on the next request as well (FirmSession.ts).
    const rows = yield* sql<Record<string, unknown>>`SELECT name, email, email_verified_at FROM firm_members
      WHERE firm_id = ${person.firmId} AND id = ${person.id} AND status = 'active'`.pipe(Effect.orDie)
    const row = rows[0]
    if (row === undefined) return null
    return {
      person,
      name: String(row.name),
      email: (row.email as string | null) ?? null,
      emailVerified: row.email_verified_at !== null,
      requireTwoStep: false
    } satisfies PersonInfo
  }
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
 * The person an address signs in as (docs/decisions/1006-firm-members-sign-in.md): the oldest
 * company person carrying it and the oldest active firm member carrying it are both looked up
 * (the same two statements whatever the address), and `prefer` chooses between them when both
 * exist; an address that names one only signs in as that one.
 */
export const personByEmail = Effect.fn("SessionStore.personByEmail")(function*(address: string, prefer: Person["type"]) {
  const sql = yield* SqlClient.SqlClient
  const lower = address.toLowerCase()
  const users = yield* sql<Record<string, unknown>>`SELECT company_id, id FROM users
    WHERE lower(email) = ${lower} ORDER BY created_at, id LIMIT 1`.pipe(Effect.orDie)
  const members = yield* sql<Record<string, unknown>>`SELECT firm_id, id FROM firm_members
    WHERE lower(email) = ${lower} AND status = 'active' ORDER BY created_at, id LIMIT 1`.pipe(Effect.orDie)
  const user: Person | null = users[0] === undefined ? null : { type: "user", companyId: String(users[0].company_id), id: Row.int(users[0].id) }
  const member: Person | null = members[0] === undefined ? null : { type: "firm_member", firmId: Row.int(members[0].firm_id), id: Row.int(members[0].id) }
  return prefer === "firm_member" ? member ?? user : user ?? member
})

/** The first sign-in by email code confirms the address (DECISIONS.md). */
export const markEmailVerified = Effect.fn("SessionStore.markEmailVerified")(function*(person: Person, now: string) {
  const sql = yield* SqlClient.SqlClient
  yield* (person.type === "user"
    ? sql`UPDATE users SET email_verified_at = COALESCE(email_verified_at, ${now}) WHERE company_id = ${person.companyId} AND id = ${person.id}`
    : sql`UPDATE firm_members SET email_verified_at = COALESCE(email_verified_at, ${now}) WHERE firm_id = ${person.firmId} AND id = ${person.id}`
  ).pipe(Effect.orDie)
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

/** A firm session (the firms area's `firm_sessions` row) as sign-in shows it. */
export const firmToWire = (row: Record<string, unknown>, name: string): Auth.Shared.Session => {
  const steppedUp = Row.isoOrNull(row.stepped_up_at)
  return {
    id: Row.int(row.id),
    kind: "firm",
    principal: { type: "firm_member", id: Row.int(row.member_id), name, company_id: null, firm_id: Row.int(row.firm_id) },
    method: row.sign_in_method === null || row.sign_in_method === undefined ? "firm_key" : String(row.sign_in_method),
    created_at: Row.iso(row.created_at),
    expires_at: Row.iso(row.expires_at),
    idle_expires_at: Row.iso(row.idle_expires_at),
    stepped_up_until: steppedUp === null ? null : new Date(Date.parse(steppedUp) + StepUp.validMs).toISOString()
  }
}

/**
 * A new session for a person who signed in by `method` at `now` (signing in counts as a
 * step-up). A firm member's is a firm session, opened through the firms area's seam
 * (FirmSessionStore.open, `via: "sign_in"`) with the member's role's scopes.
 */
export const create = Effect.fn("SessionStore.create")(function*(info: PersonInfo, method: string, now: string) {
  const sql = yield* SqlClient.SqlClient
  const { person } = info
  if (person.type === "firm_member") {
    const roles = yield* sql<{ role: string }>`SELECT role FROM firm_members WHERE firm_id = ${person.firmId} AND id = ${person.id}`
      .pipe(Effect.orDie)
    const opened = yield* FirmSessionStore.open({
      firmId: person.firmId,
      memberId: person.id,
      keyId: null,
      keyExpiresAt: null,
      scopes: memberRoleScopes[roles[0]!.role as MemberRole] ?? [],
      via: "sign_in",
      now
    })
    const rows = yield* sql<Record<string, unknown>>`UPDATE firm_sessions SET stepped_up_at = ${now}, sign_in_method = ${method}
      WHERE firm_id = ${person.firmId} AND id = ${opened.session.id} RETURNING *`.pipe(Effect.orDie)
    return { session: firmToWire(rows[0]!, info.name), secret: opened.secret } satisfies Auth.Shared.SignedIn
  }
  const secret = yield* Secret.generate("ldgs_")
  const ends = sessionEnds(Date.parse(now), Date.parse(now))
  const rows = yield* sql<Record<string, unknown>>`INSERT INTO auth_sessions ${sql.insert({
    kind: "web",
    secret_hash: yield* Secret.hash(secret),
    person: personKey(person),
    company_id: person.companyId,
    user_id: person.id,
    method,
    created_at: now,
    last_used_at: now,
    idle_expires_at: new Date(ends.idleExpiresAtMs).toISOString(),
    expires_at: new Date(ends.expiresAtMs).toISOString(),
    stepped_up_at: now
  })} RETURNING *`.pipe(Effect.orDie)
  return { session: toWire(rows[0]!, info.name), secret } satisfies Auth.Shared.SignedIn
})

/** The calling session as sign-in shows it, by its id (the actor's key id) and its person. */
export const current = Effect.fn("SessionStore.current")(function*(sessionId: number, person: Person, name: string) {
  const sql = yield* SqlClient.SqlClient
  const rows = person.type === "firm_member"
    ? yield* sql<Record<string, unknown>>`SELECT * FROM firm_sessions WHERE firm_id = ${person.firmId} AND id = ${sessionId}
      AND member_id = ${person.id}`.pipe(Effect.orDie)
    : yield* sql<Record<string, unknown>>`SELECT * FROM auth_sessions WHERE id = ${sessionId} AND person = ${personKey(person)}`
      .pipe(Effect.orDie)
  if (rows[0] === undefined) return yield* Effect.die(new Error("the calling session is gone"))
  return person.type === "firm_member" ? firmToWire(rows[0], name) : toWire(rows[0], name)
})

export const revoke = Effect.fn("SessionStore.revoke")(function*(id: number, person: Person, now: string, reason: string) {
  const sql = yield* SqlClient.SqlClient
  yield* (person.type === "firm_member"
    ? sql`UPDATE firm_sessions SET revoked_at = ${now}, revoked_reason = ${reason}
      WHERE firm_id = ${person.firmId} AND id = ${id} AND member_id = ${person.id} AND revoked_at IS NULL`
    : sql`UPDATE auth_sessions SET revoked_at = ${now}, revoked_reason = ${reason}
      WHERE id = ${id} AND person = ${personKey(person)} AND revoked_at IS NULL`).pipe(Effect.orDie)
})

/** Ends every live session of a person but `keep`; how many ended (a firm member's console sessions opened by key too). */
export const revokeOthers = Effect.fn("SessionStore.revokeOthers")(function*(person: Person, keep: number, now: string, reason: string) {
  const sql = yield* SqlClient.SqlClient
  const rows = person.type === "firm_member"
    ? yield* sql`UPDATE firm_sessions SET revoked_at = ${now}, revoked_reason = ${reason}
      WHERE firm_id = ${person.firmId} AND member_id = ${person.id} AND id <> ${keep} AND revoked_at IS NULL
      AND expires_at > ${now} RETURNING id`.pipe(Effect.orDie)
    : yield* sql`UPDATE auth_sessions SET revoked_at = ${now}, revoked_reason = ${reason}
      WHERE person = ${personKey(person)} AND id <> ${keep} AND revoked_at IS NULL AND expires_at > ${now} RETURNING id`.pipe(Effect.orDie)
  return rows.length
})

export const markSteppedUp = Effect.fn("SessionStore.markSteppedUp")(function*(id: number, person: Person, now: string) {
  const sql = yield* SqlClient.SqlClient
  yield* (person.type === "firm_member"
    ? sql`UPDATE firm_sessions SET stepped_up_at = ${now} WHERE firm_id = ${person.firmId} AND id = ${id}`
    : sql`UPDATE auth_sessions SET stepped_up_at = ${now} WHERE id = ${id}`).pipe(Effect.orDie)
})

export { limits }
