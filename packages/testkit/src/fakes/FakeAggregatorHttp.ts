import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http"
import type { AddressInfo } from "node:net"
import { Effect, Exit } from "effect"
import type { AggregatorFailure, FeedAccountInfo, FeedTransaction } from "@ledger/engine/ports"
import type { FakeAggregator } from "./FakeAggregator.ts"

/**
 * A `FakeAggregator` behind the aggregator's HTTP API on loopback, so `ledger serve` with
 * LEDGER_AGGREGATOR_URL, and the server's `AggregatorHttp` adapter, run against it exactly as
 * against the real service: the test scripts the fake (`connect`, `add`, `setLoginRequired`...)
 * and the server reaches it over HTTP. Amounts go out the way the real API sends them: decimal
 * dollars, positive for money leaving the account. Sync pages hold at most `count` changes; a change
 * to the item between two pages of one run is refused as Plaid refuses it
 * (`TRANSACTIONS_SYNC_MUTATION_DURING_PAGINATION`), and the run must start again from its first cursor.
 * Answers carry every field Plaid's description (API 2020-09-14) requires, and malformed requests
 * are refused as Plaid refuses them (`UNKNOWN_FIELDS`, `MISSING_FIELDS`, `INVALID_FIELD`), checked by
 * test/providers/plaid-contract.test.ts.
 */

export interface Options {
  readonly clientId: string
  readonly secret: string
}

export interface FakeAggregatorHttp {
  /** The base URL to set as LEDGER_AGGREGATOR_URL. */
  readonly url: string
  /** Requests received, by path, for tests that count calls. */
  readonly calls: () => ReadonlyArray<string>
  /** Every request as received and the answer given, for contract tests (issue 39). */
  readonly requests: () => ReadonlyArray<ReceivedRequest>
  /** The next `count` requests are refused as Plaid refuses too many: 429 `RATE_LIMIT_EXCEEDED`. */
  readonly rateLimitNext: (count?: number) => void
  readonly close: () => Promise<void>
}

type Json = Record<string, any>

export interface ReceivedRequest {
  readonly method: string
  /** The path as received, with its query. */
  readonly path: string
  /** Header names lower-case. */
  readonly headers: Readonly<Record<string, string>>
  readonly body: string
  readonly status: number
  readonly answer: Json
}

/** Signed cents into the account -> the API's decimal dollars out of it, built as text (no float arithmetic). */
export const dollarsOutOf = (amountCents: number): number => {
  const out = -amountCents
  const magnitude = Math.abs(out)
  return Number(`${out < 0 ? "-" : ""}${Math.floor(magnitude / 100)}.${String(magnitude % 100).padStart(2, "0")}`)
}

/** A transaction as Plaid sends it; the bank's own text (`original_description`) only when the request asked for it. */
const transactionJson = (transaction: FeedTransaction, originalDescription: boolean): Json => ({
  transaction_id: transaction.transactionId,
  account_id: transaction.accountId,
  amount: dollarsOutOf(transaction.amountCents),
  iso_currency_code: "USD",
  unofficial_currency_code: null,
  date: transaction.date,
  name: transaction.name,
  merchant_name: null,
  original_description: originalDescription ? transaction.memo : null,
  pending: transaction.pending,
  pending_transaction_id: transaction.pendingTransactionId,
  // Required by the description, unknown to the fake: present and null, as Plaid sends what it does not know.
  account_owner: null,
  payment_channel: "other",
  payment_meta: Object.fromEntries(["reference_number", "ppd_id", "payee", "by_order_of", "payer", "payment_method", "payment_processor", "reason"].map((key) => [key, null])),
  location: Object.fromEntries(["address", "city", "region", "postal_code", "country", "lat", "lon", "store_number"].map((key) => [key, null])),
  authorized_date: null,
  authorized_datetime: null,
  datetime: null,
  transaction_code: null
})

