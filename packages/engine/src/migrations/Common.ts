import { Effect } from "effect"
import * as Pagination from "../kernel/Pagination.ts"
import { Base64Url } from "effect/encoding"
import { Entropy } from "../ports/Entropy.ts"
import * as Secret from "../kernel/Secret.ts"

export const randomToken = Effect.fn("Migrations.randomToken")(function*(bytes = 24) {
  const entropy = yield* Entropy
  return Base64Url.encode(yield* entropy.bytes(bytes))
})

export const hash = Secret.sha256Hex

export const plusMinutes = (iso: string, minutes: number): string => new Date(Date.parse(iso) + minutes * 60_000).toISOString()

/** A desktop connection expires 30 days after it is made (spec 8.2). */
export const connectionDays = 30
/** Wrong connector passwords before the connection locks. */
export const passwordAttemptsMax = 5
/** The online consent's state is valid 15 minutes. */
export const consentMinutes = 15
/** Where the desktop edition's Web Connector talks to (packages/server/src/http/WebConnector.ts). */
export const soapPath = "/qbwc"
/**
 * A new connection's Web Connector user name: `ledger-` and 20 random base64url characters (15
 * bytes, 120 bits), kept in `migration_connections.user_name`. Unguessable, so nobody without the
 * connector file can name a connection, let alone lock it with wrong passwords (ADR 2110); the
 * sequential `ledger-<id>` it replaces could be named by anyone.
 */
export const newUserName = Effect.map(randomToken(15), (token) => `ledger-${token}`)
/** What a user name can look like: anything else is refused without a look-up (a 20-digit id included). */
export const userNamePattern = /^ledger-[A-Za-z0-9_-]{1,40}$/
/**
 * Wrong Web Connector sign-ins (an unknown user name or a wrong password) from one client network
 * address within the sign-in throttle's 15-minute window (ADR 2110). Past it, every authenticate
 * from that address is refused without a look-up, so no connection's failed-attempt counter moves.
 * Above the 5 that lock a connection, so a person's own typos still end in the documented lock.
 */
export const connectorFailuresPerClient = 10

/** A page of a list already in memory (a short, bounded one): the cursor is the position reached. */
export const pageOf = <A>(items: ReadonlyArray<A>, query: Pagination.PageRequest) =>
  Effect.map(Pagination.afterId(query), (after) => {
    const offset = after ?? 0
    const limit = Pagination.limitOf(query)
    const rows = items.slice(offset, offset + limit + 1).map((item, index) => ({ item, position: offset + index + 1 }))
    return Pagination.page(rows, limit, (row) => row.position, (row) => row.item)
  })
