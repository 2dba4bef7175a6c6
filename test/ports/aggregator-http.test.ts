import { randomBytes } from "node:crypto"
import { Effect, Exit, Option } from "effect"
import fc from "fast-check"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import type { Ports } from "@ledger/engine"
import { AggregatorHttp } from "@ledger/server/adapters"
import { FakeAggregator, FakeAggregatorHttp } from "@ledger/testkit"
import { freshStore, type RunningServer, startServer, type Store } from "../support/server-process.ts"

/**
 * The bank-feed aggregator's real HTTP adapter (server adapters/AggregatorHttp.ts) against the
 * testkit's fake of the same API on loopback, and `ledger serve` wiring it from
 * LEDGER_AGGREGATOR_URL: a real server links a bank and imports its transactions over HTTP.
 */

const credentials = { clientId: "client-test", secret: "secret-test" }
const checking = { accountId: "acc-chk", name: "Checking", mask: "0001", kind: "checking" }
const card = { accountId: "acc-card", name: "Card", mask: "9999", kind: "credit_card" }

let fake: FakeAggregator.FakeAggregator
let face: FakeAggregatorHttp.FakeAggregatorHttp
const wire: Array<string> = []
beforeAll(async () => {
  fake = FakeAggregator.make()
  face = await FakeAggregatorHttp.serve(fake, credentials)
})
afterAll(() => face?.close())

/** The adapter over the fake, recording every answer's text as it crossed the wire. */
const adapter = (options: Partial<AggregatorHttp.Options> = {}) =>
  AggregatorHttp.make({
    baseUrl: face.url,
    ...credentials,
    fetch: async (request) => {
      const response = await fetch(request)
      const text = await response.text()
      wire.push(text)
      return new Response(text, { status: response.status, headers: response.headers })
    },
    ...options
  })

const failureOf = async <A>(effect: Effect.Effect<A, Ports.AggregatorFailure>) => {
  const exit = await Effect.runPromiseExit(effect)
  if (Exit.isSuccess(exit)) throw new Error("expected a failure")
  return Option.getOrThrow(Exit.findErrorOption(exit))
}

const syncAll = async (port: Ports.Aggregator["Service"], accessToken: string, cursor: string | null) => {
  const pages: Array<Ports.SyncPage> = []
  let next = cursor
  for (;;) {
    const page = await Effect.runPromise(port.sync(accessToken, next))
    pages.push(page)
    next = page.nextCursor
    if (!page.hasMore) return { pages, cursor: next }
  }
}

describe("the aggregator's HTTP adapter", () => {
  it("links a bank: a link token, the public token exchanged, the institution and its accounts", async () => {
    const port = adapter()
    const login = fake.connect({ institution: "First Fake Bank", accounts: [checking, card] })
    const link = await Effect.runPromise(port.createLinkToken({ companyId: "c1", clientUserId: "u1", accessToken: null, accountSelection: false }))
    expect(link.linkToken).toMatch(/^link-fake-link-/)
    expect(Date.parse(link.expiresAt)).not.toBeNaN()
    const exchanged = await Effect.runPromise(port.exchangePublicToken(login.publicToken))
    expect(exchanged).toMatchObject({ itemId: login.itemId, institution: "First Fake Bank" })
    expect(await Effect.runPromise(port.accounts(exchanged.accessToken))).toEqual([checking, card])
    // A public token works once.
    expect((await failureOf(port.exchangePublicToken(login.publicToken))).code).toBe("invalid_token")
  })

  it("syncs in pages with exact cents, signs turned round, then changes and removals since the cursor", async () => {
    const port = adapter({ syncPageSize: 2 })
    const login = fake.connect({ institution: "Paging Bank", accounts: [checking] })
    const { accessToken } = await Effect.runPromise(port.exchangePublicToken(login.publicToken))
    const amounts = [-1234, 5000, 30, -1, 123_456_789]
    amounts.forEach((amountCents, index) =>
      fake.add(login.itemId, { transactionId: `t${index}`, accountId: "acc-chk", date: "2026-03-0" + (index + 1), amountCents, name: `N${index}`, memo: null }))
    wire.length = 0
    const first = await syncAll(port, accessToken, null)
    expect(first.pages.map((page) => page.added.length)).toEqual([2, 2, 1])
    expect(first.pages.flatMap((page) => page.added).map((line) => line.amountCents)).toEqual(amounts)
    // On the wire: decimal dollars, positive out of the account.
    expect(wire.join("\n")).toContain("\"amount\":12.34")
    expect(wire.join("\n")).toContain("\"amount\":-1234567.89")

    fake.modify(login.itemId, "t1", { amountCents: 5100 })
    fake.remove(login.itemId, "t2")
    const second = await syncAll(port, accessToken, first.cursor)
    expect(second.pages.flatMap((page) => page.modified).map((line) => [line.transactionId, line.amountCents])).toEqual([["t1", 5100]])
    expect(second.pages.flatMap((page) => page.removed)).toEqual(["t2"])
    expect((await syncAll(port, accessToken, second.cursor)).pages.flatMap((page) => page.added)).toEqual([])
  })

  it("maps the API's refusals: login required, unknown token, an outage, wrong credentials", async () => {
    const port = adapter()
    const login = fake.connect({ institution: "Strict Bank", accounts: [checking] })
    const { accessToken } = await Effect.runPromise(port.exchangePublicToken(login.publicToken))
    fake.setLoginRequired(login.itemId, true)
    expect((await failureOf(port.sync(accessToken, null))).code).toBe("login_required")
    fake.setLoginRequired(login.itemId, false)
    expect((await failureOf(port.accounts("access-nobody"))).code).toBe("invalid_token")
    fake.failNext()
    expect((await failureOf(port.accounts(accessToken))).code).toBe("unavailable")
    const wrong = await failureOf(adapter({ secret: "wrong" }).accounts(accessToken))
    expect(wrong).toMatchObject({ code: "error" })
    expect(wrong.message).toContain("INVALID_API_KEYS")
    expect((await failureOf(AggregatorHttp.make({ baseUrl: "http://127.0.0.1:9", ...credentials }).accounts(accessToken))).code).toBe("unavailable")
  })

  it("reads amounts through their decimal text: every cent round-trips, and malformed amounts are refused, not rounded", () => {
    fc.assert(fc.property(fc.integer({ min: -(10 ** 15) + 1, max: 10 ** 15 - 1 }), (cents) => {
      expect(AggregatorHttp.centsIntoAccount(FakeAggregatorHttp.dollarsOutOf(cents))).toBe(cents)
    }))
    for (const malformed of [1.005, 1e21, 5e-7, Number.NaN, Number.POSITIVE_INFINITY, "12.00", null]) {
      expect(AggregatorHttp.centsIntoAccount(malformed)).toBeNull()
    }
    expect(AggregatorHttp.centsIntoAccount(0.1)).toBe(-10)
    expect(AggregatorHttp.centsIntoAccount(-0)).toBe(0)
  })
})