/** An account as Plaid sends it (balances are not what a feed reads, so they are unknown here). */
const accountJson = (account: FeedAccountInfo): Json => ({
  account_id: account.accountId,
  balances: { available: null, current: null, limit: null, iso_currency_code: "USD", unofficial_currency_code: null },
  mask: account.mask,
  name: account.name,
  official_name: null,
  type: account.kind === "credit_card" ? "credit" : "depository",
  subtype: account.kind === "credit_card" ? "credit card" : account.kind
})

/** An Item as Plaid sends it, every field its description requires. */
const itemJson = (itemId: string, institution: string | null): Json => ({
  item_id: itemId, institution_id: null, institution_name: institution, webhook: null, error: null,
  available_products: [], billed_products: ["transactions"], products: ["transactions"], consent_expiration_time: null, update_type: "background"
})

/**
 * The top-level fields each operation takes and those it requires (Plaid's description): anything
 * else is refused as `UNKNOWN_FIELDS`, a missing one as `MISSING_FIELDS`. Link token creation takes
 * dozens of options, so only its required ones are checked.
 */
const fields: Record<string, { readonly known?: ReadonlyArray<string>; readonly required: ReadonlyArray<string> }> = {
  "/link/token/create": { required: ["client_name", "language", "country_codes", "user"] },
  "/item/public_token/exchange": { known: ["client_id", "secret", "public_token"], required: ["public_token"] },
  "/item/get": { known: ["client_id", "secret", "access_token"], required: ["access_token"] },
  "/accounts/get": { known: ["client_id", "secret", "access_token", "options"], required: ["access_token"] },
  "/transactions/sync": { known: ["client_id", "secret", "access_token", "cursor", "count", "options"], required: ["access_token"] }
}

/** Plaid's refusal of a malformed request, or null. */
const malformed = (path: string, body: Json): Refusal | null => {
  const rule = fields[path]
  if (rule === undefined) return null
  const unknown = rule.known === undefined ? [] : Object.keys(body).filter((key) => !rule.known!.includes(key))
  if (unknown.length > 0) return new Refusal(400, "INVALID_REQUEST", "UNKNOWN_FIELDS", `the following fields are not recognized by this endpoint: ${unknown.join(", ")}`)
  const missing = [...rule.required, ...(path === "/link/token/create" ? ["user.client_user_id"] : [])]
    .filter((key) => key.split(".").reduce<any>((node, part) => node?.[part], body) === undefined)
  if (missing.length > 0) return new Refusal(400, "INVALID_REQUEST", "MISSING_FIELDS", `the following required fields are missing: ${missing.join(", ")}`)
  if (body.count !== undefined && !(Number.isInteger(body.count) && body.count >= 1 && body.count <= 500)) {
    return new Refusal(400, "INVALID_REQUEST", "INVALID_FIELD", "count must be an integer from 1 to 500")
  }
  return null
}

const errorCodes: Record<AggregatorFailure["code"], readonly [number, string, string]> = {
  login_required: [400, "ITEM_ERROR", "ITEM_LOGIN_REQUIRED"],
  invalid_token: [400, "INVALID_INPUT", "INVALID_ACCESS_TOKEN"],
  unavailable: [500, "API_ERROR", "INTERNAL_SERVER_ERROR"],
  restart_pagination: [400, "TRANSACTIONS_ERROR", "TRANSACTIONS_SYNC_MUTATION_DURING_PAGINATION"],
  error: [400, "INVALID_REQUEST", "INVALID_FIELD"],
  not_configured: [400, "INVALID_REQUEST", "INVALID_FIELD"]
}

class Refusal {
  constructor(readonly status: number, readonly type: string, readonly code: string, readonly message: string) {}
}

/** The port's answer, or its failure as the API's error (`tokenCode` names which token was bad). */
const run = <A>(effect: Effect.Effect<A, AggregatorFailure>, tokenCode = "INVALID_ACCESS_TOKEN"): A => {
  const exit = Effect.runSyncExit(effect)
  if (Exit.isSuccess(exit)) return exit.value
  const failure = Exit.findErrorOption(exit)
  if (failure._tag === "None") throw exit.cause
  const [status, type, code] = errorCodes[failure.value.code]
  throw new Refusal(status, type, failure.value.code === "invalid_token" ? tokenCode : code, failure.value.message)
}

