import { afterAll, beforeAll, describe, expect, it } from "vitest"
import fc from "fast-check"
import { type Agent, agentWithThreshold, createPerson, makeTestApp, newKey, type TestApp, type TestCompany } from "../support/index.ts"
import { propose } from "./support.ts"

/**
 * Random sequences of postings, agent postings and proposals, approvals, rejections, reversals
 * and period status changes, run over HTTP against a model of what each should do. After every
 * step: the trial balance (sum of the daily totals) is zero, the daily totals equal a
 * recomputation from the lines, and every balance equals the model's. A reversal restores every
 * balance the entry moved.
 */

let app: TestApp
beforeAll(async () => {
  app = await makeTestApp()
})
afterAll(() => app.close())

const accounts = { "1010": "asset", "1400": "asset", "2100": "liability", "3010": "equity", "4000": "income", "6070": "expense", "6080": "expense" } as const
type Code = keyof typeof accounts
const codes = Object.keys(accounts) as Array<Code>
const natural = (code: Code) => (accounts[code] === "asset" || accounts[code] === "expense" ? 1 : -1)
const farFuture = "2199-12-31"
const thresholdCents = 50_000

type Status = "open" | "soft_locked" | "hard_locked"

const pair = fc.record({
  debit: fc.constantFrom(...codes),
  credit: fc.constantFrom(...codes),
  cents: fc.integer({ min: 1, max: 100_000 })
})
const entryShape = fc.record({
  pairs: fc.array(pair, { minLength: 1, maxLength: 3 }),
  month: fc.integer({ min: 0, max: 23 }),
  day: fc.integer({ min: 1, max: 28 }),
  reason: fc.boolean()
})

const action = fc.oneof(
  { weight: 4, arbitrary: fc.record({ kind: fc.constant("post" as const), entry: entryShape }) },
  { weight: 4, arbitrary: fc.record({ kind: fc.constant("agent" as const), entry: entryShape }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant("approve" as const), pick: fc.nat(), reason: fc.boolean() }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant("reject" as const), pick: fc.nat() }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant("reverse" as const), pick: fc.nat(), month: fc.integer({ min: 0, max: 23 }), reason: fc.boolean() }) },
  {
    weight: 2,
    arbitrary: fc.record({
      kind: fc.constant("lock" as const),
      month: fc.integer({ min: 0, max: 23 }),
      status: fc.constantFrom<Status>("open", "soft_locked", "hard_locked"),
      reason: fc.boolean()
    })
  }
)

interface Posted {
  readonly id: number
  readonly effect: Partial<Record<Code, number>>
  reversed: boolean
}
interface Pending {
  readonly id: number
  readonly month: number
  readonly effect: Partial<Record<Code, number>>
  readonly reason: string | null
}

interface World {
  readonly company: TestCompany
  readonly agent: Agent
  readonly approver: { readonly key: string }
  /** Each period's status and the reason its last change stored (a reopening must state another, ADR 2016). */
  readonly periods: Array<{ id: number; start: string; status: Status; reason: string | null }>
  readonly balances: Record<Code, number>
  readonly posted: Array<Posted>
  pending: Array<Pending>
}

const dateOf = (world: World, month: number, day: number) => `${world.periods[month]!.start.slice(0, 8)}${String(day).padStart(2, "0")}`

const effectOf = (pairs: ReadonlyArray<{ debit: Code; credit: Code; cents: number }>) => {
  const effect: Partial<Record<Code, number>> = {}
  for (const { cents, credit, debit } of pairs) {
    effect[debit] = (effect[debit] ?? 0) + natural(debit) * cents
    effect[credit] = (effect[credit] ?? 0) - natural(credit) * cents
  }
  return effect
}
const apply = (balances: Record<Code, number>, effect: Partial<Record<Code, number>>, sign: 1 | -1) => {
  for (const [code, change] of Object.entries(effect) as Array<[Code, number]>) balances[code] += sign * change
}

/** What the period of a date says, for a write that carries `reason` (or none). */
const periodVerdict = (status: Status, reason: string | null): "ok" | "period_hard_locked" | "soft_lock_reason_required" =>
  status === "hard_locked" ? "period_hard_locked" : status === "soft_locked" && reason === null ? "soft_lock_reason_required" : "ok"

