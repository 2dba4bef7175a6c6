import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { type BankingApp, type Company, makeBankingApp } from "../support.ts"

/**
 * Bank feeds over the fake aggregator: sealed tokens, linking within the plan, sync of added,
 * changed and removed transactions without posting twice, pending then posted, login required,
 * overlap with file imports, people-only operations.
 */

let app: BankingApp
beforeAll(async () => {
  // A hosted deployment (a payment processor): the plans' feed-account limits hold.
  app = await makeBankingApp({ billing: true })
}, 120_000)
afterAll(async () => {
  await app?.close()
})

const checking = { accountId: "acc-chk", name: "Checking", mask: "0001", kind: "checking" }
const savings = { accountId: "acc-sav", name: "Savings", mask: "0002", kind: "savings" }

const connect = async (company: Company, accounts = [checking, savings]) => {
  const login = app.aggregator.connect({ institution: "Fake Bank", accounts })
  const token = await app.write("/v1/bank-feeds/link-token", company.ownerKey, {})
  expect(token.status).toBe(201)
  expect(token.body.link_token).toMatch(/^link-fake/u)
  const feed = await app.write("/v1/bank-feeds", company.ownerKey, { public_token: login.publicToken })
  expect(feed.status).toBe(201)
  return { feed: feed.body, itemId: login.itemId }
}

const lines = async (company: Company, bankAccountId: number) =>
  (await app.call("GET", `/v1/bank-lines?bank_account_id=${bankAccountId}&limit=1000`, { token: company.ownerKey })).body.data as Array<any>

