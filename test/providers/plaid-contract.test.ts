import { Effect, Exit, Option } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import type { Ports } from "@ledger/engine"
import { AggregatorHttp } from "@ledger/server/adapters"
import { FakeAggregator, FakeAggregatorHttp } from "@ledger/testkit"
import { apiVersion, description, requestProblems, responseProblems } from "../support/providers/plaid.ts"

/**
 * The bank-feed aggregator's contract (issue 39): every request the real adapter (AggregatorHttp)
 * sends in a whole scenario, and every answer the testkit's fake gives, checked against Plaid's
 * published OpenAPI description (test/fixtures/providers/plaid, API 2020-09-14). The fake refuses
 * what Plaid refuses, in Plaid's error shape; a wrong request is reported by the check.
 */
const credentials = { clientId: "client-contract", secret: "secret-contract" }
const checking = { accountId: "acc-chk", name: "Checking", mask: "0001", kind: "checking" }
const card = { accountId: "acc-card", name: "Card", mask: "9999", kind: "credit_card" }

let fake: FakeAggregator.FakeAggregator
let face: FakeAggregatorHttp.FakeAggregatorHttp
beforeAll(async () => {
  fake = FakeAggregator.make()
  face = await FakeAggregatorHttp.serve(fake, credentials)
})
afterAll(() => face?.close())

const run = <A>(effect: Effect.Effect<A, Ports.AggregatorFailure>) => Effect.runPromise(effect)
const failureOf = async <A>(effect: Effect.Effect<A, Ports.AggregatorFailure>) => {
  const exit = await Effect.runPromiseExit(effect)
  if (Exit.isSuccess(exit)) throw new Error("expected a failure")
  return Option.getOrThrow(Exit.findErrorOption(exit))
}
const since = (count: number) => face.requests().slice(count)

