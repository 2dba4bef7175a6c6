import { Effect } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { type Actor, Area, Entropy, type GroupCommit, Idempotency, Ledger } from "@ledger/engine"
import { makeTestApp, newKey, type TestApp, type TestCompany } from "../../support/index.ts"
import { simpleLines } from "../../support/postings.ts"

/**
 * What a group commit remembers between batches (BatchCharts.ts, ADR 0712), driven through the
 * batch writer itself so that which batch recalls and which reads is certain: a batch of two or
 * more whose accounts, dates and ids are remembered posts without reading, and its statement
 * refuses it as a whole when what it remembered is no longer so.
 */

let app: TestApp
beforeAll(async () => {
  app = await makeTestApp()
})
afterAll(async () => {
  await app?.close()
})

const date = "2026-03-14"

/** The journal's batch writer, as the engine's areas register it for group commit. */
const journalWriter = Area.fold(Ledger.areas).batchWriters.get("proposeJournalEntry")!

/** A posting by the company's owner, as the Dispatcher hands it to the batch writer. */
const itemOf = (company: TestCompany, cents: number, debit = "6070"): GroupCommit.Item => {
  const key = newKey()
  const now = "2026-03-14T10:00:00.000Z"
  const body = { entry_date: date, lines: simpleLines(debit, "1010", cents) }
  const actor: Actor.Actor = {
    type: "user",
    id: company.ownerId,
    name: "Owner",
    role: "owner",
    companyId: company.companyId,
    scopes: [],
    isPerson: true,
    keyId: null,
    credentialKind: "api_key",
    postingThresholdCents: null,
    rateLimitRpm: null,
    firmId: null
  }
  return {
    request: {
      actor,
      companyId: company.companyId,
      operationId: "proposeJournalEntry",
      via: "engine",
      now,
      today: date,
      agentModel: null,
      agentRunId: null,
      idempotencyKey: key
    },
    claim: {
      tenant: `company:${company.companyId}`,
      principal: `user:${company.ownerId}`,
      key,
      requestHash: Idempotency.requestHashOf("proposeJournalEntry", body),
      now,
      credential: company.ownerKey
    },
    body,
    credential: null
  }
}

type Answers = ReadonlyArray<GroupCommit.Answer | null>

/** Runs one batch: its answers, or the SQLSTATE that refused it as a whole. */
const batch = (writer: GroupCommit.BatchWriter, items: ReadonlyArray<GroupCommit.Item>) =>
  app.runtime.runPromise(writer.write(items).pipe(
    Effect.map((answers): { readonly answers: Answers } | { readonly refused: string } => ({ answers })),
    Effect.catch((error) => Effect.succeed({ refused: String((error as { readonly state?: string }).state) })),
    Effect.provide(Entropy.layer)
  ))

const answersOf = (outcome: { readonly answers: Answers } | { readonly refused: string }): Answers => {
  if (!("answers" in outcome)) throw new Error(`the batch was refused: ${outcome.refused}`)
  return outcome.answers
}

const entryCount = async (company: TestCompany) =>
  Number((await app.query<{ count: string }>(`SELECT count(*) AS count FROM journal_entries WHERE company_id = $1`, [company.companyId]))[0]!
    .count)

type Entry = { readonly id: number; readonly lines: ReadonlyArray<{ readonly account: string; readonly account_name: string }> }
const entryOf = (answer: GroupCommit.Answer | null): Entry => {
  expect(answer?.status).toBe(201)
  return answer!.body as Entry
}

