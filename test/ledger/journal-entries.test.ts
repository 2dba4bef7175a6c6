import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { type Agent, agentWithThreshold, makeTestApp, newKey, snapshot, subscribeToEvents, type TestApp, type TestCompany } from "../support/index.ts"
import { balances, propose, simpleLines, today } from "./support.ts"

let app: TestApp
let company: TestCompany
let agent: Agent
beforeAll(async () => {
  app = await makeTestApp()
  company = await app.createCompany({ name: "Entries Co" })
  await subscribeToEvents(app, company)
  agent = await agentWithThreshold(app, company, { thresholdCents: 5000 })
})
afterAll(() => app.close())

const refusal = async (lines: unknown, extra: Record<string, unknown> = {}) => {
  const result = await propose(app, company.ownerKey, { entry_date: today(), lines, ...extra })
  return result
}

describe("entry refusals (422 with details.issues naming the line)", () => {
  it("refuses an unbalanced entry", async () => {
    const result = await refusal([{ account: "6070", debit_cents: 1000 }, { account: "1010", credit_cents: 999 }])
    expect(result.status).toBe(422)
    expect(result.body.error.type).toBe("unbalanced_entry")
    expect(result.body.error.details).toMatchObject({ debit_cents: 1000, credit_cents: 999, difference_cents: 1 })
    expect(result.body.error.details.issues[0].path).toEqual(["body", "lines"])
  })

  it("refuses a single-line entry", async () => {
    const result = await refusal([{ account: "6070", debit_cents: 1000 }])
    expect(result.status).toBe(422)
    expect(result.body.error.type).toBe("single_line_entry")
  })

  it("refuses a zero-amount line, naming it", async () => {
    const result = await refusal([
      { account: "6070", debit_cents: 1000 },
      { account: "6080", debit_cents: 0 },
      { account: "1010", credit_cents: 1000 }
    ])
    expect(result.status).toBe(422)
    expect(result.body.error.type).toBe("zero_amount_line")
    expect(result.body.error.details.issues).toEqual([{ path: ["body", "lines", 1], message: expect.any(String) }])
  })

  it("refuses a line with both sides", async () => {
    const result = await refusal([{ account: "6070", debit_cents: 1000, credit_cents: 1000 }, { account: "1010", credit_cents: 0, debit_cents: 5 }])
    expect(result.status).toBe(422)
    expect(result.body.error.type).toBe("two_sided_line")
    expect(result.body.error.details.issues[0].path).toEqual(["body", "lines", 0])
  })

  it("refuses a contact the company does not have (another company's too), naming the line, and posts with its own", async () => {
    // The ledger asks the sales area, which owns contacts (kernel/Registry.ts contactLookups).
    const other = await app.createCompany({ name: "Entries Other Co" })
    const theirs = await app.call("POST", "/v1/contacts", { token: other.ownerKey, key: newKey(), body: { kind: "vendor", name: "Theirs" } })
    const ours = await app.call("POST", "/v1/contacts", { token: company.ownerKey, key: newKey(), body: { kind: "vendor", name: "Ours" } })
    expect([theirs.status, ours.status]).toEqual([201, 201])
    const withContact = (contactId: number) => [{ account: "6070", debit_cents: 1000, contact_id: contactId }, { account: "1010", credit_cents: 1000 }]
    for (const id of [theirs.body.id as number, 987_654_321]) {
      const result = await refusal(withContact(id))
      expect(result.status).toBe(422)
      expect(result.body.error.type).toBe("unknown_contact")
      expect(result.body.error.details.issues).toEqual([{ path: ["body", "lines", 0, "contact_id"], message: `No contact ${id}` }])
    }
    const posted = await refusal(withContact(ours.body.id as number))
    expect(posted.status).toBe(201)
  })

  it("refuses an unknown account, naming the line", async () => {
    const result = await refusal([{ account: "6070", debit_cents: 1000 }, { account: "9999", credit_cents: 1000 }])
    expect(result.status).toBe(422)
    expect(result.body.error.type).toBe("unknown_account")
    expect(result.body.error.details.issues).toEqual([{ path: ["body", "lines", 1, "account"], message: "No account 9999" }])
  })

  it("refuses an inactive account, naming the line", async () => {
    const deactivated = await app.call("POST", "/v1/accounts/6260/update", {
      token: company.ownerKey,
      key: newKey(),
      body: { active: false, reason: "Not used" }
    })
    expect(deactivated.status).toBe(200)
    const result = await refusal([{ account: "6260", debit_cents: 1000 }, { account: "1010", credit_cents: 1000 }])
    expect(result.status).toBe(422)
    expect(result.body.error.type).toBe("inactive_account")
    expect(result.body.error.details.issues[0].path).toEqual(["body", "lines", 0, "account"])
  })

  it("refuses an unknown class and takes a known one", async () => {
    const unknown = await refusal([{ account: "6070", debit_cents: 1000, class: "East" }, { account: "1010", credit_cents: 1000 }])
    expect(unknown.status).toBe(422)
    expect(unknown.body.error.type).toBe("unknown_class")
    const created = await app.call("POST", "/v1/classes", { token: company.ownerKey, key: newKey(), body: { name: "East" } })
    expect(created.status).toBe(201)
    const posted = await refusal([{ account: "6070", debit_cents: 1000, class: "East" }, { account: "1010", credit_cents: 1000 }])
    expect(posted.status).toBe(201)
    expect(posted.body.lines[0].class).toBe("East")
  })

  it("refuses unknown body properties and more than 500 lines with 400", async () => {
    const unknownField = await refusal(simpleLines("6070", "1010", 100), { colour: "blue" })
    expect(unknownField.status).toBe(400)
    expect(unknownField.body.error.type).toBe("invalid_request")
    const many = Array.from({ length: 501 }, (_, index) => ({ account: "6070", debit_cents: index === 0 ? 0 : 1 }))
    const tooMany = await refusal(many)
    expect(tooMany.status).toBe(400)
  })

  it("takes 500 lines", async () => {
    const lines = [
      ...Array.from({ length: 499 }, (_, index) => ({ account: "6070", debit_cents: index + 1, memo: `line ${index + 1}` })),
      { account: "1010", credit_cents: (499 * 500) / 2 }
    ]
    const result = await refusal(lines)
    expect(result.status).toBe(201)
    expect(result.body.lines).toHaveLength(500)
    expect(result.body.total_cents).toBe((499 * 500) / 2)
  })
})

