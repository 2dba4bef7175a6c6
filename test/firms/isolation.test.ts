import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { Catalog, type Operation } from "@ledger/api"
import { agentWithKey, connectMcp, makeTestApp, newKey, type TestApp, type TestCompany } from "../support/index.ts"
import { createFirm, expectStatus, firmAgentWithKey, firmCall, grantAccess, lines, memberWithKey, today } from "./support.ts"

/**
 * Tenant isolation, generated from the catalog: every company operation, over HTTP and MCP, called
 * by every kind of principal with the victim's ids. Principals that cannot reach the victim (a
 * firm without a grant, a revoked grant, a removed member, a firm agent not assigned) are refused
 * outright; principals of another tenant acting at home with the victim's ids read nothing of it.
 * The victim's rows, in every table that has a company_id, are the same before and after.
 */

let app: TestApp
let victim: TestCompany
const victimIds = new Map<string, number | string>()
const operations = (Catalog.operations as ReadonlyArray<Operation.Any>).filter((operation) => operation.credential === "company" && operation.id !== "postMcp")

interface Principal {
  readonly name: string
  readonly token: string
  readonly company: string | null
  readonly headers?: Record<string, string>
  /** Refused before anything is read: it cannot reach the company it names. */
  readonly unreachable: boolean
}
const principals: Array<Principal> = []

/** A fingerprint of everything the victim owns: each tenant table's rows of the victim, hashed. */
const victimState = async () => {
  const tables = await app.query<{ table_name: string }>(`SELECT c.table_name FROM information_schema.columns c
    JOIN information_schema.tables t ON t.table_name = c.table_name AND t.table_schema = c.table_schema
    WHERE c.column_name = 'company_id' AND c.table_schema = current_schema() AND t.table_type = 'BASE TABLE' ORDER BY c.table_name`)
  const state: Record<string, string> = {}
  for (const { table_name } of tables) {
    const rows = await app.query<{ digest: string | null; count: string }>(
      `SELECT count(*) AS count, md5(string_agg(t::text, '|' ORDER BY t::text)) AS digest FROM "${table_name}" t WHERE company_id = $1`,
      [victim.companyId]
    )
    state[table_name] = `${rows[0]!.count}:${rows[0]!.digest}`
  }
  return state
}

const pathWithVictimIds = (operation: Operation.Any) =>
  operation.path.replace(/\{(\w+)\}/g, (_match, name: string) => {
    const resource = operation.path.split("/")[2] ?? ""
    return String(victimIds.get(resource) ?? (name === "code" ? "1010" : victimIds.get("default")))
  })

