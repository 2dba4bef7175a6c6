import { Effect } from "effect"
import { SqlClient } from "effect/sql"
import fc from "fast-check"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { Outbox } from "@ledger/engine"
import { makeTestApp, messageChain, newKey, subscribeToEvents, type TestApp, type TestCompany } from "../support/index.ts"
import { propose, simpleLines, today } from "./support.ts"

/**
 * Spec 6.2 rule 4: events exist only while an endpoint wants them (ADR 0709). A change writes its
 * event to the outbox only when an enabled webhook endpoint of its company subscribes to the
 * event's type or to `*`; every other part of the change (entry, audit event, idempotency record)
 * is written either way.
 */

let app: TestApp

beforeAll(async () => {
  app = await makeTestApp()
}, 60_000)

afterAll(async () => {
  await app?.close()
})

const eventsOf = async (company: TestCompany, afterId = 0) =>
  (await app.query<{ id: string | number; event_type: string; payload: any }>(
    `SELECT id, event_type, payload FROM outbox_events WHERE company_id = $1 AND id > $2 ORDER BY id`,
    [company.companyId, afterId]
  )).map((row) => ({
    id: Number(row.id),
    event_type: row.event_type,
    payload: typeof row.payload === "string" ? JSON.parse(row.payload) : row.payload
  }))

const auditCount = async (company: TestCompany, action: string) =>
  Number((await app.query<{ count: string | number }>(
    `SELECT count(*) AS count FROM audit_events WHERE company_id = $1 AND action = $2`,
    [company.companyId, action]
  ))[0]!.count)

/** 16 postings at once, so that the group commit writes them in batches, and one reversal. */
const postAndReverse = async (company: TestCompany) => {
  const postings = await Promise.all(
    Array.from({ length: 16 }, (_, index) => propose(app, company.ownerKey, { entry_date: today(), lines: simpleLines("6070", "1010", 100 + index) }))
  )
  for (const posting of postings) expect(posting.status).toBe(201)
  const reversed = await app.call("POST", `/v1/journal-entries/${postings[0]!.body.id}/reverse`, {
    token: company.ownerKey,
    key: newKey(),
    body: {}
  })
  expect(reversed.status).toBe(201)
  return { postings: postings.map((posting) => posting.body), reversal: reversed.body }
}

