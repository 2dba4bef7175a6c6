import { Effect } from "effect"
import { Base64Url } from "effect/encoding"
import { SqlClient } from "effect/sql"
import * as Row from "../../kernel/Row.ts"
import * as Secret from "../../kernel/Secret.ts"
import { Entropy } from "../../ports/Entropy.ts"
import * as Factors from "./Factors.ts"
import { type Person, personKey } from "../common/SignInRules.ts"

/** Second-step tickets: given after the first factor, bound to the browser, 10 minutes, five wrong codes end them. */

export const validMs = 10 * 60_000

export const randomToken = Effect.gen(function*() {
  const entropy = yield* Entropy
  return Base64Url.encode(yield* entropy.bytes(32))
})

export const open = Effect.fn("Tickets.open")(function*(person: Person, browserHash: string, firstFactor: string, now: string) {
  const sql = yield* SqlClient.SqlClient
  const ticket = yield* randomToken
  const expiresAt = new Date(Date.parse(now) + validMs).toISOString()
  yield* sql`INSERT INTO auth_tickets ${sql.insert({
    secret_hash: yield* Secret.hash(ticket),
    browser_hash: browserHash,
    person: personKey(person),
    company_id: person.type === "user" ? person.companyId : null,
    first_factor: firstFactor,
    created_at: now,
    expires_at: expiresAt
  })}`.pipe(Effect.orDie)
  const methods = yield* Factors.methodsOf(personKey(person))
  return { second_factor_required: true as const, ticket, methods, expires_at: expiresAt }
})

/** The ticket's row when it belongs to this browser, else null. */
export const load = Effect.fn("Tickets.load")(function*(ticket: string, browserHash: string, lock = false) {
  const sql = yield* SqlClient.SqlClient
  const rows = yield* sql<Record<string, unknown>>`SELECT * FROM auth_tickets WHERE secret_hash = ${yield* Secret.hash(ticket)}
    ${lock ? sql`FOR UPDATE` : sql``}`.pipe(Effect.orDie)
  const row = rows[0]
  return row === undefined || row.browser_hash !== browserHash ? null : row
})

export const statusOf = (row: Record<string, unknown>, nowMs: number): "open" | "used" | "expired" | "locked" =>
  row.status !== "open" ? row.status as "used" | "locked" : nowMs >= Date.parse(Row.iso(row.expires_at)) ? "expired" : "open"
