import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { agentWithThreshold, makeTestApp, type TestApp, type TestCompany } from "../../support/index.ts"
import { propose, simpleLines } from "../support.ts"

/**
 * The amount bound on every path that posts (issue 38 item 12, ADR 0717's addendum): the engine
 * checked an entry against the turnover it read first, so postings committing together, an
 * approval, and a reversal could each take an account past Number.MAX_SAFE_INTEGER, after which
 * every report on the account answers 422. The database now refuses the statement of lines that
 * would (migration 0045), and the API answers 422 `amount_out_of_range`.
 */

let app: TestApp
beforeAll(async () => {
  app = await makeTestApp({ clock: "2026-11-26T09:00:00Z" })
})
afterAll(async () => {
  await app.close()
})

const date = "2026-11-02"

const expectOutOfRange = (result: { status: number; body: any }) => {
  expect(result.status, JSON.stringify(result.body)).toBe(422)
  expect(result.body.error.type).toBe("amount_out_of_range")
  expect(result.body.error.details.limit_cents).toBe(Number.MAX_SAFE_INTEGER)
}

const company = (name: string) => app.createCompany({ name, starter_chart: "general" })

/** Nine entries of 1e15 cents: 1010's debits and 4000's credits at 9e15, 7,199,254,740,991 short of the bound. */
const nearTheBound = async (owner: TestCompany) => {
  for (let index = 0; index < 9; index++) {
    const posted = await propose(app, owner.ownerKey, { entry_date: date, lines: simpleLines("1010", "4000", 1e15) })
    expect(posted.status).toBe(201)
  }
}

/** The trial balance still answers, its total debits (net per account) as expected. */
const expectReportsAnswer = async (owner: TestCompany, debits: number) => {
  const trialBalance = await app.call("GET", "/v1/reports/trial-balance", { token: owner.ownerKey })
  expect(trialBalance.status, JSON.stringify(trialBalance.body)).toBe(200)
  expect(trialBalance.body.total_debit_cents).toBe(debits)
}

describe("the amount bound on every path", () => {
  it("postings sent together, committed in batches, take an account only up to the bound", async () => {
    const owner = await company("Together Ltd")
    // Twenty requests at once: the group commit posts them in batches of several, each batch
    // checked against turnover read (or remembered) before the others committed.
    const answers = await Promise.all(Array.from({ length: 20 }, () =>
      propose(app, owner.ownerKey, { entry_date: date, lines: simpleLines("1010", "4000", 1e15) })))
    const posted = answers.filter((answer) => answer.status === 201)
    const refused = answers.filter((answer) => answer.status !== 201)
    expect(posted).toHaveLength(9)
    expect(refused).toHaveLength(11)
    for (const answer of refused) expectOutOfRange(answer)
    await expectReportsAnswer(owner, 9e15)
  })

  it("a reversal that would take an account past the bound is refused", async () => {
    const owner = await company("Reversal Ltd")
    await nearTheBound(owner)
    // 1010 credited once: its reversal debits 1010 a tenth 1e15.
    const credited = await propose(app, owner.ownerKey, { entry_date: date, lines: simpleLines("4000", "1010", 1e15) })
    expect(credited.status).toBe(201)
    const reversal = await app.call("POST", `/v1/journal-entries/${credited.body.id}/reverse`, {
      token: owner.ownerKey,
      key: crypto.randomUUID(),
      body: { entry_date: date }
    })
    expectOutOfRange(reversal)
    await expectReportsAnswer(owner, 8e15)
  })

  it("an approval that would take an account past the bound is refused, and the proposal stays pending", async () => {
    const owner = await company("Approval Ltd")
    const agent = await agentWithThreshold(app, owner, { thresholdCents: 100 })
    const queued = await propose(app, agent.key, { entry_date: date, lines: simpleLines("1010", "4000", 1e15) }, { headers: agent.headers })
    expect(queued.status).toBe(202)
    // Posted after the proposal was queued: approving it now would make 1e16.
    await nearTheBound(owner)
    const approved = await app.call("POST", `/v1/proposals/${queued.body.proposal.id}/approve`, {
      token: owner.ownerKey,
      key: crypto.randomUUID(),
      body: {}
    })
    expectOutOfRange(approved)
    const proposal = await app.call("GET", `/v1/proposals/${queued.body.proposal.id}`, { token: owner.ownerKey })
    expect(proposal.body.status).toBe("pending")
    await expectReportsAnswer(owner, 9e15)
  })
})