describe("charts remembered between batches", () => {
  it("refuses a remembered batch whose account was renamed since, writes nothing, then reads afresh", async () => {
    const company = await app.createCompany({ name: "Renamed Co", starter_chart: "general" })
    const writer = journalWriter()
    // Four ids drawn ahead: enough for two batches of two.
    const first = [itemOf(company, 96), itemOf(company, 97), itemOf(company, 98), itemOf(company, 99)]
    for (const answer of answersOf(await batch(writer, first))) entryOf(answer)
    const before = await entryCount(company)

    await app.query(`UPDATE accounts SET name = 'Renamed Meanwhile' WHERE company_id = $1 AND code = '6070'`, [company.companyId])
    expect(await batch(writer, [itemOf(company, 102), itemOf(company, 103)])).toEqual({ refused: "LD021" })
    expect(await entryCount(company)).toBe(before)

    // Forgotten although ids are left: the next batch reads the chart, and answers with the name it has now.
    for (const answer of answersOf(await batch(writer, [itemOf(company, 104), itemOf(company, 105)]))) {
      expect(entryOf(answer).lines.find((line) => line.account === "6070")!.account_name).toBe("Renamed Meanwhile")
    }
    expect(await entryCount(company)).toBe(before + 2)
  })

  it("refuses a remembered batch whose account was deactivated since, then leaves its postings to the governed path", async () => {
    const company = await app.createCompany({ name: "Deactivated Co", starter_chart: "general" })
    const writer = journalWriter()
    for (const answer of answersOf(await batch(writer, [itemOf(company, 100), itemOf(company, 101)]))) entryOf(answer)
    const before = await entryCount(company)

    await app.query(`UPDATE accounts SET active = false WHERE company_id = $1 AND code = '6070'`, [company.companyId])
    expect(await batch(writer, [itemOf(company, 102), itemOf(company, 103)])).toEqual({ refused: "LD021" })
    // Read afresh, the inactive account makes each posting run alone (which refuses it).
    expect(answersOf(await batch(writer, [itemOf(company, 104), itemOf(company, 105)]))).toEqual([null, null])
    expect(await entryCount(company)).toBe(before)
  })

  it("refuses a remembered batch into a period locked since, and remembers no locked period", async () => {
    const company = await app.createCompany({ name: "Locked Co", starter_chart: "general" })
    const writer = journalWriter()
    for (const answer of answersOf(await batch(writer, [itemOf(company, 100), itemOf(company, 101)]))) entryOf(answer)
    const before = await entryCount(company)
    const lock = (status: string) =>
      app.query(`UPDATE periods SET status = $3 WHERE company_id = $1 AND start_date <= $2 AND end_date >= $2`, [
        company.companyId,
        date,
        status
      ])

    await lock("soft_locked")
    expect(await batch(writer, [itemOf(company, 102), itemOf(company, 103)])).toEqual({ refused: "LD011" })
    expect(answersOf(await batch(writer, [itemOf(company, 104), itemOf(company, 105)]))).toEqual([null, null])
    expect(await entryCount(company)).toBe(before)
    // A batch on another month's date draws ids ahead again.
    const otherMonth = { ...itemOf(company, 1), body: { entry_date: "2026-04-14", lines: simpleLines("6070", "1010", 1) } }
    const otherMonthToo = { ...itemOf(company, 2), body: { entry_date: "2026-04-14", lines: simpleLines("6070", "1010", 2) } }
    for (const answer of answersOf(await batch(writer, [otherMonth, otherMonthToo]))) entryOf(answer)
    // Unlocked, the period is read again (a locked one was not remembered) and postings batch.
    await lock("open")
    for (const answer of answersOf(await batch(writer, [itemOf(company, 106), itemOf(company, 107)]))) entryOf(answer)
    expect(await entryCount(company)).toBe(before + 4)
  })

  it("checks the amount bound against the turnover as it is now, not as it was when the accounts were remembered", async () => {
    const company = await app.createCompany({ name: "Turnover Co", starter_chart: "general" })
    const writer = journalWriter()
    // Remembered while 6070 has posted almost nothing (ids for the next batch drawn ahead too).
    for (const answer of answersOf(await batch(writer, [itemOf(company, 100), itemOf(company, 101), itemOf(company, 102), itemOf(company, 103)]))) {
      entryOf(answer)
    }
    // Meanwhile, on the governed path: 6070's debits at 9e15 (ADR 0717's bound is about 9.007e15).
    for (let index = 0; index < 9; index++) {
      const posted = await app.call("POST", "/v1/journal-entries/propose", {
        token: company.ownerKey,
        key: newKey(),
        body: { entry_date: date, lines: simpleLines("6070", "1010", 1e15) }
      })
      expect(posted.status).toBe(201)
    }
    const before = await entryCount(company)
    // Each fits the turnover read when 6070 was remembered; neither fits what it holds now.
    expect(await batch(writer, [itemOf(company, 1e15), itemOf(company, 1e15)])).toEqual({ refused: "LD013" })
    expect(await entryCount(company)).toBe(before)
    // Forgotten: the next batch reads 6070 afresh and answers each posting past the bound with the
    // governed path's refusal (null: its request runs alone), posting the one that fits.
    const answers = answersOf(await batch(writer, [itemOf(company, 1e15), itemOf(company, 7_000_000)]))
    expect(answers[0]).toBeNull()
    entryOf(answers[1]!)
    expect(await entryCount(company)).toBe(before + 1)
  })

  it("draws ids ahead only for batches of two or more, and a batch of one drops them", async () => {
    const company = await app.createCompany({ name: "Ids Co", starter_chart: "general" })
    const writer = journalWriter()
    const ids = async (count: number) =>
      answersOf(await batch(writer, Array.from({ length: count }, (_, index) => itemOf(company, 100 + index)))).map((answer) => entryOf(answer).id)

    const first = await ids(2)
    const drawnAhead = await ids(2)
    // Drawn by the first batch's statement, after the first batch's own ids.
    expect(Math.min(...drawnAhead)).toBeGreaterThan(Math.max(...first))
    const [lone] = await ids(1)
    // Something else draws an id meanwhile (an account here); the next batch must come after it.
    const [account] = await app.query<{ id: string }>(
      `INSERT INTO accounts (company_id, code, name, type, created_at) VALUES ($1, '6999', 'Drawn Meanwhile', 'expense', now()) RETURNING id`,
      [company.companyId]
    )
    const after = await ids(2)
    expect(lone).toBeGreaterThan(Math.max(...drawnAhead))
    expect(Math.min(...after)).toBeGreaterThan(Number(account!.id))
  })
})