const linesOf = (pairs: ReadonlyArray<{ debit: Code; credit: Code; cents: number }>) =>
  pairs.flatMap(({ cents, credit, debit }) => [{ account: debit, debit_cents: cents }, { account: credit, credit_cents: cents }])

type Action = typeof action extends fc.Arbitrary<infer A> ? A : never
type ActionOf<Kind extends Action["kind"]> = Extract<Action, { readonly kind: Kind }>

/** A person posts at once; an agent posts within its threshold and proposes above it; locked periods refuse. */
const postStep = async (world: World, next: ActionOf<"post" | "agent">) => {
  const { entry } = next
  const reason = entry.reason ? "Late adjustment" : null
  const total = entry.pairs.reduce((sum, item) => sum + item.cents, 0)
  const token = next.kind === "post" ? world.company.ownerKey : world.agent.key
  const result = await propose(app, token, {
    entry_date: dateOf(world, entry.month, entry.day),
    lines: linesOf(entry.pairs),
    ...(reason === null ? {} : { soft_lock_override_reason: reason })
  }, { headers: world.agent.headers })
  const period = world.periods[entry.month]!
  const verdict = periodVerdict(period.status, reason)
  if (verdict !== "ok") {
    expect(result.status).toBe(422)
    expect(result.body.error.type).toBe(verdict)
    return
  }
  const effect = effectOf(entry.pairs)
  if (next.kind === "agent" && total > thresholdCents) {
    expect(result.status).toBe(202)
    world.pending.push({
      id: result.body.proposal.id,
      month: entry.month,
      effect,
      reason: period.status === "soft_locked" ? reason : null
    })
    return
  }
  expect(result.status).toBe(201)
  world.posted.push({ id: result.body.id, effect, reversed: false })
  apply(world.balances, effect, 1)
  return
}

/** A person approves or rejects a pending proposal; approval re-checks the period. */
const decideStep = async (world: World, next: ActionOf<"approve" | "reject">) => {
  if (world.pending.length === 0) return
  const proposal = world.pending[next.pick % world.pending.length]!
  if (next.kind === "reject") {
    const result = await app.call("POST", `/v1/proposals/${proposal.id}/reject`, { token: world.approver.key, key: newKey(), body: { reason: "No" } })
    expect(result.status).toBe(200)
    world.pending = world.pending.filter((item) => item !== proposal)
    return
  }
  const reason = next.reason ? "Approved late" : null
  const result = await app.call("POST", `/v1/proposals/${proposal.id}/approve`, {
    token: world.approver.key,
    key: newKey(),
    body: reason === null ? {} : { reason }
  })
  const verdict = periodVerdict(world.periods[proposal.month]!.status, proposal.reason ?? reason)
  if (verdict !== "ok") {
    expect(result.status).toBe(422)
    expect(result.body.error.type).toBe(verdict)
    return
  }
  expect(result.status).toBe(201)
  world.pending = world.pending.filter((item) => item !== proposal)
  world.posted.push({ id: result.body.entry_id, effect: proposal.effect, reversed: false })
  apply(world.balances, proposal.effect, 1)
  return
}

/** The owner reverses a posted entry, which restores exactly the balances it moved. */
const reverseStep = async (world: World, next: ActionOf<"reverse">) => {
  const open = world.posted.filter((entry) => !entry.reversed)
  if (open.length === 0) return
  const entry = open[next.pick % open.length]!
  const reason = next.reason ? "Correction" : null
  const before = await apiBalances(world)
  const result = await app.call("POST", `/v1/journal-entries/${entry.id}/reverse`, {
    token: world.company.ownerKey,
    key: newKey(),
    body: { entry_date: dateOf(world, next.month, 15), ...(reason === null ? {} : { soft_lock_override_reason: reason }) }
  })
  const verdict = periodVerdict(world.periods[next.month]!.status, reason)
  if (verdict !== "ok") {
    expect(result.status).toBe(422)
    expect(result.body.error.type).toBe(verdict)
    return
  }
  expect(result.status).toBe(201)
  entry.reversed = true
  world.posted.push({ id: result.body.id, effect: {}, reversed: true })
  apply(world.balances, entry.effect, -1)
  // The reversal restores every balance the entry moved, and touches no other.
  const after = await apiBalances(world)
  for (const code of codes) expect(after[code]).toBe(before[code] - (entry.effect[code] ?? 0))
  return
}