describe(`the bank aggregator against Plaid's description (${description.info.version})`, () => {
  it("every request of a whole scenario and every answer match it", async () => {
    const before = face.requests().length
    const port = AggregatorHttp.make({ baseUrl: face.url, ...credentials, syncPageSize: 2 })
    const login = fake.connect({ institution: "Contract Bank", accounts: [checking, card] })
    await run(port.createLinkToken({ companyId: "c1", clientUserId: "u1", accessToken: null, accountSelection: false }))
    const { accessToken } = await run(port.exchangePublicToken(login.publicToken))
    await run(port.createLinkToken({ companyId: "c1", clientUserId: "u1", accessToken, accountSelection: true }))
    await run(port.accounts(accessToken))
    fake.add(login.itemId, { transactionId: "t1", accountId: "acc-chk", date: "2026-03-01", amountCents: -1234, name: "Coffee", memo: "POS 0301 COFFEE" })
    fake.add(login.itemId, { transactionId: "t2", accountId: "acc-card", date: "2026-03-02", amountCents: 5000, name: "Refund", memo: null })
    fake.add(login.itemId, { transactionId: "t3", accountId: "acc-chk", date: "2026-03-03", amountCents: -99, name: "Fee", memo: null, pending: true })
    const first = await run(port.sync(accessToken, null))
    const rest = await run(port.sync(accessToken, first.nextCursor))
    // The bank's own text of a line reaches the memo: Plaid sends it only when asked for.
    expect([...first.added, ...rest.added].find((line) => line.transactionId === "t1")?.memo).toBe("POS 0301 COFFEE")
    fake.modify(login.itemId, "t1", { amountCents: -1300 })
    fake.remove(login.itemId, "t2")
    await run(port.sync(accessToken, rest.nextCursor))

    const requests = since(before)
    expect(requests.length).toBe(8)
    expect(requests.filter((request) => request.status !== 200).map((request) => [request.path, request.answer])).toEqual([])
    expect(requests.flatMap((request) => requestProblems(request))).toEqual([])
    expect(requests.flatMap((request) => responseProblems(request))).toEqual([])
  })

  it("a base URL's path is kept, as under a proxy or a gateway", async () => {
    const seen: Array<string> = []
    const port = AggregatorHttp.make({
      baseUrl: `${face.url}/plaid/`, ...credentials,
      fetch: (request) => {
        seen.push(new URL(request.url).pathname)
        return fetch(new Request(request.url.replace("/plaid/", "/"), request))
      }
    })
    const login = fake.connect({ institution: "Prefix Bank", accounts: [checking] })
    await run(port.exchangePublicToken(login.publicToken))
    expect(seen).toEqual(["/plaid/item/public_token/exchange", "/plaid/item/get"])
  })

  it("refusals are Plaid's: error shape and status, for bad keys, unknown tokens, a login due, too many requests", async () => {
    const before = face.requests().length
    const port = AggregatorHttp.make({ baseUrl: face.url, ...credentials })
    const login = fake.connect({ institution: "Strict Bank", accounts: [checking] })
    const { accessToken } = await run(port.exchangePublicToken(login.publicToken))
    expect((await failureOf(port.exchangePublicToken(login.publicToken))).code).toBe("invalid_token")
    fake.setLoginRequired(login.itemId, true)
    expect((await failureOf(port.sync(accessToken, null))).code).toBe("login_required")
    fake.failNext()
    expect((await failureOf(port.accounts(accessToken))).code).toBe("unavailable")
    expect((await failureOf(AggregatorHttp.make({ baseUrl: face.url, ...credentials, secret: "wrong" }).accounts(accessToken))).message).toContain("INVALID_API_KEYS")
    fake.setLoginRequired(login.itemId, false)
    face.rateLimitNext()
    // Too many requests is the aggregator being unavailable for now: the feed is not marked broken.
    expect((await failureOf(port.sync(accessToken, null))).code).toBe("unavailable")
    const refused = since(before).filter((request) => request.status !== 200)
    expect(refused.map((request) => request.answer.error_code)).toEqual(["INVALID_PUBLIC_TOKEN", "ITEM_LOGIN_REQUIRED", "INTERNAL_SERVER_ERROR", "INVALID_API_KEYS", "TRANSACTIONS_SYNC_LIMIT"])
    expect(refused.at(-1)!.status).toBe(429)
    expect(refused.flatMap((request) => responseProblems(request))).toEqual([])
  })

  it("the fake refuses what Plaid refuses: unknown and missing fields, a count out of range", async () => {
    const post = async (path: string, body: object) => {
      const response = await fetch(`${face.url}${path}`, {
        method: "POST", headers: { "content-type": "application/json", "plaid-version": apiVersion }, body: JSON.stringify({ client_id: credentials.clientId, secret: credentials.secret, ...body })
      })
      return { status: response.status, body: await response.json() as Record<string, unknown> }
    }
    expect(await post("/transactions/sync", { access_token: "access-x", after: "c1" })).toMatchObject({
      status: 400, body: { error_type: "INVALID_REQUEST", error_code: "UNKNOWN_FIELDS", display_message: null }
    })
    expect(await post("/accounts/get", {})).toMatchObject({ status: 400, body: { error_type: "INVALID_REQUEST", error_code: "MISSING_FIELDS" } })
    expect(await post("/transactions/sync", { access_token: "access-x", count: 501 })).toMatchObject({ status: 400, body: { error_type: "INVALID_REQUEST", error_code: "INVALID_FIELD" } })
    expect(face.requests().slice(-3).flatMap((request) => responseProblems(request))).toEqual([])
  })

  it("a request the description does not have is reported", () => {
    const headers = { "content-type": "application/json", "plaid-version": apiVersion }
    const body = (value: object) => JSON.stringify({ client_id: "c", secret: "s", ...value })
    expect(requestProblems({ method: "POST", path: "/transactions/sync", headers, body: body({ access_token: "a", count: 501, since: "x" }) })).toEqual([
      "POST /transactions/sync: body.count: 501 is over the maximum 500",
      "POST /transactions/sync: body.since: not in the description"
    ])
    expect(requestProblems({ method: "POST", path: "/link/token/create", headers, body: body({ client_name: "L", language: "en", country_codes: ["XX"], user: {} }) })).toEqual([
      "POST /link/token/create: body.country_codes[0]: \"XX\" is not one of US, GB, ES, NL, FR, IE, CA, DE, IT, PL, DK, NO",
      "POST /link/token/create: body.user.client_user_id: required"
    ])
    expect(requestProblems({ method: "POST", path: "/accounts/get", headers: { "content-type": "application/json" }, body: JSON.stringify({ access_token: "a" }) })).toEqual([
      "POST /accounts/get: Plaid-Version is not 2020-09-14",
      "POST /accounts/get: no client_id and secret"
    ])
    expect(requestProblems({ method: "GET", path: "/accounts/get", headers, body: "" })).toEqual(["GET /accounts/get: no such operation"])
    expect(requestProblems({ method: "POST", path: "/p/item/get", headers, body: body({ access_token: "a" }) }, { basePath: "/p" })).toEqual([])
  })
})