beforeAll(async () => {
  app = await makeTestApp()
  victim = await app.createCompany({ name: "Victim Co" })
  const home = await app.createCompany({ name: "Home Co" })
  const firm = await createFirm(app, "Home Firm")
  await grantAccess(app, home, firm)
  const victimAgent = await agentWithKey(app, victim.ownerKey, ["read", "propose"])
  const queued = await app.call("POST", "/v1/journal-entries/propose", {
    token: victimAgent.key.secret, key: newKey(), headers: { "x-agent-model": "m/1" },
    body: { entry_date: today(), lines: lines("6070", "1010", 999_999) }
  })
  victimIds.set("proposals", queued.body.proposal.id)
  victimIds.set("agents", victimAgent.agent.id)
  victimIds.set("keys", victimAgent.key.id)
  victimIds.set("users", victim.ownerId)
  victimIds.set("default", victimAgent.key.id)
  const periods = await app.query<{ id: string }>(`SELECT id FROM periods WHERE company_id = $1 LIMIT 1`, [victim.companyId])
  victimIds.set("periods", Number(periods[0]!.id))
  const homeAgent = await agentWithKey(app, home.ownerKey, ["read", "propose", "approve", "admin"])
  const cpa = await memberWithKey(app, firm, "cpa")
  const bookkeeper = await memberWithKey(app, firm, "bookkeeper")
  const firmAgent = await firmAgentWithKey(app, firm, ["read", "propose", "approve"])
  expectStatus(await firmCall(app, firm.adminKey, "POST", `/v1/firm/agents/${firmAgent.id}/assign`, { body: { company_id: home.companyId, posting_threshold_cents: 0 } }), 200)
  const noGrant = await createFirm(app, "No Grant Firm")
  const revokedFirm = await createFirm(app, "Revoked Firm")
  const revokedGrant = await grantAccess(app, victim, revokedFirm)
  const liveFirm = await createFirm(app, "Live Firm")
  await grantAccess(app, victim, liveFirm, ["read"])
  const removed = await memberWithKey(app, liveFirm, "cpa")
  const unassigned = await firmAgentWithKey(app, liveFirm)
  expectStatus(await app.call("POST", `/v1/firm-access/${revokedGrant.id}/revoke`, { token: victim.ownerKey, key: newKey(), body: { reason: "Ended" } }), 200)
  expectStatus(await firmCall(app, liveFirm.adminKey, "POST", `/v1/firm/members/${removed.id}/remove`, { body: { reason: "Left" } }), 200)
  const model = { "x-agent-model": "m/1" }
  principals.push(
    { name: "company person (other tenant)", token: home.ownerKey, company: null, unreachable: false },
    { name: "company agent (other tenant)", token: homeAgent.key.secret, company: null, headers: model, unreachable: false },
    { name: "firm admin in its client", token: firm.adminKey, company: home.companyId, unreachable: false },
    { name: "firm cpa in its client", token: cpa.key, company: home.companyId, unreachable: false },
    { name: "firm bookkeeper in its client", token: bookkeeper.key, company: home.companyId, unreachable: false },
    { name: "firm agent in its client", token: firmAgent.key, company: home.companyId, headers: model, unreachable: false },
    { name: "firm cpa naming the victim", token: cpa.key, company: victim.companyId, unreachable: true },
    { name: "firm without a grant", token: noGrant.adminKey, company: victim.companyId, unreachable: true },
    { name: "firm whose grant was revoked", token: revokedFirm.adminKey, company: victim.companyId, unreachable: true },
    { name: "removed firm member", token: removed.key, company: victim.companyId, unreachable: true },
    { name: "firm agent not assigned", token: unassigned.key, company: victim.companyId, headers: model, unreachable: true }
  )
}, 120_000)
afterAll(() => app.close())

