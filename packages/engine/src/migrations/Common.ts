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
/** The Web Connector's user name for a connection. */
export const userName = (id: number) => `ledger-${id}`

/** A page of a list already in memory (a short, bounded one): the cursor is the position reached. */
export const pageOf = <A>(items: ReadonlyArray<A>, query: Pagination.PageRequest) =>
  Effect.map(Pagination.afterId(query), (after) => {
    const offset = after ?? 0
    const limit = Pagination.limitOf(query)
    const rows = items.slice(offset, offset + limit + 1).map((item, index) => ({ item, position: offset + index + 1 }))
    return Pagination.page(rows, limit, (row) => row.position, (row) => row.item)
  })