type Institutions = Map<string, { readonly itemId: string; readonly institution: string | null }>

/**
 * A sync cursor of this face: the port's cursor, how far into its page the client has read and,
 * past the first part, where the port's page ended when the run began, so a change to the item in
 * between is seen.
 */
const cursorOf = (text: unknown): { readonly port: string | null; readonly offset: number; readonly end: string | null } => {
  if (typeof text !== "string" || text === "") return { port: null, offset: 0, end: null }
  const [port, offset, end] = Buffer.from(text, "base64url").toString("utf8").split("|")
  return { port: port === "" || port === undefined ? null : port, offset: Number(offset ?? 0), end: end === undefined || end === "" ? null : end }
}
const cursorText = (port: string | null, offset: number, end = "") => Buffer.from(`${port ?? ""}|${offset}|${end}`).toString("base64url")

/** Plaid's answer when the item changed between two pages of one run (its docs: restart the loop from the run's first cursor). */
const mutated = () =>
  new Refusal(400, "TRANSACTIONS_ERROR", "TRANSACTIONS_SYNC_MUTATION_DURING_PAGINATION", "Underlying transaction data changed since last page was fetched. Please restart pagination from last update.")

const routes = (fake: FakeAggregator, institutions: Institutions, accountOf: Map<string, string>): Record<string, (body: Json) => Json> => ({
  "/link/token/create": (body) => {
    const made = run(fake.service.createLinkToken({
      companyId: "",
      clientUserId: String(body.user?.client_user_id ?? ""),
      accessToken: typeof body.access_token === "string" ? body.access_token : null,
      accountSelection: body.update?.account_selection_enabled === true
    }))
    return { link_token: made.linkToken, expiration: made.expiresAt }
  },
  "/item/public_token/exchange": (body) => {
    const exchanged = run(fake.service.exchangePublicToken(String(body.public_token ?? "")), "INVALID_PUBLIC_TOKEN")
    institutions.set(exchanged.accessToken, { itemId: exchanged.itemId, institution: exchanged.institution })
    return { access_token: exchanged.accessToken, item_id: exchanged.itemId }
  },
  "/item/get": (body) => {
    const item = institutions.get(String(body.access_token ?? ""))
    if (item === undefined) throw new Refusal(400, "INVALID_INPUT", "INVALID_ACCESS_TOKEN", "Unknown access token.")
    return { item: itemJson(item.itemId, item.institution) }
  },
  "/accounts/get": (body) => {
    const accounts = run(fake.service.accounts(String(body.access_token ?? ""))).map(accountJson)
    const item = institutions.get(String(body.access_token))
    return { accounts, item: itemJson(item?.itemId ?? "", item?.institution ?? null) }
  },
  "/transactions/sync": (body) => {
    const count = Math.min(500, Math.max(1, Number(body.count ?? 100)))
    const cursor = cursorOf(body.cursor)
    const page = run(fake.service.sync(String(body.access_token ?? ""), cursor.port))
    if (cursor.offset > 0 && cursor.end !== page.nextCursor) throw mutated()
    const accounts = run(fake.service.accounts(String(body.access_token ?? "")))
    const original = body.options?.include_original_description === true
    // A removed line names its account (Plaid's `RemovedTransaction`): remembered from when it was sent.
    for (const transaction of [...page.added, ...page.modified]) accountOf.set(transaction.transactionId, transaction.accountId)
    const changes = [
      ...page.added.map((transaction) => ({ kind: "added" as const, json: transactionJson(transaction, original) })),
      ...page.modified.map((transaction) => ({ kind: "modified" as const, json: transactionJson(transaction, original) })),
      ...page.removed.map((id) => ({ kind: "removed" as const, json: { transaction_id: id, account_id: accountOf.get(id) ?? accounts[0]?.accountId ?? "" } }))
    ]
    const slice = changes.slice(cursor.offset, cursor.offset + count)
    const hasMore = cursor.offset + count < changes.length || page.hasMore
    return {
      added: slice.filter((change) => change.kind === "added").map((change) => change.json),
      modified: slice.filter((change) => change.kind === "modified").map((change) => change.json),
      removed: slice.filter((change) => change.kind === "removed").map((change) => change.json),
      // More of this page: the same port cursor further on; the page done: the port's next cursor.
      next_cursor: cursor.offset + count < changes.length ? cursorText(cursor.port, cursor.offset + count, page.nextCursor) : cursorText(page.nextCursor, 0),
      has_more: hasMore,
      accounts: accounts.map(accountJson),
      transactions_update_status: "HISTORICAL_UPDATE_COMPLETE"
    }
  }
})

