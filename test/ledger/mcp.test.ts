import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { type Agent, agentModel, agentWithThreshold, allTools, connectMcp, createPerson, makeTestApp, newKey, snapshot, subscribeToEvents, type TestApp, type TestCompany } from "../support/index.ts"
import { today } from "./support.ts"

/** The governed path over MCP: the same pipeline, results and refusals as over HTTP. */

let app: TestApp
let company: TestCompany
let agent: Agent
let approver: { id: number; key: string }
let agentClient: Awaited<ReturnType<typeof connectMcp>>
let approverClient: Awaited<ReturnType<typeof connectMcp>>
beforeAll(async () => {
  app = await makeTestApp()
  company = await app.createCompany({ name: "MCP Ledger Co" })
  await subscribeToEvents(app, company)
  agent = await agentWithThreshold(app, company, { thresholdCents: 5000, scopes: ["read", "propose"] })
  approver = await createPerson(app, company, "accountant", ["read", "propose", "approve"])
  // Every tool each may use (`all`), to see what its scopes leave out (the default list is small, ADR 2200).
  agentClient = await connectMcp(app, agent.key, { "x-agent-model": agentModel, ...allTools })
  approverClient = await connectMcp(app, approver.key, allTools)
})
afterAll(async () => {
  await agentClient?.close()
  await approverClient?.close()
  await app.close()
})

const lines = (cents: number) => [{ account: "6070", debit_cents: cents }, { account: "2100", credit_cents: cents }]

describe("governed writes over MCP", () => {
  it("lists the ledger tools each caller can use: the agent's to read and propose, the approver's to decide", async () => {
    const agentTools = (await agentClient.listTools()).tools.map((tool) => tool.name)
    for (const name of ["propose_journal_entry", "get_journal_entry", "list_accounts", "list_proposals", "list_periods"]) {
      expect(agentTools).toContain(name)
    }
    // Scope approve and admin, and people-only tools, are not the read-and-propose agent's to carry.
    for (const name of ["reverse_journal_entry", "approve_proposal", "reject_proposal", "set_period_status", "create_company"]) {
      expect(agentTools).not.toContain(name)
    }
    const approverTools = (await approverClient.listTools()).tools.map((tool) => tool.name)
    for (const name of ["reverse_journal_entry", "approve_proposal", "reject_proposal"]) expect(approverTools).toContain(name)
    // The approver holds no admin scope.
    expect(approverTools).not.toContain("set_period_status")
  })

  it("an agent posts 4000 under its 5000 threshold, queues 6000, cannot approve it; a person's approval posts it", async () => {
    const posted = await agentClient.callTool({
      name: "propose_journal_entry",
      arguments: { entry_date: today(), memo: "Printer paper", lines: lines(4000), idempotency_key: newKey() }
    })
    expect(posted.isError).toBeFalsy()
    expect(posted.structuredContent).toMatchObject({ total_cents: 4000, posted_by: { type: "agent", id: agent.id }, agent_model: agentModel })

    const queued = await agentClient.callTool({
      name: "propose_journal_entry",
      arguments: { entry_date: today(), memo: "New monitor", lines: lines(6000), idempotency_key: newKey(), confidence: 0.9 }
    })
    expect(queued.isError).toBeFalsy()
    const proposal = (queued.structuredContent as any).proposal
    expect(queued.structuredContent).toMatchObject({ status: "pending_approval", proposal: { kind: "journal_entry", amount_cents: 6000 } })

    const selfApproval = await agentClient.callTool({ name: "approve_proposal", arguments: { id: proposal.id, idempotency_key: newKey() } })
    expect(selfApproval.isError).toBe(true)
    expect((selfApproval.structuredContent as any).error.type).toBe("insufficient_scope")

    const approved = await approverClient.callTool({
      name: "approve_proposal",
      arguments: { id: proposal.id, reason: "Needed", idempotency_key: newKey() }
    })
    expect(approved.isError).toBeFalsy()
    const result = approved.structuredContent as any
    expect(result.proposal).toMatchObject({ status: "approved", decided_by: { type: "user", id: approver.id }, decision_reason: "Needed" })
    const entry = await approverClient.callTool({ name: "get_journal_entry", arguments: { id: result.entry_id } })
    expect(entry.structuredContent).toMatchObject({
      total_cents: 6000,
      memo: "New monitor",
      proposal_id: proposal.id,
      posted_by: { type: "user", id: approver.id }
    })
    const events = await app.query<{ event_type: string }>(
      `SELECT event_type FROM outbox_events WHERE company_id = $1 AND event_type IN ('entry.posted', 'proposal.created', 'proposal.decided')
       ORDER BY id`,
      [company.companyId]
    )
    expect(events.map((event) => event.event_type)).toEqual(["entry.posted", "proposal.created", "entry.posted", "proposal.decided"])
  })

  it("rejection records the reason over MCP, and posts nothing", async () => {
    const queued = await agentClient.callTool({
      name: "propose_journal_entry",
      arguments: { entry_date: today(), lines: lines(7500), idempotency_key: newKey() }
    })
    const id = (queued.structuredContent as any).proposal.id
    const rejected = await approverClient.callTool({ name: "reject_proposal", arguments: { id, reason: "Duplicate", idempotency_key: newKey() } })
    expect(rejected.isError).toBeFalsy()
    expect(rejected.structuredContent).toMatchObject({ status: "rejected", decision_reason: "Duplicate", entry_id: null })
    const listed = await approverClient.callTool({ name: "list_proposals", arguments: { status: "rejected" } })
    expect((listed.structuredContent as any).data.map((item: { id: number }) => item.id)).toContain(id)
  })

  it("refusals are tool errors with the API's error body; dry runs write nothing", async () => {
    const unbalanced = await agentClient.callTool({
      name: "propose_journal_entry",
      arguments: { entry_date: today(), lines: [{ account: "6070", debit_cents: 10 }, { account: "2100", credit_cents: 9 }], idempotency_key: newKey() }
    })
    expect(unbalanced.isError).toBe(true)
    expect((unbalanced.structuredContent as any).error).toMatchObject({ type: "unbalanced_entry", details: { difference_cents: 1 } })
    const before = await snapshot(app)
    const preview = await agentClient.callTool({ name: "propose_journal_entry", arguments: { entry_date: today(), lines: lines(9000), dry_run: true } })
    expect(preview.structuredContent).toMatchObject({ dry_run: true, verdict: "propose", entry: { total_cents: 9000 } })
    expect(await snapshot(app)).toEqual(before)
  })
})
