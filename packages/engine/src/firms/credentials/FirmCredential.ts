import { Effect, Option } from "effect"
import { SqlClient, type SqlError } from "effect/sql"
import { ApiError } from "@ledger/api"
import type { Asking, Authenticated, CredentialStrategy, Refused } from "../../pipeline/authenticate/Credential.ts"
import { firmActor } from "../../pipeline/authenticate/FirmPrincipal.ts"
import { inClient } from "./FirmClient.ts"
import * as FirmKey from "./FirmKey.ts"
import * as FirmSession from "./FirmSession.ts"

/** Whether a header names a client: absent or blank names none. */
const namesClient = (company: string | null | undefined): company is string => company !== null && company !== undefined && company.trim() !== ""

/**
 * A firm credential (key or session) acting in the client its request names with
 * `X-Ledger-Company` (spec 5.4; over MCP `_meta["dev.ledger/company"]`), resolved once, here, for
 * the pipeline. None when the token is no firm credential: the company's own strategies decide it.
 */
export const forClient = Effect.fn("FirmCredential.forClient")(function*(
  token: string,
  asking: Asking
): Effect.fn.Return<Option.Option<Authenticated>, Refused | SqlError.SqlError, SqlClient.SqlClient> {
  const located = token.startsWith(FirmSession.prefix) ? yield* FirmSession.locate(token, asking) : yield* FirmKey.locate(token, asking)
  if (Option.isNone(located)) return Option.none()
  const { principal, touch } = located.value
  if (!namesClient(asking.company)) {
    // A person's own operations (sign-out, security settings) are the member's, not a client's.
    if (asking.personal === true && token.startsWith(FirmSession.prefix)) {
      yield* touch
      return Option.some<Authenticated>({ actor: firmActor(principal), company: null })
    }
    return yield* Effect.fail<Refused>({ error: companyRequired, known: { actor: firmActor(principal), company: null } })
  }
  const sql = yield* SqlClient.SqlClient
  const authenticated = yield* inClient(sql, principal, asking.company)
  // The last use is written after the client's state was read with the credential's
  // (`firmCredential`): whatever changes after that read is seen by a batch's statement.
  yield* touch
  return Option.some(authenticated)
})

/**
 * A valid firm credential on a company operation that names no client (DECISIONS "Firm
 * credentials without a company"): 400, naming the header, so an SDK fixes the request instead of
 * re-authenticating or rotating a key that is good (401 is only for a credential that is not valid).
 */
export const companyRequired = ApiError.fail(
  "company_required",
  "A firm credential acts in a client company: name it with the X-Ledger-Company header (over MCP, _meta \"dev.ledger/company\").",
  { header: "X-Ledger-Company", meta: "dev.ledger/company" }
)

/**
 * A firm key on a company operation that names no client, once the company's own keys did not
 * know the token (they refused it naming nobody): `company_required` instead of their refusal.
 * Firm and company keys share their prefix, so this is asked last (no read on the hot path);
 * none when it is no firm key either, and the keys' refusal stands.
 */
const withoutClient = Effect.fn("FirmCredential.withoutClient")(function*(
  token: string,
  asking: Asking
): Effect.fn.Return<Option.Option<Authenticated>, Refused | SqlError.SqlError, SqlClient.SqlClient> {
  const located = yield* FirmKey.locate(token, asking)
  if (Option.isNone(located)) return Option.none()
  // A person's own operation (`/v1/me/...`) needs no client, but a session: a key is no such thing.
  const error = asking.personal === true
    ? ApiError.fail("insufficient_scope", "Only your own browser session may do this (not a key, an agent or an AI app).")
    : companyRequired
  return yield* Effect.fail<Refused>({ error, known: { actor: firmActor(located.value.principal), company: null } })
})

/**
 * The `company` door's firm strategies (the firms area registers them in index.ts): a session
 * always, a key when a client is named, before the company's API keys (order 30); and a firm key
 * naming no client after every other (order 90).
 */
export const inClientStrategy: CredentialStrategy = {
  name: "firm_credential_in_client",
  door: "company",
  order: 20,
  firmInClient: true,
  recognises: (token, company) => token.startsWith(FirmSession.prefix) || (company !== null && token.startsWith(FirmKey.prefix)),
  authenticate: forClient
}

export const withoutClientStrategy: CredentialStrategy = {
  name: "firm_key_without_client",
  door: "company",
  order: 90,
  firmInClient: true,
  // A blank header is the in-client strategy's to refuse (`company_required`); none at all is this one's.
  recognises: (token, company) => company === null && token.startsWith(FirmKey.prefix),
  authenticate: withoutClient
}