/** The owner moves a period between open, soft-locked and hard-locked, as the rules allow. */
const lockStep = async (world: World, next: ActionOf<"lock">) => {
  const period = world.periods[next.month]!
  const reason = next.reason ? "Close" : null
  const result = await app.call("POST", `/v1/periods/${period.id}/status`, {
    token: world.company.ownerKey,
    key: newKey(),
    body: { status: next.status, ...(reason === null ? {} : { reason }) }
  })
  if (period.status === "hard_locked" && next.status === "soft_locked") {
    expect(result.body.error.type).toBe("invalid_period_transition")
  } else if (period.status === "hard_locked" && next.status === "open" && (reason === null || reason === period.reason)) {
    expect(result.body.error.type).toBe("validation_failed")
  } else {
    expect(result.status).toBe(200)
    // An unchanged status stores nothing; a change stores its reason (or none).
    if (next.status !== period.status) period.reason = reason
    period.status = next.status
  }
  return
}

const step = (world: World, next: Action): Promise<void> => {
  switch (next.kind) {
    case "post":
    case "agent":
      return postStep(world, next)
    case "approve":
    case "reject":
      return decideStep(world, next)
    case "reverse":
      return reverseStep(world, next)
    case "lock":
      return lockStep(world, next)
  }
}

const apiBalances = async (world: World): Promise<Record<Code, number>> => {
  const result = await app.call("GET", `/v1/accounts?include_balances=true&include_inactive=true&as_of=${farFuture}&limit=1000`, {
    token: world.company.ownerKey
  })
  expect(result.status).toBe(200)
  const byCode = Object.fromEntries(result.body.data.map((account: { code: string; balance_cents: number }) => [account.code, account.balance_cents]))
  return Object.fromEntries(codes.map((code) => [code, byCode[code]])) as Record<Code, number>
}

const checkInvariants = async (world: World) => {
  const companyId = world.company.companyId
  const trial = await app.query<{ debits: string | null; credits: string | null }>(
    `SELECT sum(debit_cents) AS debits, sum(credit_cents) AS credits FROM account_daily_totals WHERE company_id = $1`,
    [companyId]
  )
  expect(Number(trial[0]!.debits ?? 0)).toBe(Number(trial[0]!.credits ?? 0))
  const mismatches = await app.query(
    `WITH totals AS (
       SELECT account_id, day, debit_cents, credit_cents FROM account_daily_totals WHERE company_id = $1
     ), recomputed AS (
       SELECT account_id, entry_date AS day,
         sum(CASE WHEN amount_cents > 0 THEN amount_cents ELSE 0 END) AS debit_cents,
         sum(CASE WHEN amount_cents < 0 THEN -amount_cents ELSE 0 END) AS credit_cents
       FROM journal_lines WHERE company_id = $1 GROUP BY account_id, entry_date
     )
     SELECT * FROM totals FULL OUTER JOIN recomputed USING (account_id, day)
     WHERE totals.debit_cents IS DISTINCT FROM recomputed.debit_cents
        OR totals.credit_cents IS DISTINCT FROM recomputed.credit_cents`,
    [companyId]
  )
  expect(mismatches).toEqual([])
  expect(await apiBalances(world)).toEqual(world.balances)
}

describe("ledger properties", () => {
  it("keep the trial balance at zero and every balance equal to the lines through random sequences", async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(action, { minLength: 1, maxLength: 25 }), async (actions) => {
        const company = await app.createCompany({ name: "Property Co" })
        const agent = await agentWithThreshold(app, company, { thresholdCents })
        const approver = await createPerson(app, company, "accountant", ["read", "propose", "approve"])
        const periods = (await app.call("GET", "/v1/periods?limit=100", { token: company.ownerKey })).body.data
          .map((period: { id: number; start_date: string }) => ({ id: period.id, start: period.start_date, status: "open" as Status, reason: null }))
        expect(periods).toHaveLength(24)
        const world: World = {
          company,
          agent,
          approver,
          periods,
          balances: Object.fromEntries(codes.map((code) => [code, 0])) as Record<Code, number>,
          posted: [],
          pending: []
        }
        for (const next of actions) {
          await step(world, next)
          await checkInvariants(world)
        }
      }),
      { numRuns: Number(process.env.LEDGER_PROPERTY_RUNS ?? 30) }
    )
  }, 600_000)
})
