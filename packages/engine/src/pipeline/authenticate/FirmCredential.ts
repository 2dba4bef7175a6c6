import { Effect, Option } from "effect"
import { SqlClient, type SqlError } from "effect/sql"
import { ApiError } from "@ledger/api"
import type { Asking, Authenticated, CredentialState, FirmCredentialState, Refused } from "./Credential.ts"
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
  const located = token.startsWith(FirmSession.prefix) ? yield* FirmSession.locate(token, asking) : yield* FirmKey.locate(token, asking)
  if (Option.isNone(located)) return Option.none()
  const { principal, touch } = located.value
  if (company === null || company.trim() === "") {
    // A person's own operations (sign-out, security settings) are the member's, not a client's.
    if (asking.personal === true && token.startsWith(FirmSession.prefix)) {
      yield* touch
      return Option.some<Authenticated>({ actor: firmActor(principal), company: null })
    }
    return yield* Effect.fail<Refused>({ error: companyRequired, known: { actor: firmActor(principal), company: null } })
  }
  const sql = yield* SqlClient.SqlClient
  const authenticated = yield* inClient(sql, principal, company)
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
 * A company key's refusal for a token that is no company key (known: null), when no client was
 * named: a firm key's is told `company_required` instead. Firm and company keys share their prefix,
 * so this is only asked after the company's own keys did not know the token (no read on the hot path).
 */
export const withoutClient = Effect.fn("FirmCredential.withoutClient")(function*(
  token: string,
  asking: Asking,
  refused: Refused
): Effect.fn.Return<never, Refused | SqlError.SqlError, SqlClient.SqlClient> {
  if (refused.known !== null || !token.startsWith(FirmKey.prefix)) return yield* Effect.fail(refused)
  const located = yield* FirmKey.locate(token, asking)
  if (Option.isNone(located)) return yield* Effect.fail(refused)
  // A person's own operation (`/v1/me/...`) needs no client, but a session: a key is no such thing.
  const error = asking.personal === true
    ? ApiError.fail("insufficient_scope", "Only your own browser session may do this (not a key, an agent or an AI app).")
    : companyRequired
  return yield* Effect.fail<Refused>({ error, known: { actor: firmActor(located.value.principal), company: null } })
})

/**
 * A query counting the firm credentials of `states` still in the state given, as a group commit's
 * statement counts company keys (ApiKey.currentCredentialsCount): each recomputed by
 * `ledger_firm_credential_state` (migration 0024) from its rows' primary keys.
 */
export const currentCount = (sql: SqlClient.SqlClient, states: ReadonlyArray<FirmCredentialState>) =>
  sql`SELECT count(*) FROM json_to_recordset(${
    JSON.stringify(states.map((state) => ({
      kind: state.kind,
      firm_id: state.firmId,
      credential_id: state.keyId,
      company_id: state.companyId,
      state: state.state
    })))
  }::json) AS x(kind text, firm_id bigint, credential_id bigint, company_id uuid, state text)
    WHERE ledger_firm_credential_state(x.kind, x.firm_id, x.credential_id, x.company_id) = x.state`

/** Whether a credential's state is a firm credential's. */
export const isFirmState = (state: CredentialState): state is FirmCredentialState =>
  "kind" in state && (state.kind === "firm_key" || state.kind === "firm_session")

/** Whether a company operation's token may be a firm credential: a session always, a key when a client is named. */
export const mayBe = (token: string, company: string | null): boolean =>
  token.startsWith(FirmSession.prefix) || (company !== null && token.startsWith(FirmKey.prefix))