describe("dry runs", () => {
  it("change no row in any table and consume no id", async () => {
    const before = await snapshot(app)
    for (const token of [company.ownerKey, agent.key]) {
      for (const cents of [100, 999_999]) {
        const preview = await propose(app, token, {
          entry_date: today(),
          memo: "Preview",
          lines: simpleLines("6070", "1010", cents),
          dry_run: true
        }, { key: null, headers: agent.headers })
        expect(preview.status).toBe(200)
        expect(preview.body.dry_run).toBe(true)
      }
    }
    expect(await snapshot(app)).toEqual(before)
  })

  it("show the verdict, the exact entry and the balances it would move", async () => {
    const now = await balances(app, company.ownerKey)
    const preview = await propose(app, agent.key, { entry_date: today(), lines: simpleLines("6070", "1010", 6000), dry_run: true }, {
      key: null,
      headers: agent.headers
    })
    expect(preview.body.verdict).toBe("propose")
    expect(preview.body.entry).toMatchObject({ date: today(), total_cents: 6000 })
    expect(preview.body.entry.lines.map((line: any) => [line.account, line.debit_cents, line.credit_cents])).toEqual([
      ["6070", 6000, 0],
      ["1010", 0, 6000]
    ])
    expect(preview.body.balances).toEqual([
      { account: "1010", name: "Business Checking", type: "asset", balance_cents: now["1010"], change_cents: -6000, balance_after_cents: now["1010"]! - 6000 },
      { account: "6070", name: "Office Supplies and Software", type: "expense", balance_cents: now["6070"], change_cents: 6000, balance_after_cents: now["6070"]! + 6000 }
    ])
    const within = await propose(app, agent.key, { entry_date: today(), lines: simpleLines("6070", "1010", 5000), dry_run: true }, {
      key: null,
      headers: agent.headers
    })
    expect(within.body.verdict).toBe("post")
  })
})

describe("reversals", () => {
  it("post the exact reversal, once, and restore every balance", async () => {
    const reverser = company.ownerKey
    const before = await balances(app, reverser)
    const posted = await propose(app, reverser, {
      entry_date: today(),
      memo: "Accrual",
      lines: [
        { account: "6080", debit_cents: 120_000, memo: "Rent" },
        { account: "6220", debit_cents: 8_050 },
        { account: "2100", credit_cents: 128_050 }
      ]
    })
    expect(posted.status).toBe(201)
    const reversed = await app.call("POST", `/v1/journal-entries/${posted.body.id}/reverse`, { token: reverser, key: newKey(), body: {} })
    expect(reversed.status).toBe(201)
    expect(reversed.body.reverses_entry_id).toBe(posted.body.id)
    expect(reversed.body.entry_date).toBe(today())
    expect(reversed.body.lines.map((line: any) => [line.account, line.debit_cents, line.credit_cents, line.memo])).toEqual([
      ["6080", 0, 120_000, "Rent"],
      ["6220", 0, 8_050, null],
      ["2100", 128_050, 0, null]
    ])
    expect(await balances(app, reverser)).toEqual(before)
    const original = await app.call("GET", `/v1/journal-entries/${posted.body.id}`, { token: reverser })
    expect(original.body.reversed_by_entry_id).toBe(reversed.body.id)
    const twice = await app.call("POST", `/v1/journal-entries/${posted.body.id}/reverse`, { token: reverser, key: newKey(), body: {} })
    expect(twice.status).toBe(409)
    expect(twice.body.error.type).toBe("entry_already_reversed")
    const events = await app.query<{ event_type: string; payload: any }>(
      `SELECT event_type, payload FROM outbox_events WHERE company_id = $1 AND event_type = 'entry.reversed'`,
      [company.companyId]
    )
    expect(events.some((event) => (typeof event.payload === "string" ? JSON.parse(event.payload) : event.payload).entry_id === posted.body.id)).toBe(true)
  })

  it("need the approve scope, and 404 for another company's entry", async () => {
    const posted = await propose(app, agent.key, { entry_date: today(), lines: simpleLines("6070", "1010", 100) }, { headers: agent.headers })
    const byAgent = await app.call("POST", `/v1/journal-entries/${posted.body.id}/reverse`, {
      token: agent.key,
      key: newKey(),
      body: {},
      headers: agent.headers
    })
    expect(byAgent.status).toBe(403)
    expect(byAgent.body.error.type).toBe("insufficient_scope")
    const other = await app.createCompany({ name: "Other Co" })
    const foreign = await app.call("POST", `/v1/journal-entries/${posted.body.id}/reverse`, { token: other.ownerKey, key: newKey(), body: {} })
    expect(foreign.status).toBe(404)
    expect((await app.call("GET", `/v1/journal-entries/${posted.body.id}`, { token: other.ownerKey })).status).toBe(404)
  })
})
