import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest"
import { makeTestApp, type TestApp } from "../support/index.ts"
import { createFirm, expectStatus, firmCall, memberWithKey, type TestFirm } from "./support.ts"

/** The firm log's hash chain against tampering made directly in the database. */

let app: TestApp
let firm: TestFirm
beforeAll(async () => {
  app = await makeTestApp()
})
afterAll(() => app.close())

const verify = async () => expectStatus(await firmCall(app, firm.adminKey, "GET", "/v1/firm/audit/verify"), 200)

/** The append-only trigger keeps honest code out; an attacker with the database turns it off. */
const tamper = async (statement: string, params: ReadonlyArray<unknown> = []) => {
  await app.query(`ALTER TABLE firm_audit_events DISABLE TRIGGER firm_audit_events_append_only`)
  try {
    await app.query(statement, params)
  } finally {
    await app.query(`ALTER TABLE firm_audit_events ENABLE TRIGGER firm_audit_events_append_only`)
  }
}

beforeEach(async () => {
  firm = await createFirm(app)
  for (const role of ["cpa", "bookkeeper", "cpa"] as const) await memberWithKey(app, firm, role)
  expect(await verify()).toMatchObject({ valid: true, events_checked: 8, head_seq: 8 })
})

describe("the firm audit log's hash chain", () => {
  it("refuses changes through the database's own guard", async () => {
    await expect(app.query(`UPDATE firm_audit_events SET reason = 'x' WHERE firm_id = $1`, [firm.firmId])).rejects.toThrow()
    await expect(app.query(`DELETE FROM firm_audit_events WHERE firm_id = $1`, [firm.firmId])).rejects.toThrow()
  })

  it("detects an event changed in place", async () => {
    await tamper(`UPDATE firm_audit_events SET details = '{"role":"admin"}' WHERE firm_id = $1 AND seq = 4`, [firm.firmId])
    expect(await verify()).toMatchObject({ valid: false, first_broken_seq: 4, problem: "hash_mismatch" })
  })

  it("detects an event changed and rehashed (its successor no longer follows)", async () => {
    const rows = await app.query<{ hash: string }>(`SELECT hash FROM firm_audit_events WHERE firm_id = $1 AND seq = 3`, [firm.firmId])
    await tamper(`UPDATE firm_audit_events SET hash = $2 WHERE firm_id = $1 AND seq = 3`, [firm.firmId, "f".repeat(64)])
    expect(await verify()).toMatchObject({ valid: false, first_broken_seq: 3, problem: "hash_mismatch" })
    expect(rows[0]!.hash).toHaveLength(64)
  })

  it("detects a deleted event", async () => {
    await tamper(`DELETE FROM firm_audit_events WHERE firm_id = $1 AND seq = 5`, [firm.firmId])
    expect(await verify()).toMatchObject({ valid: false, first_broken_seq: 5, problem: "sequence_gap" })
  })

  it("detects the last events cut off", async () => {
    await tamper(`DELETE FROM firm_audit_events WHERE firm_id = $1 AND seq >= 7`, [firm.firmId])
    expect(await verify()).toMatchObject({ valid: false, first_broken_seq: 7, problem: "head_mismatch" })
  })

  it("detects events reordered", async () => {
    await tamper(`UPDATE firm_audit_events SET seq = -3 WHERE firm_id = $1 AND seq = 3`, [firm.firmId])
    await tamper(`UPDATE firm_audit_events SET seq = 3 WHERE firm_id = $1 AND seq = 6`, [firm.firmId])
    await tamper(`UPDATE firm_audit_events SET seq = 6 WHERE firm_id = $1 AND seq = -3`, [firm.firmId])
    expect(await verify()).toMatchObject({ valid: false, first_broken_seq: 3, problem: "hash_mismatch" })
  })

  it("detects an event inserted in the middle", async () => {
    for (const seq of [8, 7, 6, 5]) {
      await tamper(`UPDATE firm_audit_events SET seq = seq + 1 WHERE firm_id = $1 AND seq = $2`, [firm.firmId, seq])
    }
    // The forged event links to event 4 correctly, but its hash cannot be made to fit what follows.
    await tamper(`INSERT INTO firm_audit_events SELECT firm_id, 5, occurred_at, 'forged', principal_type, principal_id, principal_name,
      key_id, company_id, target_type, target_id, reason, via, details, hash, hash FROM firm_audit_events WHERE firm_id = $1 AND seq = 4`, [firm.firmId])
    expect(await verify()).toMatchObject({ valid: false, first_broken_seq: 5, problem: "hash_mismatch" })
  })

  it("a forged event appended at the end with a correct link still breaks the head", async () => {
    await tamper(`INSERT INTO firm_audit_events SELECT firm_id, 9, occurred_at, 'forged', principal_type, principal_id, principal_name,
      key_id, company_id, target_type, target_id, reason, via, details, hash, hash FROM firm_audit_events WHERE firm_id = $1 AND seq = 8`, [firm.firmId])
    expect(await verify()).toMatchObject({ valid: false, first_broken_seq: 9 })
  })

  it("a head recorded outside the database catches a log cut and its head rewritten to match", async () => {
    const head = expectStatus(await app.call("GET", `/v1/operator/firms/${firm.firmId}/audit-head`, { token: app.operatorToken }), 200)
    expect(head).toMatchObject({ firm_id: firm.firmId, head_seq: 8 })
    expect(head.head_hash).toMatch(/^[0-9a-f]{64}$/)
    const anchored = (seq: number, hash: string) => firmCall(app, firm.adminKey, "GET", `/v1/firm/audit/verify?anchor_seq=${seq}&anchor_hash=${hash}`)
    expect(expectStatus(await anchored(8, head.head_hash), 200)).toMatchObject({ valid: true, problem: null })
    // The log grows past the anchor: still valid.
    await memberWithKey(app, firm, "bookkeeper")
    expect(expectStatus(await anchored(8, head.head_hash), 200)).toMatchObject({ valid: true, head_seq: 10 })
    // Someone with the database cuts the last events and points the head at what is left:
    // consistent, so the chain alone passes; the anchor does not.
    const sixth = await app.query<{ hash: string }>(`SELECT hash FROM firm_audit_events WHERE firm_id = $1 AND seq = 6`, [firm.firmId])
    await tamper(`DELETE FROM firm_audit_events WHERE firm_id = $1 AND seq > 6`, [firm.firmId])
    await app.query(`UPDATE firms SET audit_seq = 6, audit_head = $2 WHERE id = $1`, [firm.firmId, sixth[0]!.hash])
    expect(await verify()).toMatchObject({ valid: true, head_seq: 6 })
    expect(expectStatus(await anchored(8, head.head_hash), 200)).toMatchObject({ valid: false, first_broken_seq: 8, problem: "anchor_mismatch" })
    // A wrong hash at a seq the log still has is caught too.
    expect(expectStatus(await anchored(5, "0".repeat(64)), 200)).toMatchObject({ valid: false, first_broken_seq: 5, problem: "anchor_mismatch" })
    // Half an anchor is refused; the operator's read needs the operator token; an unknown firm is 404.
    expect((await firmCall(app, firm.adminKey, "GET", "/v1/firm/audit/verify?anchor_seq=3")).status).toBe(400)
    expect((await app.call("GET", `/v1/operator/firms/${firm.firmId}/audit-head`, { token: firm.adminKey })).status).toBe(401)
    expect((await app.call("GET", "/v1/operator/firms/999999999/audit-head", { token: app.operatorToken })).status).toBe(404)
  })
})
