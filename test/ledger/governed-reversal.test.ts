import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { Effect } from "effect"
import { SqlClient } from "effect/sql"
import { Governed, RequestContext } from "@ledger/engine"
import { agentModel, agentWithThreshold, makeTestApp, newKey, snapshot, type TestApp, type TestCompany } from "../support/index.ts"
import { balances, propose, today } from "./support.ts"

/**
 * `Governed.write` with `reverses` (how a void posts): called below HTTP, in a transaction, as an
 * agent would call it from another area's handler.
 */

let app: TestApp
let company: TestCompany
let agentId: number
beforeAll(async () => {
  app = await makeTestApp()
  company = await app.createCompany({ name: "Governed Reversal Co" })
  agentId = (await agentWithThreshold(app, company, { thresholdCents: 1000 })).id
})
afterAll(() => app.close())

const asAgent = <A>(effect: Effect.Effect<A, unknown, any>) => {
  const now = new Date().toISOString()
  return app.runtime.runPromise(Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    return yield* sql.withTransaction(effect)
  }).pipe(Effect.provideService(RequestContext, {
    actor: {
      type: "agent",
      id: agentId,
      name: "Bookkeeping agent",
      role: null,
      companyId: company.companyId,
      scopes: ["read", "propose"],
      isPerson: false,
      keyId: null,
      credentialKind: "api_key",
      postingThresholdCents: 1000,
      rateLimitRpm: null,
      firmId: null
    },
    companyId: company.companyId,
    operationId: "voidSomething",
    via: "engine",
    now,
    today: now.slice(0, 10),
    agentModel,
    agentRunId: "run-1",
    idempotencyKey: null
  })) as Effect.Effect<A, unknown, never>)
}

const voidOf = (entryId: number, dryRun: boolean) =>
  Governed.write({
    kind: "journal_entry",
    summary: `Void of entry ${entryId}`,
    entry: { date: today(), memo: `Void of entry ${entryId}`, lines: [] },
    request: { entry_id: entryId },
    dryRun,
    reverses: entryId,
    onPosted: (entry) => Effect.succeed(entry)
  })

describe("governed reversals (voids)", () => {
  it("preview, queue and, on approval, post the exact reversal linked to its entry, once", async () => {
    const before = await balances(app, company.ownerKey)
    const original = await propose(app, company.ownerKey, {
      entry_date: today(),
      lines: [{ account: "1400", debit_cents: 5000, memo: "Invoice" }, { account: "4000", credit_cents: 5000 }]
    })
    expect(original.status).toBe(201)
    // The income account is deactivated since: a void still reverses onto it.
    const other = await app.call("POST", "/v1/accounts/defaults", { token: company.ownerKey, body: { income: "4100" } })
    expect(other.status).toBe(200)
    expect((await app.call("POST", "/v1/accounts/4000/update", { token: company.ownerKey, key: newKey(), body: { active: false } })).status).toBe(200)

    const rows = await snapshot(app)
    const preview: any = await asAgent(voidOf(original.body.id, true))
    expect(preview.status).toBe(200)
    expect(preview.body.verdict).toBe("propose")
    expect(preview.body.entry.lines.map((line: any) => [line.account, line.debit_cents, line.credit_cents, line.memo])).toEqual([
      ["1400", 0, 5000, "Invoice"],
      ["4000", 5000, 0, null]
    ])
    expect(await snapshot(app)).toEqual(rows)

    const queued: any = await asAgent(voidOf(original.body.id, false))
    expect(queued.status).toBe(202)
    const proposal = await app.call("GET", `/v1/proposals/${queued.body.proposal.id}`, { token: company.ownerKey })
    expect(proposal.body.reverses_entry_id).toBe(original.body.id)

    const approved = await app.call("POST", `/v1/proposals/${queued.body.proposal.id}/approve`, { token: company.ownerKey, key: newKey(), body: {} })
    expect(approved.status).toBe(201)
    expect(approved.body.result).toMatchObject({ reverses_entry_id: original.body.id, total_cents: 5000 })
    const reread = await app.call("GET", `/v1/journal-entries/${original.body.id}`, { token: company.ownerKey })
    expect(reread.body.reversed_by_entry_id).toBe(approved.body.entry_id)
    expect(await balances(app, company.ownerKey)).toEqual(before)

    const again = await asAgent(voidOf(original.body.id, false)).then(() => null, (error) => error)
    expect(JSON.stringify(error(again))).toContain("entry_already_reversed")
  })
})

const error = (failure: unknown) => {
  let current: any = failure
  for (let depth = 0; depth < 5 && current !== undefined; depth++) {
    if (current?.type !== undefined) return current
    current = current.cause ?? current.error
  }
  return failure
}

