import { Effect, Layer } from "effect"
import { Ports } from "@ledger/engine"

/**
 * The real adapter of the bank-feed aggregator port, speaking Plaid's API, version 2020-09-14
 * (pinned in `Plaid-Version`; checked against Plaid's published OpenAPI description in
 * test/fixtures/providers/plaid, ADR 2120): JSON POSTs carrying `client_id` and `secret` in the body,
 * `/link/token/create`, `/item/public_token/exchange`, `/item/get`, `/accounts/get` and cursor-based
 * `/transactions/sync`; refusals as HTTP 4xx with `{error_type, error_code, error_message}`.
 *
 * Two conversions happen here and nowhere else: the aggregator's `amount` is decimal dollars,
 * positive for money leaving the account, and the port's is integer cents, positive for money in;
 * the amount is converted through its decimal text, never by multiplying a float (money is cents).
 *
 * Configured by LEDGER_AGGREGATOR_URL, LEDGER_AGGREGATOR_CLIENT_ID and LEDGER_AGGREGATOR_SECRET.
 * The testkit's `FakeAggregatorHttp` serves the same API on loopback over a `FakeAggregator`.
 */

export interface Options {
  readonly baseUrl: string
  readonly clientId: string
  readonly secret: string
  /** Shown in the bank's login widget. */
  readonly clientName?: string | undefined
  /** Transactions a sync page asks for (the API's maximum is 500). */
  readonly syncPageSize?: number | undefined
  readonly fetch?: ((request: Request) => Promise<Response>) | undefined
}

type Json = Record<string, any>
type Failure = Ports.AggregatorFailure

const failure = (code: Failure["code"], message: string): Failure => new Ports.AggregatorFailure({ code, message })

/** Error codes that mean the person must log in to the bank again (the widget's update mode). */
const loginCodes: ReadonlySet<string> = new Set(["ITEM_LOGIN_REQUIRED", "PENDING_EXPIRATION", "USER_PERMISSION_REVOKED", "ITEM_LOCKED"])
const tokenCodes: ReadonlySet<string> = new Set(["INVALID_ACCESS_TOKEN", "INVALID_PUBLIC_TOKEN", "ITEM_NOT_FOUND"])

/** The port's failure for an aggregator's refusal. */
export const failureOf = (status: number, json: Json): Failure => {
  const code = String(json.error_code ?? "")
  const message = String(json.error_message ?? json.display_message ?? `HTTP ${status}`)
  if (loginCodes.has(code)) return failure("login_required", message)
  if (tokenCodes.has(code)) return failure("invalid_token", message)
  // The caller restarts its pagination run from the run's first cursor (Plaid's transactions errors).
  if (code === "TRANSACTIONS_SYNC_MUTATION_DURING_PAGINATION") return failure("restart_pagination", message)
  if (status >= 500 || status === 429 || json.error_type === "API_ERROR" || json.error_type === "RATE_LIMIT_EXCEEDED") {
    return failure("unavailable", message)
  }
  return failure("error", `${code === "" ? `HTTP ${status}` : code}: ${message}`)
}

const dollars = /^(-?)(\d{1,13})(?:\.(\d{1,2}))?$/

/**
 * Decimal dollars, positive out of the account, to signed cents, positive into it. The JSON number
 * is read through its shortest decimal text (`String(12.34)` is "12.34"), so no float arithmetic
 * touches the amount; more than two decimals or an exponent is malformed, not rounded.
 */
export const centsIntoAccount = (amount: unknown): number | null => {
  if (typeof amount !== "number" || !Number.isFinite(amount)) return null
  const match = dollars.exec(String(amount))
  if (match === null) return null
  const cents = Number(match[2]) * 100 + Number((match[3] ?? "").padEnd(2, "0"))
  const outOfAccount = match[1] === "-" ? -cents : cents
  return outOfAccount === 0 ? 0 : -outOfAccount
}

const transactionOf = (json: Json): Ports.FeedTransaction | null => {
  const amountCents = centsIntoAccount(json.amount)
  if (amountCents === null || typeof json.transaction_id !== "string" || typeof json.account_id !== "string") return null
  if (typeof json.date !== "string" || !/^\d{4}-\d{2}-\d{2}$/.test(json.date)) return null
  return {
    transactionId: json.transaction_id,
    accountId: json.account_id,
    date: json.date,
    amountCents,
    name: typeof json.merchant_name === "string" && json.merchant_name !== "" ? json.merchant_name : (json.name ?? null),
    memo: typeof json.original_description === "string" ? json.original_description : null,
    pending: json.pending === true,
    pendingTransactionId: typeof json.pending_transaction_id === "string" ? json.pending_transaction_id : null
  }
}

const transactionsOf = (list: unknown): Effect.Effect<ReadonlyArray<Ports.FeedTransaction>, Failure> => {
  const transactions: Array<Ports.FeedTransaction> = []
  for (const item of Array.isArray(list) ? list : []) {
    const transaction = transactionOf(item as Json)
    if (transaction === null) return Effect.fail(failure("error", `malformed transaction from the aggregator: ${JSON.stringify(item).slice(0, 200)}`))
    transactions.push(transaction)
  }
  return Effect.succeed(transactions)
}