const readBody = (request: IncomingMessage): Promise<string> =>
  new Promise((resolve, reject) => {
    const chunks: Array<Buffer> = []
    request.on("data", (chunk: Buffer) => chunks.push(chunk))
    request.on("end", () => resolve(Buffer.concat(chunks).toString("utf8")))
    request.on("error", reject)
  })

let requestCount = 0

/** Sends an answer (every Plaid answer carries a `request_id`) and returns what was sent. */
const answer = (response: ServerResponse, status: number, json: Json): Json => {
  const sent = { ...json, request_id: `req-${(++requestCount).toString(36)}` }
  response.writeHead(status, { "content-type": "application/json" })
  response.end(JSON.stringify(sent))
  return sent
}

/** Serves `fake` on 127.0.0.1 at a free port. */
export const serve = async (fake: FakeAggregator, options: Options): Promise<FakeAggregatorHttp> => {
  // Items by access token, for `/item/get`: the port tells the institution only at the exchange.
  const handlers = routes(fake, new Map(), new Map())
  const calls: Array<string> = []
  const received: Array<ReceivedRequest> = []
  let rateLimited = 0
  const server: Server = createServer((request, response) => {
    const path = new URL(request.url ?? "/", "http://fake").pathname
    calls.push(path)
    void readBody(request).then((text) => {
      const headers = Object.fromEntries(Object.entries(request.headers).map(([key, value]) => [key, Array.isArray(value) ? value.join(", ") : String(value)]))
      const reply = (status: number, json: Json) =>
        received.push({ method: request.method ?? "GET", path: request.url ?? "/", headers, body: text, status, answer: answer(response, status, json) })
      const refuse = (refusal: Refusal) => reply(refusal.status, { error_type: refusal.type, error_code: refusal.code, error_message: refusal.message, display_message: null })
      if (rateLimited > 0) {
        rateLimited--
        const code = path === "/transactions/sync" ? "TRANSACTIONS_SYNC_LIMIT" : "RATE_LIMIT"
        return refuse(new Refusal(429, "RATE_LIMIT_EXCEEDED", code, "rate limit exceeded for attempts to access this item. please try again later"))
      }
      const handler = request.method === "POST" ? handlers[path] : undefined
      if (handler === undefined) return refuse(new Refusal(404, "INVALID_REQUEST", "NOT_FOUND", `no route ${path}`))
      let body: Json
      try {
        body = JSON.parse(text) as Json
      } catch {
        return refuse(new Refusal(400, "INVALID_REQUEST", "INVALID_BODY", "body could not be parsed as JSON"))
      }
      // The credentials in the body or in Plaid's headers (the description's security schemes).
      const clientId = body.client_id ?? headers["plaid-client-id"]
      const secret = body.secret ?? headers["plaid-secret"]
      if (clientId !== options.clientId || secret !== options.secret) {
        return refuse(new Refusal(400, "INVALID_INPUT", "INVALID_API_KEYS", "invalid client_id or secret provided"))
      }
      const wrong = malformed(path, body)
      if (wrong !== null) return refuse(wrong)
      try {
        return reply(200, handler(body))
      } catch (error) {
        if (!(error instanceof Refusal)) throw error
        return refuse(error)
      }
    })
  })
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    calls: () => [...calls],
    requests: () => [...received],
    rateLimitNext: (count = 1) => {
      rateLimited = count
    },
    close: () => new Promise((resolve) => server.close(() => resolve()))
  }
}
