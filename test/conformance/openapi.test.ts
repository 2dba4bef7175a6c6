import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { ApiError, Catalog, Operation } from "@ledger/api"
import { makeTestApp, type TestApp } from "../support/index.ts"

/** GET /openapi.json (spec 4.1, 9): every catalog operation, described from its one declaration. */

let app: TestApp
let document: any
beforeAll(async () => {
  app = await makeTestApp()
  const result = await app.call("GET", "/openapi.json")
  expect(result.status).toBe(200)
  document = result.body
})
afterAll(() => app.close())

const operations = Catalog.operations as ReadonlyArray<Operation.Any>

describe("the OpenAPI document", () => {
  it("is OpenAPI 3.1 at API version 0.1.0, served without a credential", () => {
    expect(document.openapi).toBe("3.1.0")
    expect(document.info.version).toBe("0.1.0")
    expect(document.components.securitySchemes.bearer).toMatchObject({ type: "http", scheme: "bearer" })
  })

  it("describes every operation of the catalog once, with its scope, mode, errors and MCP tool", () => {
    const published = Object.entries(document.paths as Record<string, Record<string, any>>)
      .flatMap(([path, item]) => Object.entries(item).map(([method, entry]) => ({ path, method: method.toUpperCase(), entry })))
    expect(published).toHaveLength(operations.length)
    for (const operation of operations) {
      const entry = document.paths[operation.path]?.[operation.method.toLowerCase()]
      expect(entry, `${operation.method} ${operation.path}`).toBeDefined()
      expect(entry.operationId).toBe(operation.id)
      expect(entry["x-ledger-scope"]).toBe(operation.scope)
      expect(entry["x-ledger-mode"]).toBe(operation.mode)
      expect(entry["x-ledger-mcp-tool"]).toBe(operation.mcpTool ? Operation.toolName(operation.id) : null)
      expect(entry.security).toEqual(operation.credential === "none" ? [] : [{ bearer: [] }])
      for (const type of operation.errors) {
        const response = entry.responses[String(ApiError.errorStatus[type])]
        expect(response?.description, `${operation.id} ${type}`).toContain(type)
        expect(response.content["application/json"].schema).toEqual({ $ref: "#/components/schemas/Error" })
      }
      for (const status of Object.keys(operation.responses)) expect(entry.responses[status]).toBeDefined()
      const keyHeader = entry.parameters.find((parameter: { name: string }) => parameter.name === "Idempotency-Key")
      if (operation.mode === "K") {
        expect(keyHeader).toMatchObject({ in: "header", schema: { type: "string", minLength: 8, maxLength: 200 } })
        const dryRun = operation.governed || Object.keys((operation.body as { fields?: object } | undefined)?.fields ?? {}).includes("dry_run")
        expect(keyHeader.required).toBe(!dryRun)
      } else {
        expect(keyHeader).toBeUndefined()
      }
      // MCP's JSON-RPC and the bodies of outside parties verified over their raw bytes (`rawBody`: the processor's events) are not ours to close.
      if (operation.body !== undefined && operation.method === "POST" && operation.id !== "postMcp" && !operation.rawBody) {
        expect(entry.requestBody.content["application/json"].schema.additionalProperties, operation.id).toBe(false)
      }
      for (const parameter of entry.parameters.filter((candidate: { in: string }) => candidate.in === "path")) {
        expect(operation.path).toContain(`{${parameter.name}}`)
        expect(parameter.required).toBe(true)
      }
    }
  })

  it("has no reference it cannot resolve", () => {
    const refs = JSON.stringify(document).match(/"\$ref":"[^"]+"/g) ?? []
    // The error body, and the event envelope OpenAPI's `webhooks` send (ADR 2010): each defined once.
    expect([...new Set(refs)].sort()).toEqual(['"$ref":"#/components/schemas/Error"', '"$ref":"#/components/schemas/WebhookEvent"'])
    for (const name of ["Error", "WebhookEvent"]) expect(document.components.schemas[name], name).toBeDefined()
  })
})
