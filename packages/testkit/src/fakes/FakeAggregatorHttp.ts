import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http"
import type { AddressInfo } from "node:net"
import { Effect, Exit } from "effect"
import type { AggregatorFailure, FeedTransaction } from "@ledger/engine/ports"
import type { FakeAggregator } from "./FakeAggregator.ts"

/**
 * A `FakeAggregator` behind the aggregator's HTTP API on loopback, so `ledger serve` with
 * LEDGER_AGGREGATOR_URL, and the server's `AggregatorHttp` adapter, run against it exactly as
 * against the real service: the test scripts the fake (`connect`, `add`, `setLoginRequired`...)
 * and the server reaches it over HTTP. Amounts go out the way the real API sends them: decimal
 * dollars, positive for money leaving the account. Sync pages hold at most `count` changes.
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
  readonly close: () => Promise<void>
}

type Json = Record<string, any>

/** Signed cents into the account -> the API's decimal dollars out of it, built as text (no float arithmetic). */
export const dollarsOutOf = (amountCents: number): number => {
  const out = -amountCents
  const magnitude = Math.abs(out)
  return Number(`${out < 0 ? "-" : ""}${Math.floor(magnitude / 100)}.${String(magnitude % 100).padStart(2, "0")}`)
}

const transactionJson = (transaction: FeedTransaction): Json => ({
  transaction_id: transaction.transactionId,
  account_id: transaction.accountId,
  amount: dollarsOutOf(transaction.amountCents),
  iso_currency_code: "USD",
  date: transaction.date,
  name: transaction.name,
  merchant_name: null,
  original_description: transaction.memo,
  pending: transaction.pending,
  pending_transaction_id: transaction.pendingTransactionId
})

const errorCodes: Record<AggregatorFailure["code"], readonly [number, string, string]> = {
  login_required: [400, "ITEM_ERROR", "ITEM_LOGIN_REQUIRED"],
  invalid_token: [400, "INVALID_INPUT", "INVALID_ACCESS_TOKEN"],
  unavailable: [500, "API_ERROR", "INTERNAL_SERVER_ERROR"],
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

/** A sync cursor of this face: the port's cursor and how far into its page the client has read. */
const cursorOf = (text: unknown): { readonly port: string | null; readonly offset: number } => {
  if (typeof text !== "string" || text === "") return { port: null, offset: 0 }
  const [port, offset] = Buffer.from(text, "base64url").toString("utf8").split("|")
  return { port: port === "" || port === undefined ? null : port, offset: Number(offset ?? 0) }
}
const cursorText = (port: string | null, offset: number) => Buffer.from(`${port ?? ""}|${offset}`).toString("base64url")

const routes = (fake: FakeAggregator, institutions: Institutions): Record<string, (body: Json) => Json> => ({
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
    return { item: { item_id: item.itemId, institution_id: null, institution_name: item.institution } }
  },
  "/accounts/get": (body) => ({
    accounts: run(fake.service.accounts(String(body.access_token ?? ""))).map((account) => ({
      account_id: account.accountId,
      name: account.name,
      mask: account.mask,
      type: account.kind === "credit_card" ? "credit" : "depository",
      subtype: account.kind === "credit_card" ? "credit card" : account.kind
    }))
  }),
  "/transactions/sync": (body) => {
    const count = Math.min(500, Math.max(1, Number(body.count ?? 100)))
    const cursor = cursorOf(body.cursor)
    const page = run(fake.service.sync(String(body.access_token ?? ""), cursor.port))
    const changes = [
      ...page.added.map((transaction) => ({ kind: "added" as const, json: transactionJson(transaction) })),
      ...page.modified.map((transaction) => ({ kind: "modified" as const, json: transactionJson(transaction) })),
      ...page.removed.map((id) => ({ kind: "removed" as const, json: { transaction_id: id } }))
    ]
    const slice = changes.slice(cursor.offset, cursor.offset + count)
    const hasMore = cursor.offset + count < changes.length || page.hasMore
    return {
      added: slice.filter((change) => change.kind === "added").map((change) => change.json),
      modified: slice.filter((change) => change.kind === "modified").map((change) => change.json),
      removed: slice.filter((change) => change.kind === "removed").map((change) => change.json),
      // More of this page: the same port cursor further on; the page done: the port's next cursor.
      next_cursor: cursor.offset + count < changes.length ? cursorText(cursor.port, cursor.offset + count) : cursorText(page.nextCursor, 0),
      has_more: hasMore
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

const answer = (response: ServerResponse, status: number, json: Json) => {
  response.writeHead(status, { "content-type": "application/json" })
  response.end(JSON.stringify({ ...json, request_id: `req-${Date.now().toString(36)}` }))
}

/** Serves `fake` on 127.0.0.1 at a free port. */
export const serve = async (fake: FakeAggregator, options: Options): Promise<FakeAggregatorHttp> => {
  // Items by access token, for `/item/get`: the port tells the institution only at the exchange.
  const handlers = routes(fake, new Map())
  const calls: Array<string> = []
  const server: Server = createServer((request, response) => {
    const path = new URL(request.url ?? "/", "http://fake").pathname
    calls.push(path)
    void readBody(request).then((text) => {
      const handler = request.method === "POST" ? handlers[path] : undefined
      if (handler === undefined) return answer(response, 404, { error_type: "INVALID_REQUEST", error_code: "NOT_FOUND", error_message: `no route ${path}` })
      let body: Json
      try {
        body = JSON.parse(text) as Json
      } catch {
        return answer(response, 400, { error_type: "INVALID_REQUEST", error_code: "INVALID_BODY", error_message: "body is not JSON" })
      }
      if (body.client_id !== options.clientId || body.secret !== options.secret) {
        return answer(response, 400, { error_type: "INVALID_INPUT", error_code: "INVALID_API_KEYS", error_message: "invalid client_id or secret" })
      }
      try {
        return answer(response, 200, handlers[path]!(body))
      } catch (error) {
        if (!(error instanceof Refusal)) throw error
        return answer(response, error.status, { error_type: error.type, error_code: error.code, error_message: error.message })
      }
    })
  })
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    calls: () => [...calls],
    close: () => new Promise((resolve) => server.close(() => resolve()))
  }
}
