import { Effect, Option } from "effect"
import { SqlClient, type SqlError } from "effect/sql"
import { ApiError } from "@ledger/api"
import type { Asking, Authenticated, Refused } from "./Credential.ts"
import * as FirmKey from "./FirmKey.ts"
import { firmActor, inClient } from "./FirmPrincipal.ts"
import * as FirmSession from "./FirmSession.ts"

/**
 * A firm credential (key or session) acting in the client its request names with
 * `X-Ledger-Company` (spec 5.4; over MCP `_meta["dev.ledger/company"]`), resolved once, here, by
 * the pipeline. None when the token is no firm credential: the company's own strategies decide it.
 */
export const forClient = Effect.fn("FirmCredential.forClient")(function*(
  token: string,
  asking: Asking,
  company: string | null
): Effect.fn.Return<Option.Option<Authenticated>, Refused | SqlError.SqlError, SqlClient.SqlClient> {
  const found = token.startsWith(FirmSession.prefix) ? yield* FirmSession.find(token, asking) : yield* FirmKey.find(token, asking)
  if (Option.isNone(found)) return Option.none()
  if (company === null || company.trim() === "") {
    return yield* Effect.fail<Refused>({
      error: ApiError.fail("not_found", "A firm credential names the client it acts in with the X-Ledger-Company header."),
      known: { actor: firmActor(found.value), company: null }
    })
  }
  const sql = yield* SqlClient.SqlClient
  return Option.some(yield* inClient(sql, found.value, company))
})

/** Whether a company operation's token may be a firm credential: a session always, a key when a client is named. */
export const mayBe = (token: string, company: string | null): boolean =>
  token.startsWith(FirmSession.prefix) || (company !== null && token.startsWith(FirmKey.prefix))