describe("bank feeds", () => {
  it("seals the access token, links within the plan and imports only after linking", async () => {
    const company = await app.createCompany({ plan: "solo" })
    const { feed, itemId } = await connect(company)
    expect(feed.accounts.map((account: any) => account.account).sort()).toEqual(["acc-chk", "acc-sav"])
    const stored = await app.query<{ sealed_access_token: string }>("SELECT sealed_access_token FROM bank_feeds WHERE id = $1", [feed.id])
    expect(stored[0]!.sealed_access_token).toMatch(/^v1\./u)
    expect(stored[0]!.sealed_access_token).not.toContain("access-fake")

    app.aggregator.add(itemId, { transactionId: "t1", accountId: "acc-chk", date: "2026-01-05", amountCents: -4200, name: "Grocer", memo: null })
    const early = await app.write(`/v1/bank-feeds/${feed.id}/sync`, company.ownerKey, {})
    expect(early.status).toBe(200)
    expect(early.body.added).toBe(0)

    const linked = await app.write(`/v1/bank-feeds/${feed.id}/accounts/link`, company.ownerKey, {
      account: "acc-chk",
      new_bank_account: { name: "Feed checking", kind: "checking", ledger_account: "1010" },
      import_from: "2026-01-01"
    })
    expect(linked.status).toBe(200)
    expect(linked.body.bank_account.feed).toEqual({ bank_feed_id: feed.id, feed_account: "acc-chk" })
    const bankAccountId = linked.body.bank_account.id
    const sync = await app.write(`/v1/bank-feeds/${feed.id}/sync`, company.ownerKey, {})
    expect(sync.body.added).toBe(1)
    expect((await lines(company, bankAccountId)).map((line) => line.amount_cents)).toEqual([-4200])

    const list = await app.call("GET", "/v1/bank-feeds", { token: company.ownerKey })
    expect(list.body).toMatchObject({ feeds_configured: true, plan: "solo", linked_accounts: 1, linked_accounts_limit: 3 })
  })

  it("refuses a link past the plan's limit of feed accounts", async () => {
    const company = await app.createCompany({ plan: "solo" })
    const accounts = [1, 2, 3, 4].map((index) => ({ accountId: `a${index}`, name: `Account ${index}`, mask: `000${index}`, kind: "checking" }))
    const { feed } = await connect(company, accounts)
    for (const [index, code] of ["1000", "1010", "1020"].entries()) {
      const linked = await app.write(`/v1/bank-feeds/${feed.id}/accounts/link`, company.ownerKey, {
        account: `a${index + 1}`,
        new_bank_account: { name: `Bank ${index}`, kind: "checking", ledger_account: code }
      })
      expect(linked.status).toBe(200)
    }
    const fourth = await app.write(`/v1/bank-feeds/${feed.id}/accounts/link`, company.ownerKey, {
      account: "a4",
      new_bank_account: { name: "Bank 4", kind: "savings", ledger_account: "1150" }
    })
    expect(fourth.status).toBe(422)
    expect(fourth.body.error).toMatchObject({ type: "feed_account_limit", details: { plan: "solo", limit: 3 } })
    const unlinked = await app.write(`/v1/bank-feeds/${feed.id}/accounts/unlink`, company.ownerKey, { account: "a1", reason: "closed" })
    expect(unlinked.status).toBe(200)
    const retry = await app.write(`/v1/bank-feeds/${feed.id}/accounts/link`, company.ownerKey, {
      account: "a4",
      new_bank_account: { name: "Bank 4", kind: "savings", ledger_account: "1150" }
    })
    expect(retry.status).toBe(200)
  })

  it("updates or withdraws a line the bank changes or removes, and flags it once acted on, never posting twice", async () => {
    const company = await app.createCompany()
    const { feed, itemId } = await connect(company)
    const linked = await app.write(`/v1/bank-feeds/${feed.id}/accounts/link`, company.ownerKey, {
      account: "acc-chk",
      new_bank_account: { name: "Feed checking", kind: "checking", ledger_account: "1010" },
      import_from: "2026-01-01"
    })
    const bankAccountId = linked.body.bank_account.id
    app.aggregator.add(itemId, { transactionId: "a", accountId: "acc-chk", date: "2026-02-01", amountCents: -1000, name: "Cafe", memo: null })
    app.aggregator.add(itemId, { transactionId: "b", accountId: "acc-chk", date: "2026-02-02", amountCents: -2000, name: "Books", memo: null })
    app.aggregator.add(itemId, { transactionId: "c", accountId: "acc-chk", date: "2026-02-03", amountCents: 5000, name: "Client", memo: null })
    app.aggregator.add(itemId, { transactionId: "old", accountId: "acc-chk", date: "2025-12-30", amountCents: 700, name: "Before", memo: null })
    expect((await app.write(`/v1/bank-feeds/${feed.id}/sync`, company.ownerKey, {})).body.added).toBe(3)
    const before = await lines(company, bankAccountId)
    const client = before.find((line) => line.payee === "Client")
    const categorized = await app.write(`/v1/bank-lines/${client.id}/categorize`, company.ownerKey, { account: "4100" })
    expect(categorized.status).toBe(201)

    app.aggregator.modify(itemId, "a", { amountCents: -1100, name: "Cafe Central" })
    app.aggregator.remove(itemId, "b")
    app.aggregator.modify(itemId, "c", { amountCents: 5500 })
    const sync = await app.write(`/v1/bank-feeds/${feed.id}/sync`, company.ownerKey, {})
    expect(sync.body).toMatchObject({ added: 0, updated: 1, removed: 1, flagged_for_review: 1 })
    const after = await lines(company, bankAccountId)
    expect(after.map((line) => [line.payee, line.amount_cents, line.status]).sort()).toEqual([
      ["Cafe Central", -1100, "unmatched"],
      ["Client", 5000, "categorized"]
    ])
    expect(after.find((line) => line.payee === "Client").review).toMatch(/changed/u)
    const entries = await app.query<{ n: number }>("SELECT count(*)::int AS n FROM journal_entries WHERE company_id = $1", [company.companyId])
    expect(entries[0]!.n).toBe(1)

    // A sync that brings nothing new changes nothing.
    const idle = await app.write(`/v1/bank-feeds/${feed.id}/sync`, company.ownerKey, {})
    expect(idle.body).toMatchObject({ added: 0, updated: 0, removed: 0 })
    app.aggregator.remove(itemId, "c")
    const removedActed = await app.write(`/v1/bank-feeds/${feed.id}/sync`, company.ownerKey, {})
    expect(removedActed.body.flagged_for_review).toBe(1)
    expect((await lines(company, bankAccountId)).find((line) => line.payee === "Client").review).toMatch(/removed/u)
  })

  it("does not import again a transaction already imported from a file", async () => {
    const company = await app.createCompany()
    const bank = await app.write("/v1/bank-accounts", company.ownerKey, { name: "Checking", kind: "checking", ledger_account: "1010" })
    const csv = "Date,Description,Amount\n2026-03-02,Rent,-1500.00\n2026-03-05,Coffee,-4.50\n"
    const imported = await app.write(`/v1/bank-accounts/${bank.body.id}/imports`, company.ownerKey, { format: "csv", content: csv })
    expect(imported.body.lines_imported).toBe(2)
    const { feed, itemId } = await connect(company)
    app.aggregator.add(itemId, { transactionId: "rent", accountId: "acc-chk", date: "2026-03-03", amountCents: -150000, name: "RENT CO", memo: null })
    app.aggregator.add(itemId, { transactionId: "new", accountId: "acc-chk", date: "2026-03-07", amountCents: -999, name: "Later", memo: null })
    const linked = await app.write(`/v1/bank-feeds/${feed.id}/accounts/link`, company.ownerKey, {
      account: "acc-chk",
      bank_account_id: bank.body.id,
      import_from: "2026-03-01"
    })
    expect(linked.status).toBe(200)
    const sync = await app.write(`/v1/bank-feeds/${feed.id}/sync`, company.ownerKey, {})
    expect(sync.body).toMatchObject({ added: 1, duplicates: 1 })
    expect((await lines(company, bank.body.id)).map((line) => line.amount_cents).sort((a, b) => a - b)).toEqual([-150000, -999, -450])
    const unlinked = await app.write(`/v1/bank-feeds/${feed.id}/accounts/unlink`, company.ownerKey, { account: "acc-chk", reason: "test" })
    expect(unlinked.status).toBe(200)
    const relinked = await app.write(`/v1/bank-feeds/${feed.id}/accounts/link`, company.ownerKey, { account: "acc-chk", bank_account_id: bank.body.id })
    expect(relinked.body.bank_feed.accounts.find((account: any) => account.account === "acc-chk").import_from).toBe("2026-03-06")
    expect((await app.write(`/v1/bank-feeds/${feed.id}/sync`, company.ownerKey, {})).body.added).toBe(0)
  })

  it("imports pending transactions only when asked, replacing each with its posted form", async () => {
    const company = await app.createCompany()
    const { feed, itemId } = await connect(company)
    const linked = await app.write(`/v1/bank-feeds/${feed.id}/accounts/link`, company.ownerKey, {
      account: "acc-chk",
      new_bank_account: { name: "Checking", kind: "checking", ledger_account: "1010" },
      import_from: "2026-01-01"
    })
    const bankAccountId = linked.body.bank_account.id
    app.aggregator.add(itemId, { transactionId: "p1", accountId: "acc-chk", date: "2026-04-01", amountCents: -2500, name: "Hotel", memo: null, pending: true })
    expect((await app.write(`/v1/bank-feeds/${feed.id}/sync`, company.ownerKey, {})).body.added).toBe(0)

    // A setting left out keeps its value (spec 4.5 marks include_pending optional): nothing replays.
    const kept = await app.write(`/v1/bank-feeds/${feed.id}/settings`, company.ownerKey, {})
    expect(kept.status).toBe(200)
    expect(kept.body.bank_feed.include_pending).toBe(false)
    expect(kept.body.replay).toBeNull()
    const settings = await app.write(`/v1/bank-feeds/${feed.id}/settings`, company.ownerKey, { include_pending: true })
    expect(settings.status).toBe(200)
    expect(settings.body.replay.added).toBe(1)
    const pending = (await lines(company, bankAccountId))[0]
    expect(pending.pending).toBe(true)
    const refused = await app.write(`/v1/bank-lines/${pending.id}/categorize`, company.ownerKey, { account: "6210" })
    expect(refused.body.error.type).toBe("bank_line_state")

    app.aggregator.post(itemId, "p1", { transactionId: "p1-posted", amountCents: -2750, date: "2026-04-03" })
    await app.write(`/v1/bank-feeds/${feed.id}/sync`, company.ownerKey, {})
    const posted = await lines(company, bankAccountId)
    expect(posted).toHaveLength(1)
    expect(posted[0]).toMatchObject({ id: pending.id, pending: false, amount_cents: -2750, date: "2026-04-03" })

    app.aggregator.add(itemId, { transactionId: "p2", accountId: "acc-chk", date: "2026-04-05", amountCents: -300, name: "Taxi", memo: null, pending: true })
    await app.write(`/v1/bank-feeds/${feed.id}/sync`, company.ownerKey, {})
    expect(await lines(company, bankAccountId)).toHaveLength(2)
    const off = await app.write(`/v1/bank-feeds/${feed.id}/settings`, company.ownerKey, { include_pending: false })
    expect(off.body.bank_feed.include_pending).toBe(false)
    expect((await lines(company, bankAccountId)).map((line) => line.pending)).toEqual([false])
  })

  it("reports login required, and works again after a reconnect", async () => {
    const company = await app.createCompany()
    const { feed, itemId } = await connect(company)
    app.aggregator.setLoginRequired(itemId, true)
    const sync = await app.write(`/v1/bank-feeds/${feed.id}/sync`, company.ownerKey, {})
    expect(sync.status).toBe(200)
    expect(sync.body.status).toBe("login_required")
    expect(sync.body.message).toMatch(/reconnect/u)
    expect((await app.call("GET", `/v1/bank-feeds/${feed.id}`, { token: company.ownerKey })).body.status).toBe("login_required")
    const stillLocked = await app.write(`/v1/bank-feeds/${feed.id}/reconnected`, company.ownerKey, {})
    expect(stillLocked.status).toBe(502)
    expect(stillLocked.body.error.type).toBe("bad_gateway")
    const update = await app.write("/v1/bank-feeds/link-token", company.ownerKey, { bank_feed_id: feed.id })
    expect(update.body.link_token).toMatch(/update/u)
    app.aggregator.setLoginRequired(itemId, false)
    const reconnected = await app.write(`/v1/bank-feeds/${feed.id}/reconnected`, company.ownerKey, {})
    expect(reconnected.body.status).toBe("active")
    app.aggregator.failNext()
    const down = await app.write(`/v1/bank-feeds/${feed.id}/sync`, company.ownerKey, {})
    expect(down.body.status).toBe("error")
  })

  it("refuses agents on people-only operations, but lets them sync", async () => {
    const company = await app.createCompany()
    const { feed } = await connect(company)
    const agent = await app.createAgent(company, 100_000, ["read", "propose", "approve", "admin"])
    const headers = { "x-agent-model": "test-model" }
    for (const [path, body] of [
      ["/v1/bank-feeds/link-token", {}],
      ["/v1/bank-feeds", { public_token: "x" }],
      [`/v1/bank-feeds/${feed.id}/accounts/link`, { account: "acc-chk", bank_account_id: 1 }],
      [`/v1/bank-feeds/${feed.id}/accounts/unlink`, { account: "acc-chk", reason: "x" }],
      [`/v1/bank-feeds/${feed.id}/reconnected`, {}],
      [`/v1/bank-feeds/${feed.id}/settings`, { include_pending: true }]
    ] as const) {
      const refused = await app.write(path, agent.key, body, headers)
      expect(refused.status, path).toBe(403)
      expect(refused.body.error.type).toBe("insufficient_scope")
    }
    const sync = await app.write(`/v1/bank-feeds/${feed.id}/sync`, agent.key, {}, headers)
    expect(sync.status).toBe(200)
    const badToken = await app.write("/v1/bank-feeds", company.ownerKey, { public_token: "not-a-token" })
    expect(badToken.status).toBe(502)
  })
})

