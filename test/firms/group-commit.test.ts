import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { makeTestApp, type TestApp } from "../support/index.ts"
import { createFirm, expectStatus, firmCall, grantAccess, lines, memberWithKey, type TestFirm, today } from "./support.ts"

/**
 * A firm credential's posting in a group commit (docs/decisions/0705-group-commit.md): the
 * batch's statement re-checks the credential and its client's grant as authentication read them
 * (ADR 0903). The race is made deterministic with a trigger: a key's first use (its last use
 * written, once the request's reads are done, before its batch commits) revokes the key or the
 * grant, exactly between admission and the batch's statement.
 */

let app: TestApp
beforeAll(async () => {
  app = await makeTestApp()
  await app.query(`CREATE TABLE test_firm_races (key_id bigint PRIMARY KEY, what text NOT NULL, company_id uuid)`)
  await app.query(`CREATE FUNCTION test_firm_race() RETURNS trigger LANGUAGE plpgsql AS $$
    DECLARE race record;
    BEGIN
      SELECT * INTO race FROM test_firm_races WHERE key_id = NEW.id;
      IF FOUND AND OLD.last_used_at IS NULL AND NEW.last_used_at IS NOT NULL THEN
        IF race.what = 'key' THEN
          NEW.revoked_at := NEW.last_used_at;
          NEW.revoked_reason := 'revoked in the race';
        ELSIF race.what = 'grant' THEN
          UPDATE firm_grants SET revoked_at = NEW.last_used_at, revoked_reason = 'revoked in the race', revoked_by = 'test'
          WHERE company_id = race.company_id AND firm_id = NEW.firm_id AND revoked_at IS NULL;
        END IF;
      END IF;
      RETURN NEW;
    END $$`)
  await app.query(`CREATE TRIGGER test_firm_race BEFORE UPDATE OF last_used_at ON firm_keys FOR EACH ROW EXECUTE FUNCTION test_firm_race()`)
})
afterAll(() => app.close())

const post = (token: string, companyId: string, cents: number) =>
  firmCall(app, token, "POST", "/v1/journal-entries/propose", {
    company: companyId,
    body: { entry_date: today(), memo: `Race ${cents}`, lines: lines("6070", "1010", cents) }
  })

const entriesOf = async (companyId: string) =>
  Number((await app.query<{ count: string }>(`SELECT count(*) AS count FROM journal_entries WHERE company_id = $1`, [companyId]))[0]!.count)

/** How many transactions committed the company's entries: a batch's entries share one (group-commit.test.ts). */
const transactionsOf = async (companyId: string) =>
  Number((await app.query<{ count: string }>(`SELECT count(DISTINCT xmin::text) AS count FROM journal_entries WHERE company_id = $1`, [companyId]))[0]!.count)

const setUp = async (name: string): Promise<{ firm: TestFirm; companyId: string }> => {
  const firm = await createFirm(app)
  const client = await app.createCompany({ name })
  await grantAccess(app, client, firm)
  return { firm, companyId: client.companyId }
}

describe("firm credentials in a group commit", () => {
  it("firm members' concurrent postings each post once, as their member, through the batches", async () => {
    const { firm, companyId } = await setUp("Batched Firm Co")
    // Made concurrently too: the firm log's appends wait for each other, never deadlock.
    const cpas = await Promise.all([0, 1, 2, 3].map(() => memberWithKey(app, firm, "cpa")))
    const answers = await Promise.all(cpas.flatMap((cpa, index) => [post(cpa.key, companyId, 100 + index), post(cpa.key, companyId, 200 + index)]))
    expect(answers.map((answer) => answer.status)).toEqual(Array(8).fill(201))
    answers.forEach((answer, index) => expect(answer.body.posted_by).toMatchObject({ type: "firm_member", id: cpas[Math.floor(index / 2)]!.id }))
    expect(await entriesOf(companyId)).toBe(8)
    expect(await transactionsOf(companyId)).toBeGreaterThanOrEqual(1)
    expect(expectStatus(await firmCall(app, firm.adminKey, "GET", "/v1/firm/audit/verify"), 200)).toMatchObject({ valid: true, head_seq: 11 })
  })

  it("a firm key revoked between admission and its batch's commit writes nothing", async () => {
    const { firm, companyId } = await setUp("Key Race Co")
    const cpa = await memberWithKey(app, firm, "cpa")
    await app.query(`INSERT INTO test_firm_races VALUES ($1, 'key', NULL)`, [cpa.keyId])
    const answer = await post(cpa.key, companyId, 4200)
    expect(answer.status, JSON.stringify(answer.body)).toBe(401)
    expect(answer.body.error.message).toMatch(/revoked/)
    expect(await entriesOf(companyId)).toBe(0)
    // The refusal is the run read afresh's, audited in the firm's log.
    const events = expectStatus(await firmCall(app, firm.adminKey, "GET", "/v1/firm/audit/events?limit=1"), 200)
    expect(events.data[0]).toMatchObject({ action: "proposeJournalEntry", key_id: cpa.keyId, details: { outcome: "refused", status: 401 } })
  })

  it("a grant revoked between admission and the batch's commit writes nothing", async () => {
    const { firm, companyId } = await setUp("Grant Race Co")
    const cpa = await memberWithKey(app, firm, "cpa")
    await app.query(`INSERT INTO test_firm_races VALUES ($1, 'grant', $2)`, [cpa.keyId, companyId])
    const answer = await post(cpa.key, companyId, 4300)
    expect(answer.status, JSON.stringify(answer.body)).toBe(404)
    expect(await entriesOf(companyId)).toBe(0)
    const grants = await app.query<{ revoked_reason: string }>(`SELECT revoked_reason FROM firm_grants WHERE company_id = $1`, [companyId])
    expect(grants).toEqual([{ revoked_reason: "revoked in the race" }])
  })

  it("a key whose first use changes nothing posts as usual through the same path", async () => {
    const { firm, companyId } = await setUp("No Race Co")
    const cpa = await memberWithKey(app, firm, "cpa")
    await app.query(`INSERT INTO test_firm_races VALUES ($1, 'none', NULL)`, [cpa.keyId])
    expect((await post(cpa.key, companyId, 4400)).status).toBe(201)
    expect(await entriesOf(companyId)).toBe(1)
  })
})