describe("events only while an endpoint wants them", () => {
  it("writes no event for a company without an endpoint, and everything else as before", async () => {
    const company = await app.createCompany({ name: "No Endpoint Co" })
    // Another company's endpoint wants everything: it must not make this company's events.
    const other = await app.createCompany({ name: "Listening Co" })
    await subscribeToEvents(app, other)
    await postAndReverse(company)
    expect(await eventsOf(company)).toEqual([])
    expect(await auditCount(company, "proposeJournalEntry")).toBe(16)
    expect(await auditCount(company, "reverseJournalEntry")).toBe(1)
  })

  it("writes every event for an endpoint of `*`, in the order each request emitted them", async () => {
    const company = await app.createCompany({ name: "All Events Co" })
    await subscribeToEvents(app, company)
    const { postings, reversal } = await postAndReverse(company)
    const events = await eventsOf(company)
    const posted = events.filter((event) => event.event_type === "entry.posted").map((event) => event.payload.entry_id)
    expect(posted.sort((a, b) => a - b)).toEqual([...postings.map((entry) => entry.id), reversal.id].sort((a, b) => a - b))
    // The reversal's request emitted its entry.posted, then entry.reversed.
    const reversalPosted = events.find((event) => event.event_type === "entry.posted" && event.payload.entry_id === reversal.id)!
    const reversed = events.filter((event) => event.event_type === "entry.reversed")
    expect(reversed).toHaveLength(1)
    expect(reversed[0]!.payload.entry_id).toBe(postings[0]!.id)
    expect(reversed[0]!.id).toBeGreaterThan(reversalPosted.id)
  })

  it("writes only the types an endpoint subscribes to", async () => {
    const company = await app.createCompany({ name: "Reversals Only Co" })
    await subscribeToEvents(app, company, ["entry.reversed", "invoice.paid"])
    const { postings } = await postAndReverse(company)
    const events = await eventsOf(company)
    expect(events.map((event) => event.event_type)).toEqual(["entry.reversed"])
    expect(events[0]!.payload.entry_id).toBe(postings[0]!.id)
  })

  it("writes nothing for a disabled endpoint, and from its enabling on once enabled", async () => {
    const company = await app.createCompany({ name: "Disabled Endpoint Co" })
    await subscribeToEvents(app, company, ["*"], { enabled: false })
    await postAndReverse(company)
    expect(await eventsOf(company)).toEqual([])
    await app.query(`UPDATE webhook_endpoints SET enabled = true WHERE company_id = $1`, [company.companyId])
    const posted = await propose(app, company.ownerKey, { entry_date: today(), lines: simpleLines("6070", "1010", 500) })
    expect((await eventsOf(company)).map((event) => [event.event_type, event.payload.entry_id])).toEqual([["entry.posted", posted.body.id]])
  })

  it("keeps exactly the events some enabled endpoint wants, in emission order (property)", async () => {
    const companies = [await app.createCompany({ name: "Property Co A" }), await app.createCompany({ name: "Property Co B" })]
    const types: ReadonlyArray<Outbox.EventType> = ["entry.posted", "entry.reversed", "invoice.paid", "period.status_changed"]
    const endpoint = fc.record({
      company: fc.integer({ min: 0, max: 1 }),
      event_types: fc.uniqueArray(fc.constantFrom<string>(...types, "*"), { minLength: 1, maxLength: 3 }),
      enabled: fc.boolean()
    })
    const event = fc.record({ company: fc.integer({ min: 0, max: 1 }), event_type: fc.constantFrom(...types), n: fc.nat(1000) })
    await fc.assert(
      fc.asyncProperty(fc.array(endpoint, { maxLength: 4 }), fc.array(event, { maxLength: 8 }), async (endpoints, events) => {
        await app.query(`DELETE FROM webhook_endpoints WHERE company_id = ANY (string_to_array($1, ',')::uuid[])`, [
          companies.map((company) => company.companyId).join(",")
        ])
        for (const endpoint of endpoints) {
          await subscribeToEvents(app, companies[endpoint.company]!, endpoint.event_types, { enabled: endpoint.enabled })
        }
        const [high] = await app.query<{ id: string | number | null }>(`SELECT max(id) AS id FROM outbox_events`)
        const afterId = Number(high!.id ?? 0)
        const pending: Array<Outbox.PendingEvent> = events.map((event) => ({
          company_id: companies[event.company]!.companyId,
          event_type: event.event_type,
          payload: JSON.stringify({ n: event.n }),
          occurred_at: "2026-03-01T00:00:00.000Z"
        }))
        const insert = Effect.gen(function*() {
          const sql = yield* SqlClient.SqlClient
          const statement = Outbox.insertPending(sql, pending)
          if (statement !== null) yield* statement
        })
        await app.runtime.runPromise(insert as Effect.Effect<void, unknown, never>)
        const wanted = (company: number, type: string) =>
          endpoints.some((endpoint) =>
            endpoint.company === company && endpoint.enabled && (endpoint.event_types.includes(type) || endpoint.event_types.includes("*"))
          )
        for (const [index, company] of companies.entries()) {
          const expected = events.filter((event) => event.company === index && wanted(index, event.event_type))
          const stored = await eventsOf(company, afterId)
          expect(stored.map((event) => [event.event_type, event.payload.n])).toEqual(expected.map((event) => [event.event_type, event.n]))
        }
      }),
      { numRuns: 40 }
    )
  })

  it("refuses an endpoint without event types", async () => {
    const company = await app.createCompany({ name: "Empty Endpoint Co" })
    const refused = await app.query(`INSERT INTO webhook_endpoints (company_id, event_types) VALUES ($1, '{}')`, [company.companyId])
      .then(() => "not refused", messageChain)
    expect(refused).toMatch(/webhook_endpoints_event_types_check/)
  })
})