describe("tenant isolation across every operation and principal", () => {
  it("over HTTP: no principal reads or changes the victim's data", async () => {
    const before = await victimState()
    const counts = { calls: 0, refused: 0, answeredAtHome: 0 }
    for (const principal of principals) {
      for (const operation of operations) {
        const result = await app.call(operation.method, pathWithVictimIds(operation), {
          token: principal.token,
          ...(operation.method === "POST" ? { key: newKey(), body: {} } : {}),
          headers: { ...(principal.company === null ? {} : { "x-ledger-company": principal.company }), ...principal.headers }
        })
        counts.calls++
        const where = `${principal.name} ${operation.id}: ${result.status} ${JSON.stringify(result.body).slice(0, 200)}`
        if (principal.unreachable) {
          expect([401, 403, 404], where).toContain(result.status)
          counts.refused++
        } else {
          if (result.status < 300) counts.answeredAtHome++
          expect(JSON.stringify(result.body) ?? "", where).not.toContain(victim.companyId)
          expect(JSON.stringify(result.body) ?? "", where).not.toContain("Victim Co")
        }
      }
    }
    expect(await victimState()).toEqual(before)
    console.log(`isolation matrix (HTTP): ${operations.length} operations x ${principals.length} principals = ${counts.calls} calls; ` +
      `${counts.refused} refused outright, ${counts.answeredAtHome} answered from the caller's own tenant, 0 of the victim's`)
  }, 600_000)

  it("over MCP: the same refusals for principals that cannot reach the victim", async () => {
    const before = await victimState()
    let calls = 0
    let refusedAtConnect = 0
    for (const principal of principals.filter((candidate) => candidate.unreachable)) {
      // A credential that is not valid at all (revoked, expired, unknown) is refused at the door:
      // /mcp answers 401 invalid_token before any tool is listed or called.
      const connected = await connectMcp(app, principal.token).then((client) => client, (error: unknown) => error instanceof Error ? error : new Error(String(error)))
      if (connected instanceof Error) {
        expect(connected.message, principal.name).toContain("unauthorized")
        refusedAtConnect++
        continue
      }
      const mcp = connected
      try {
        for (const operation of operations.filter((candidate) => candidate.mcpTool)) {
          const result: any = await mcp.callTool({
            name: operation.id.replace(/([a-z0-9])([A-Z])/g, "$1_$2").toLowerCase(),
            arguments: { ...(operation.mode === "K" ? { idempotency_key: newKey() } : {}) },
            _meta: { "dev.ledger/company": victim.companyId, "dev.ledger/model": "m/1" }
          })
          calls++
          const body = result.structuredContent ?? JSON.parse(result.content[0].text)
          expect(result.isError, `${principal.name} ${operation.id}`).toBe(true)
          expect(["unauthorized", "not_found", "forbidden"], `${principal.name} ${operation.id}: ${JSON.stringify(body)}`).toContain(body.error.type)
        }
      } finally {
        await mcp.close()
      }
    }
    expect(await victimState()).toEqual(before)
    console.log(`isolation matrix (MCP): ${calls} tool calls by ${principals.filter((candidate) => candidate.unreachable).length - refusedAtConnect} principals, all refused; ${refusedAtConnect} refused at connect`)
  }, 600_000)

  it("firm operations: a company key is refused, and another firm's ids are not found", async () => {
    const firmOperations = (Catalog.operations as ReadonlyArray<Operation.Any>).filter((operation) => operation.credential === "firm")
    const owner = await createFirm(app, "Owner Firm")
    const intruder = await createFirm(app, "Intruder Firm")
    const member = await memberWithKey(app, owner, "cpa")
    const agent = await firmAgentWithKey(app, owner)
    const session = expectStatus(await firmCall(app, member.key, "POST", "/v1/firm/sessions", { body: {} }), 201)
    const ids: Record<string, number | string> = { members: member.id, keys: member.keyId, agents: agent.id, sessions: session.session.id, clients: victim.companyId }
    let calls = 0
    for (const operation of firmOperations) {
      const path = operation.path.replace(/\{\w+\}/g, () => String(ids[operation.path.split("/")[3] ?? ""] ?? member.id))
      const byCompany = await app.call(operation.method, path, { token: victim.ownerKey, ...(operation.method === "POST" ? { key: newKey(), body: {} } : {}) })
      expect(byCompany.status, operation.id).toBe(401)
      calls++
      if (!operation.path.includes("{")) continue
      const body = operation.id === "assignFirmAgent" ? { company_id: victim.companyId, posting_threshold_cents: 1 }
        : operation.id === "unassignFirmAgent" ? { company_id: victim.companyId, reason: "x" }
        : operation.id === "changeFirmAiConnectionLevel" ? { level: "read" }
        : { reason: "x" }
      const byIntruder = await firmCall(app, intruder.adminKey, operation.method, path, operation.method === "POST" ? { body: operation.id.startsWith("reissue") ? {} : body } : {})
      expect(byIntruder.status, `${operation.id}: ${JSON.stringify(byIntruder.body)}`).toBe(404)
      calls++
    }
    expect((await firmCall(app, member.key, "GET", "/v1/firm")).status).toBe(200)
    expect((await firmCall(app, session.secret, "GET", "/v1/firm")).status).toBe(200)
    console.log(`isolation matrix (firm operations): ${calls} calls by a company key and an intruding firm, all refused`)
  })
})
