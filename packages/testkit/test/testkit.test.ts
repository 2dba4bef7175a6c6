import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { isClientError, isDryRun, isPendingApproval } from "@ledger/client"
import { BalanceMismatch, makeTestLedger, startDefault, type TestLedger } from "@ledger/testkit"

const databaseUrl = process.env.DATABASE_URL === "" ? undefined : process.env.DATABASE_URL

let ledger: TestLedger
beforeAll(async () => {
  ledger = await makeTestLedger({ seed: 7, databaseUrl })
})
afterAll(() => ledger.close())

const rejection = (promise: Promise<unknown>) => promise.then(() => null, (error: unknown) => error)

describe("the test ledger's clock", () => {
  it("is frozen until moved, and every timestamp follows it", async () => {
    expect(ledger.clock.now()).toBe(startDefault)
    const company = await ledger.createCompany()
    const first = await company.client.createUser({ name: "Early", role: "staff" })
    expect(first.created_at).toBe(startDefault)
    ledger.clock.advance("2 days")
    const second = await company.client.createUser({ name: "Later", role: "staff" })
    expect(second.created_at).toBe("2025-01-08T09:00:00.000Z")
    expect(ledger.clock.today()).toBe("2025-01-08")
    ledger.clock.set("2025-02-01T12:00:00Z")
    expect(ledger.clock.now()).toBe("2025-02-01T12:00:00.000Z")
  })

  it("moves key expiry: an agent key of one day stops the next day", async () => {
    const company = await ledger.createCompany()
    const agent = await company.createAgent({ expires_in_days: 1 })
    expect((await agent.client.getMe()).principal_type).toBe("agent")
    ledger.clock.advance("25 hours")
    expect(isClientError(await rejection(agent.client.getMe()), "unauthorized")).toBe(true)
  })
})

describe("companies, people and agents", () => {
  it("a company comes with its owner's key; people get the scopes of their role", async () => {
    const company = await ledger.createCompany({ name: "Helpers Co", plan: "business" })
    const me = await company.client.getMe()
    expect(me).toMatchObject({ principal_type: "user", role: "owner", company: { company_id: company.companyId, plan: "business" } })
    const staff = await company.createUser({ role: "staff" })
    expect(staff.scopes).not.toContain("admin")
    expect(isClientError(await rejection(staff.client.createUser({ name: "X", role: "staff" })), "insufficient_scope")).toBe(true)
  })

  it("an agent posts within its threshold, proposes above it, and a person approves", async () => {
    const company = await ledger.createCompany()
    const agent = await company.createAgent({ posting_threshold_cents: 50_00, model: "agent-under-test/1" })
    const lines = (cents: number) => [{ account: "6070", debit_cents: cents }, { account: "1010", credit_cents: cents }]

    const posted = await agent.client.request("proposeJournalEntry", { entry_date: ledger.clock.today(), lines: lines(40_00) })
    expect(posted.status).toBe(201)
    const queued = await agent.client.proposeJournalEntry({ entry_date: ledger.clock.today(), lines: lines(60_00) })
    expect(isPendingApproval(queued)).toBe(true)
    if (!isPendingApproval(queued)) return
    expect(isClientError(await rejection(agent.client.approveProposal({ id: queued.proposal.id })), "insufficient_scope")).toBe(true)

    await company.assertBalances({ "6070": 40_00, "1010": -40_00 })
    await company.client.approveProposal({ id: queued.proposal.id, reason: "Looks right" })
    await company.assertBalances({ "6070": 100_00, "1010": -100_00 })
    const balances = await company.balances()
    expect(balances["6070"]).toBe(100_00)
  })

  it("assertBalances says which accounts differ and by how much", async () => {
    const company = await ledger.createCompany()
    const error = await rejection(company.assertBalances({ "1010": 12_34, "9999": 0, "6070": 0 }))
    expect(error).toBeInstanceOf(BalanceMismatch)
    expect((error as Error).message).toContain("1010: expected 12.34, got 0.00")
    expect((error as Error).message).toContain("9999: expected 0.00, no such account")
    expect((error as BalanceMismatch).differences).toHaveLength(2)
  })
})

describe("rate limits and outside providers", () => {
  it("applies the plan's rate limit; the testkit's clients wait it out on the test clock", async () => {
    const company = await ledger.createCompany({ plan: "solo" })
    const before = Date.parse(ledger.clock.now())
    for (let index = 0; index < 61; index++) await company.client.getCompany()
    // The 61st waited (the clock moved) instead of failing.
    expect(Date.parse(ledger.clock.now())).toBeGreaterThan(before)
    const strict = company.clientWith({ retry: false })
    const refused = await rejection(strict.getCompany())
    expect(isClientError(refused, "rate_limited")).toBe(true)
  })

  it("delivers email to the fake mailbox when the jobs run", async () => {
    const company = await ledger.createCompany()
    const customer = await company.client.createContact({ kind: "customer", name: "Mail Test Customer", email: "ap@customer.example" })
    const invoice = await company.client.createInvoice({
      contact_id: customer.id,
      doc_date: ledger.clock.today(),
      lines: [{ description: "Consulting", amount_cents: 250_00, account: "4000" }]
    })
    if (isPendingApproval(invoice) || isDryRun(invoice)) throw new Error("the owner's invoice should post")
    const sentBefore = ledger.providers.mail.sent.length
    await company.client.emailDocument({ id: invoice.id, to: "ap@customer.example" })
    expect(ledger.providers.mail.sent.length).toBe(sentBefore)
    expect(await ledger.runJobs()).toBeGreaterThanOrEqual(1)
    const delivered = ledger.providers.mail.sent.slice(sentBefore)
    expect(delivered).toHaveLength(1)
    expect(delivered[0]!.to.address).toBe("ap@customer.example")
    expect(delivered[0]!.attachments[0]?.contentType).toBe("application/pdf")
  })

  it("gives bank feeds a scriptable fake aggregator", async () => {
    const company = await ledger.createCompany()
    const token = await company.client.createBankFeedLinkToken({})
    expect(token).toBeTruthy()
    expect(ledger.providers.aggregator.linkTokensIssued()).toBeGreaterThanOrEqual(1)
  })
})
