import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { AggregatorHttp } from "@ledger/server/adapters"
import { FakeAggregator, FakeAggregatorHttp } from "@ledger/testkit"
import { type BankingApp, makeBankingApp } from "../support.ts"

/**
 * A feed sync that pages (issue 39), through the real HTTP adapter over the fake's Plaid face, in
 * pages of two: when the bank's data changes between two pages Plaid refuses the next one
 * (TRANSACTIONS_SYNC_MUTATION_DURING_PAGINATION) and the run starts again from its first cursor;
 * when Plaid says too many requests (429) mid-run, nothing of the run is kept and the next sync
 * takes it all. Either way every transaction is imported once.
 */

const credentials = { clientId: "client-pages", secret: "secret-pages" }
const checking = { accountId: "acc-chk", name: "Checking", mask: "0001", kind: "checking" }

let app: BankingApp
let face: FakeAggregatorHttp.FakeAggregatorHttp
/** Run after each `/transactions/sync` answer, with how many have been answered so far. */
let afterSync: (count: number) => void = () => {}
let syncCount = 0

beforeAll(async () => {
  const fake = FakeAggregator.make()
  face = await FakeAggregatorHttp.serve(fake, credentials)
  const layer = AggregatorHttp.layer({
    baseUrl: face.url,
    ...credentials,
    syncPageSize: 2,
    fetch: async (request) => {
      const response = await fetch(request)
      if (new URL(request.url).pathname === "/transactions/sync") afterSync(++syncCount)
      return response
    }
  })
  app = await makeBankingApp({ aggregator: { fake, layer } })
}, 120_000)
afterAll(async () => {
  await app?.close()
  await face?.close()
})

/** A company with a feed whose checking account is linked, and `count` transactions at the bank. */
const linkedFeed = async (count: number) => {
  const company = await app.createCompany()
  const login = app.aggregator.connect({ institution: "Paging Bank", accounts: [checking] })
  const feed = (await app.write("/v1/bank-feeds", company.ownerKey, { public_token: login.publicToken })).body
  const linked = await app.write(`/v1/bank-feeds/${feed.id}/accounts/link`, company.ownerKey, {
    account: "acc-chk",
    new_bank_account: { name: "Feed checking", kind: "checking", ledger_account: "1010" }
  })
  expect(linked.status).toBe(200)
  for (let index = 1; index <= count; index++) add(login.itemId, `t${index}`)
  const sync = () => app.write(`/v1/bank-feeds/${feed.id}/sync`, company.ownerKey, {})
  const lines = async () =>
    ((await app.call("GET", `/v1/bank-lines?bank_account_id=${linked.body.bank_account.id}&limit=1000`, { token: company.ownerKey })).body.data as Array<any>)
      .map((line) => line.amount_cents as number).sort((a, b) => a - b)
  const cursor = async () => (await app.query<{ sync_cursor: string | null }>("SELECT sync_cursor FROM bank_feeds WHERE id = $1", [feed.id]))[0]!.sync_cursor
  return { itemId: login.itemId, sync, lines, cursor }
}

const add = (itemId: string, id: string) =>
  app.aggregator.add(itemId, { transactionId: id, accountId: "acc-chk", date: "2026-03-01", amountCents: -100 * Number(id.slice(1)), name: id, memo: null })
const refusedCodes = (from: number) => face.requests().slice(from).filter((request) => request.status !== 200).map((request) => request.answer.error_code)
const cents = (count: number) => Array.from({ length: count }, (_, index) => -100 * (count - index))

describe("a paged feed sync against Plaid's pagination errors", () => {
  it("restarts from the run's first cursor when the bank's data changes mid-run, importing each transaction once", async () => {
    const feed = await linkedFeed(5)
    const before = face.requests().length
    const start = syncCount
    afterSync = (count) => {
      if (count === start + 1) add(feed.itemId, "t6")
    }
    const sync = await feed.sync()
    afterSync = () => {}
    expect(sync.body).toMatchObject({ status: "active", added: 6 })
    expect(await feed.lines()).toEqual(cents(6))
    expect(refusedCodes(before)).toEqual(["TRANSACTIONS_SYNC_MUTATION_DURING_PAGINATION"])
    // The first page, the refused second, then the whole run again from the null cursor: three pages of two.
    const bodies = face.requests().slice(before).map((request) => JSON.parse(request.body).cursor ?? null)
    expect(bodies.length).toBe(5)
    expect(bodies[2]).toBeNull()
    expect((await feed.sync()).body).toMatchObject({ added: 0, updated: 0, removed: 0 })
  })

  it("gives up for now when the data keeps changing, keeping nothing of the run, and the next sync takes it all", async () => {
    const feed = await linkedFeed(3)
    let extra = 10
    afterSync = () => add(feed.itemId, `t${extra++}`)
    const before = face.requests().length
    const sync = await feed.sync()
    afterSync = () => {}
    expect(sync.body).toMatchObject({ status: "error", added: 0 })
    expect(sync.body.message).toMatch(/kept changing/u)
    expect(refusedCodes(before)).toEqual(Array(4).fill("TRANSACTIONS_SYNC_MUTATION_DURING_PAGINATION"))
    expect(await feed.lines()).toEqual([])
    expect(await feed.cursor()).toBeNull()
    const again = await feed.sync()
    expect(again.body).toMatchObject({ status: "active", added: 3 + (extra - 10) })
  })

  it("keeps nothing of a run that Plaid rate-limits mid-way (429 RATE_LIMIT_EXCEEDED), and the next sync imports each once", async () => {
    const feed = await linkedFeed(5)
    const start = syncCount
    afterSync = (count) => {
      if (count === start + 1) face.rateLimitNext()
    }
    const before = face.requests().length
    const limited = await feed.sync()
    afterSync = () => {}
    expect(limited.body).toMatchObject({ status: "error", added: 0 })
    expect(refusedCodes(before)).toEqual(["TRANSACTIONS_SYNC_LIMIT"])
    expect(face.requests().slice(before).find((request) => request.status === 429)?.answer.error_type).toBe("RATE_LIMIT_EXCEEDED")
    expect(await feed.lines()).toEqual([])
    expect(await feed.cursor()).toBeNull()
    expect((await feed.sync()).body).toMatchObject({ status: "active", added: 5 })
    expect(await feed.lines()).toEqual(cents(5))
  })
})
