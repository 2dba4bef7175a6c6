import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { createClient } from "@ledger/client"
import { makeTestApp, type TestApp } from "../support/index.ts"
import { lines, today } from "./support.ts"

/** docs/firms.md's SDK walkthrough, with every answer checked against its operation's schema. */

let app: TestApp
beforeAll(async () => {
  app = await makeTestApp()
})
afterAll(() => app.close())

const fetchOf = ((input: RequestInfo | URL, init?: RequestInit) => app.fetch(new Request(input, init))) as typeof fetch

const connect = (token: string, company?: string) =>
  createClient({ baseUrl: "http://ledger.test", fetch: fetchOf, token, validateResponses: true, retry: false, ...(company === undefined ? {} : { company }) })

describe("the SDK walkthrough of docs/firms.md", () => {
  it("sets up a practice, works in a client and decides its queue", async () => {
    const operator = connect(app.operatorToken)
    const created = await operator.createFirm({ name: "Baker & Ames CPAs", admin_name: "Ada Ames" })
    const firm = connect(created.secret)
    const cpa = await firm.createFirmMember({ name: "Cy Park", role: "cpa" })
    const cpaKey = await firm.createFirmKey({ principal_type: "member", member_id: cpa.id, scopes: ["read", "propose", "approve", "admin"] })
    const client = await firm.createFirmClient({ name: "Corner Bakery LLC", owner_name: "Bea Baker" })
    expect(client.secret.startsWith("ldgi_")).toBe(true)
    const agent = await firm.createFirmAgent({ name: "Categorizer", scopes: ["read", "propose"] })
    const agentKey = await firm.createFirmKey({ principal_type: "agent", firm_agent_id: agent.id, scopes: ["read", "propose"] })
    await firm.assignFirmAgent({ id: agent.id, company_id: client.company.company_id, posting_threshold_cents: 100 })
    const asAgent = createClient({
      baseUrl: "http://ledger.test", fetch: fetchOf, token: agentKey.secret, retry: false,
      company: client.company.company_id, agentModel: "test-model/1.0"
    })
    await asAgent.proposeJournalEntry({ entry_date: today(), lines: lines("6070", "1010", 12_500) })
    const inBakery = connect(cpaKey.secret, client.company.company_id)
    expect((await inBakery.getCompany({})).name).toBe("Corner Bakery LLC")
    const queue = await firm.listFirmProposals({})
    expect(queue.data).toHaveLength(1)
    const decided = await connect(cpaKey.secret).decideFirmProposals({
      decision: "approve",
      items: queue.data.map((item) => ({ company_id: item.company_id, proposal_id: item.proposal_id }))
    })
    expect("succeeded" in decided && decided.succeeded).toBe(1)
    const session = await connect(cpaKey.secret).openFirmSession({})
    const console = await connect(session.secret).listFirmClients({})
    expect(console.data[0]!.proposals.pending).toBe(0)
    await firm.listFirmAgents({})
    await firm.listFirmKeys({})
    await firm.listFirmMembers({})
    await firm.getFirm({})
    await firm.getFirmClose({})
    await firm.listFirmAuditEvents({})
    await inBakery.listFirmAccess({})
    expect((await firm.verifyFirmAudit({})).valid).toBe(true)
  })

  it("every other firm operation's answer matches its schema", async () => {
    const created = await connect(app.operatorToken).createFirm({ name: "Schema Firm", admin_name: "Ada" })
    const firm = connect(created.secret)
    const member = await firm.createFirmMember({ name: "Bo", role: "bookkeeper" })
    const key = await firm.createFirmKey({ principal_type: "member", member_id: member.id, scopes: ["read"] })
    const rotated = await connect(key.secret).rotateFirmKey({ id: key.key.id, overlap_seconds: 60 })
    const session = await connect(rotated.secret).openFirmSession({})
    expect((await connect(rotated.secret).listFirmSessions({})).data).toHaveLength(1)
    await firm.revokeFirmSession({ id: session.session.id, reason: "Done" })
    await firm.revokeFirmKey({ id: rotated.key.id, reason: "Done" })
    await firm.removeFirmMember({ id: member.id, reason: "Left" })
    await firm.setFirmKillSwitch({ suspended: false, reason: "Check" })
    const client = await firm.createFirmClient({ name: "Schema Client", owner_name: "Owner", periods: true })
    const clientId = client.company.company_id
    const reissued = await firm.reissueOwnerInvite({ id: clientId })
    const locked = await firm.lockClientPeriods({ company_ids: [clientId], date: today(), status: "soft_locked", reason: "Closed" })
    expect("succeeded" in locked && locked.succeeded).toBe(1)
    const agent = await firm.createFirmAgent({ name: "A", scopes: ["read"] })
    await firm.assignFirmAgent({ id: agent.id, company_id: clientId, posting_threshold_cents: 0 })
    await firm.unassignFirmAgent({ id: agent.id, company_id: clientId, reason: "Done" })
    await firm.revokeFirmAgent({ id: agent.id, reason: "Done" })
    const claimed = await createClient({ baseUrl: "http://ledger.test", fetch: fetchOf, token: reissued.secret, validateResponses: true, retry: false })
      .claimOwnerInvite({})
    const owner = connect(claimed.secret)
    const other = await connect(app.operatorToken).createFirm({ name: "Other", admin_name: "Oz" })
    const grant = await owner.grantFirmAccess({ firm_id: other.firm.id, scopes: ["read"], billing: "client" })
    await owner.updateFirmAccess({ id: grant.id, billing: "firm" })
    await owner.revokeFirmAccess({ id: grant.id, reason: "Trial over" })
    expect((await owner.listFirmAccess({})).data.map((item) => item.status).sort()).toEqual(["live", "revoked"])
  })
})