const kindOf = (json: Json): string => {
  if (json.type === "credit") return "credit_card"
  if (json.subtype === "checking" || json.subtype === "savings") return json.subtype
  return "other"
}

/** The API version the adapter reads; unpinned, Plaid answers in the dashboard's default version. */
export const apiVersion = "2020-09-14"

/** A path under the base URL, the base's own path kept (a gateway's `/plaid` prefix). */
export const endpoint = (baseUrl: string, path: string): URL => new URL(`${baseUrl.replace(/\/+$/u, "")}/${path.replace(/^\/+/u, "")}`)

/** One POST to the aggregator with the client's credentials; refusals become the port's failures. */
const caller = (options: Options) => {
  const send = options.fetch ?? ((request: Request) => globalThis.fetch(request))
  return (path: string, body: Json): Effect.Effect<Json, Failure> => {
    const request = new Request(endpoint(options.baseUrl, path), {
      method: "POST",
      headers: { "content-type": "application/json", "plaid-version": apiVersion },
      body: JSON.stringify({ client_id: options.clientId, secret: options.secret, ...body })
    })
    return Effect.tryPromise({ try: () => send(request), catch: (error) => failure("unavailable", String(error)) }).pipe(
      Effect.flatMap((response) =>
        Effect.tryPromise({
          try: () => response.json() as Promise<Json>,
          catch: () => failure(response.status >= 500 ? "unavailable" : "error", `HTTP ${response.status}, not JSON`)
        }).pipe(Effect.flatMap((json) => response.ok ? Effect.succeed(json) : Effect.fail(failureOf(response.status, json))))
      )
    )
  }
}

export const make = (options: Options): Ports.Aggregator["Service"] => {
  const call = caller(options)
  const count = Math.min(500, Math.max(1, options.syncPageSize ?? 500))
  return Ports.Aggregator.of({
    configured: true,
    createLinkToken: ({ clientUserId, accessToken, accountSelection }) =>
      call("/link/token/create", {
        client_name: options.clientName ?? "Ledger",
        user: { client_user_id: clientUserId },
        language: "en",
        country_codes: ["US"],
        ...(accessToken === null ? { products: ["transactions"] } : { access_token: accessToken }),
        ...(accountSelection ? { update: { account_selection_enabled: true } } : {})
      }).pipe(Effect.flatMap((json) => {
        // An aggregator's odd expiration is its fault, not a 500 of ours.
        const expiresMs = Date.parse(String(json.expiration))
        if (typeof json.link_token !== "string" || Number.isNaN(expiresMs)) {
          return Effect.fail(failure("error", `malformed link token answer from the aggregator: ${JSON.stringify(json).slice(0, 200)}`))
        }
        return Effect.succeed({ linkToken: json.link_token, expiresAt: new Date(expiresMs).toISOString() })
      })),
    exchangePublicToken: (publicToken) =>
      call("/item/public_token/exchange", { public_token: publicToken }).pipe(
        Effect.flatMap((exchanged) =>
          call("/item/get", { access_token: String(exchanged.access_token) }).pipe(Effect.map((item) => ({
            accessToken: String(exchanged.access_token),
            itemId: String(exchanged.item_id),
            institution: typeof item.item?.institution_name === "string" ? item.item.institution_name : (item.item?.institution_id ?? null)
          }))))
      ),
    accounts: (accessToken) =>
      call("/accounts/get", { access_token: accessToken }).pipe(Effect.map((json) =>
        (Array.isArray(json.accounts) ? json.accounts as Array<Json> : []).map((account) => ({
          accountId: String(account.account_id),
          name: String(account.official_name ?? account.name ?? account.account_id),
          mask: typeof account.mask === "string" ? account.mask : null,
          kind: kindOf(account)
        })))),
    sync: (accessToken, cursor) =>
      // The bank's own text of a line (the memo) comes only when asked for.
      call("/transactions/sync", { access_token: accessToken, count, options: { include_original_description: true }, ...(cursor === null ? {} : { cursor }) }).pipe(
        Effect.flatMap((json) =>
          Effect.all([transactionsOf(json.added), transactionsOf(json.modified)]).pipe(Effect.map(([added, modified]) => ({
            added,
            modified,
            removed: (Array.isArray(json.removed) ? json.removed as Array<Json> : []).map((removed) => String(removed.transaction_id)),
            nextCursor: String(json.next_cursor),
            hasMore: json.has_more === true
          }))))
      )
  })
}

export const layer = (options: Options): Layer.Layer<Ports.Aggregator> => Layer.succeed(Ports.Aggregator)(make(options))

/** From LEDGER_AGGREGATOR_URL, LEDGER_AGGREGATOR_CLIENT_ID, LEDGER_AGGREGATOR_SECRET; null when the URL is not set. */
export const fromEnvironment = (environment: Record<string, string | undefined>): Layer.Layer<Ports.Aggregator> | null => {
  const baseUrl = environment.LEDGER_AGGREGATOR_URL
  if (baseUrl === undefined || baseUrl === "") return null
  return layer({
    baseUrl,
    clientId: environment.LEDGER_AGGREGATOR_CLIENT_ID ?? "",
    secret: environment.LEDGER_AGGREGATOR_SECRET ?? ""
  })
}