describe("bank feeds without billing (no payment processor, as `pnpm start`)", () => {
  let bare: BankingApp
  beforeAll(async () => {
    bare = await makeBankingApp()
  }, 120_000)
  afterAll(async () => {
    await bare?.close()
  })

  it("links any number of feed accounts on any plan: no plan limit applies (ADR 2000)", async () => {
    const company = await bare.createCompany({ plan: "solo" })
    const accounts = [1, 2, 3, 4].map((index) => ({ accountId: `s${index}`, name: `Account ${index}`, mask: `000${index}`, kind: "checking" }))
    const login = bare.aggregator.connect({ institution: "Fake Bank", accounts })
    expect((await bare.write("/v1/bank-feeds/link-token", company.ownerKey, {})).status).toBe(201)
    const feed = await bare.write("/v1/bank-feeds", company.ownerKey, { public_token: login.publicToken })
    expect(feed.status).toBe(201)
    for (const [index, code] of ["1000", "1010", "1020", "1150"].entries()) {
      const linked = await bare.write(`/v1/bank-feeds/${feed.body.id}/accounts/link`, company.ownerKey, {
        account: `s${index + 1}`,
        new_bank_account: { name: `Bank ${index}`, kind: "checking", ledger_account: code }
      })
      expect(linked.status, JSON.stringify(linked.body)).toBe(200)
    }
    const list = await bare.call("GET", "/v1/bank-feeds", { token: company.ownerKey })
    expect(list.body).toMatchObject({ plan: "solo", linked_accounts: 4, linked_accounts_limit: null })
  })
})