describe("ledger serve with LEDGER_AGGREGATOR_URL", () => {
  let store: Store
  let server: RunningServer
  const operatorToken = `operator-${randomBytes(12).toString("hex")}`
  beforeAll(async () => {
    store = await freshStore()
    server = await startServer(store, {
      ...(store.kind === "pglite" ? { LEDGER_DATA_DIR: "memory" } : {}),
      LEDGER_OPERATOR_TOKEN: operatorToken,
      LEDGER_MASTER_KEY: randomBytes(32).toString("hex"),
      LEDGER_AGGREGATOR_URL: face.url,
      LEDGER_AGGREGATOR_CLIENT_ID: credentials.clientId,
      LEDGER_AGGREGATOR_SECRET: credentials.secret
    })
  }, 300_000)
  afterAll(async () => {
    await server?.stop()
    await store?.remove()
  }, 120_000)

  let counter = 0
  const call = async (method: string, path: string, token: string, body?: unknown) => {
    const response = await fetch(`${server.url}${path}`, {
      method,
      headers: {
        authorization: `Bearer ${token}`,
        ...(body === undefined ? {} : { "content-type": "application/json", "idempotency-key": `aggregator-http-${++counter}` })
      },
      ...(body === undefined ? {} : { body: JSON.stringify(body) })
    })
    return { status: response.status, body: await response.json() as any }
  }

  it("no longer lists bank feeds among what it has not configured, and imports a linked account's transactions", async () => {
    // The start line still names what is missing (mail here), but no longer bank feeds. It may
    // be written a moment after /health first answers.
    for (let wait = 0; wait < 300 && !/Not configured: [^\n]*\n/.test(server.output()); wait++) {
      await new Promise((resolve) => setTimeout(resolve, 100))
    }
    expect(server.output()).toMatch(/Not configured: [^\n]*mail/)
    expect(server.output()).not.toMatch(/Not configured: [^\n]*bank feeds/)
    const company = await call("POST", "/v1/companies", operatorToken, { name: "Feeds Co", owner_name: "Owner", plan: "owned" })
    expect(company.status).toBe(201)
    const owner = company.body.secret as string
    const login = fake.connect({ institution: "Served Bank", accounts: [checking] })
    expect((await call("POST", "/v1/bank-feeds/link-token", owner, {})).status).toBe(201)
    const feed = await call("POST", "/v1/bank-feeds", owner, { public_token: login.publicToken })
    expect(feed.status, JSON.stringify(feed.body)).toBe(201)
    expect(feed.body.accounts.map((account: any) => account.account)).toEqual(["acc-chk"])
    const linked = await call("POST", `/v1/bank-feeds/${feed.body.id}/accounts/link`, owner, {
      account: "acc-chk",
      new_bank_account: { name: "Feed checking", kind: "checking", ledger_account: "1010" },
      import_from: "2026-01-01"
    })
    expect(linked.status, JSON.stringify(linked.body)).toBe(200)
    fake.add(login.itemId, { transactionId: "s1", accountId: "acc-chk", date: "2026-02-03", amountCents: -4242, name: "Grocer", memo: null })
    fake.add(login.itemId, { transactionId: "s2", accountId: "acc-chk", date: "2026-02-04", amountCents: 100_000, name: "Client", memo: null })
    const sync = await call("POST", `/v1/bank-feeds/${feed.body.id}/sync`, owner, {})
    expect(sync.status, JSON.stringify(sync.body)).toBe(200)
    expect(sync.body.added).toBe(2)
    const lines = await call("GET", `/v1/bank-lines?bank_account_id=${linked.body.bank_account.id}`, owner)
    expect(lines.body.data.map((line: any) => line.amount_cents).sort((a: number, b: number) => a - b)).toEqual([-4242, 100_000])
    expect(face.calls()).toContain("/transactions/sync")
  })
})
