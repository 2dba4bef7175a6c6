import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { Catalog, type Operation, Scope } from "@ledger/api"
import { agentWithKey, createKey, expectErrorBody, makeTestApp, signInAs, type TestApp, type TestCompany } from "../support/index.ts"

/**
 * The catalog's promises, checked for every operation it declares, including the ones other areas
 * add later (DESIGN.md, "One catalog, every surface"): every operation checks its credential and
 * scope, scope before the Idempotency-Key, every `K` write refuses a missing key before looking at
 * its body, a dry run needs no key, people-only operations refuse agents, and operations for a
 * person signed in refuse every API key.
 */

let app: TestApp
let company: TestCompany
/** A key of the owner holding exactly one scope, by scope. */
const keys = new Map<Scope.Scope, string>()
let agentKey: string
/** The owner's signed-in session (operations for a person signed in take no key). */
let session: string

const operations = Catalog.operations as ReadonlyArray<Operation.Any>
const companyOperations = operations.filter((operation) => operation.credential === "company" && operation.id !== "postMcp")
const below = (scope: Scope.Scope): Scope.Scope | undefined => Scope.scopes[Scope.rank(scope) - 1]
const acceptsDryRun = (operation: Operation.Any) =>
  operation.governed || Object.keys((operation.body as { fields?: object } | undefined)?.fields ?? {}).includes("dry_run")

beforeAll(async () => {
  app = await makeTestApp()
  company = await app.createCompany({ name: "Conformance Co" })
  for (const scope of Scope.scopes) {
    const key = await createKey(app, company.ownerKey, { principal_type: "user", user_id: company.ownerId, scopes: [scope] })
    keys.set(scope, key.secret)
  }
  agentKey = (await agentWithKey(app, company.ownerKey, [...Scope.scopes])).key.secret
  session = (await signInAs(app, company)).secret
})
afterAll(() => app.close())

const pathOf = (operation: Operation.Any) => operation.path.replace(/\{\w+\}/g, "1")

const send = (operation: Operation.Any, options: { token?: string; key?: string; body?: unknown; headers?: Record<string, string> }) =>
  app.call(operation.method, pathOf(operation), {
    ...options,
    ...(operation.method === "GET" ? { body: undefined } : {}),
    headers: options.headers ?? {}
  })

/** A body no operation accepts: if it were read before the key, the answer would be invalid_request. */
const wrongBody = { "not a field": [1, { deeper: true }] }

describe("every operation of the catalog", () => {
  it("declares what the checks rely on", () => {
    expect(companyOperations.length).toBeGreaterThan(15)
    for (const operation of operations) {
      expect(Scope.scopes).toContain(operation.scope)
      expect(["K", "-", "R"]).toContain(operation.mode)
      expect(operation.errors).toContain(operation.mode === "R" ? "invalid_request" : "idempotency_key_required")
      if (operation.mode !== "R") expect(operation.errors).toContain("idempotency_conflict")
    }
    const routes = operations.map((operation) => `${operation.method} ${operation.path}`)
    expect(new Set(routes).size).toBe(routes.length)
    const ids = operations.map((operation) => operation.id)
    expect(new Set(ids).size).toBe(ids.length)
  })

  it("refuses a request without a credential with 401", async () => {
    for (const operation of operations.filter((candidate) => candidate.credential !== "none" && candidate.id !== "postMcp")) {
      const result = await send(operation, { body: {} })
      expect(result.status, operation.id).toBe(401)
      expectErrorBody(result.body, "unauthorized")
    }
  })

  it("refuses a caller one scope short with insufficient_scope, before the Idempotency-Key and the body", async () => {
    let checked = 0
    for (const operation of companyOperations) {
      const short = below(operation.scope)
      if (short === undefined) continue
      const result = await send(operation, { token: keys.get(short)!, body: wrongBody })
      expect(result.status, `${operation.id} with a ${short} key`).toBe(403)
      expectErrorBody(result.body, "insufficient_scope")
      expect(result.body.error.details, operation.id).toEqual({ required_scope: operation.scope })
      checked++
    }
    expect(checked).toBeGreaterThan(10)
  })

  it("refuses every K write without an Idempotency-Key, before its body", async () => {
    let checked = 0
    for (const operation of companyOperations.filter((candidate) => candidate.mode === "K")) {
      // An operation for a person signed in takes the owner's session, no key (the next check).
      const token = operation.signedIn ? session : keys.get(operation.scope)!
      const result = await send(operation, { token, body: wrongBody })
      expect(result.status, `${operation.id}: ${JSON.stringify(result.body)}`).toBe(400)
      expectErrorBody(result.body, "idempotency_key_required")
      const noBody = await send(operation, { token })
      expectErrorBody(noBody.body, "idempotency_key_required")
      checked++
    }
    for (const operation of operations.filter((candidate) => candidate.credential === "operator" && candidate.mode === "K")) {
      const result = await send(operation, { token: app.operatorToken, body: wrongBody })
      expectErrorBody(result.body, "idempotency_key_required")
      checked++
    }
    expect(checked).toBeGreaterThan(8)
  })

  it("refuses any API key, the owner's included, at operations for a person signed in, before the Idempotency-Key and the body", async () => {
    const signedIn = companyOperations.filter((operation) => operation.signedIn)
    expect(signedIn.length).toBeGreaterThan(8)
    for (const operation of signedIn) {
      expect(operation.errors, operation.id).toContain("session_required")
      for (const token of [company.ownerKey, keys.get(operation.scope)!]) {
        const result = await send(operation, { token, body: wrongBody })
        expect(result.status, `${operation.id}: ${JSON.stringify(result.body)}`).toBe(403)
        expectErrorBody(result.body, "session_required")
      }
    }
  })

  it("lets a dry run through without a key, and no read or setter ever asks for one", async () => {
    for (const operation of companyOperations.filter((candidate) => candidate.mode === "K" && acceptsDryRun(candidate))) {
      const result = await send(operation, { token: keys.get(operation.scope)!, body: { dry_run: true } })
      expect(result.body?.error?.type, operation.id).not.toBe("idempotency_key_required")
    }
    for (const operation of companyOperations.filter((candidate) => candidate.mode !== "K")) {
      const result = await send(operation, { token: keys.get(operation.scope)!, body: wrongBody })
      expect(result.status, operation.id).toBeLessThan(500)
      expect(result.body?.error?.type, operation.id).not.toBe("idempotency_key_required")
    }
  })

  it("refuses agents at people-only operations, and agents' writes without X-Agent-Model", async () => {
    for (const operation of companyOperations) {
      if (operation.peopleOnly) {
        const result = await send(operation, { token: agentKey, body: wrongBody, headers: { "x-agent-model": "conformance-1" } })
        expect(result.status, operation.id).toBe(403)
        expectErrorBody(result.body, "insufficient_scope")
      } else if (operation.mode !== "R") {
        const result = await send(operation, { token: agentKey, body: wrongBody })
        expect(result.status, operation.id).toBe(400)
        expectErrorBody(result.body, "agent_model_required")
      }
    }
  })

  it("refuses a company key at operator operations", async () => {
    for (const operation of operations.filter((candidate) => candidate.credential === "operator")) {
      const result = await send(operation, { token: company.ownerKey, body: wrongBody })
      expect(result.status, operation.id).toBe(401)
      expectErrorBody(result.body, "unauthorized")
    }
  })
})
