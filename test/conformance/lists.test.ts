import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { Catalog, Common, Limits, type Operation } from "@ledger/api"
import { makeTestApp, newKey, type TestApp } from "../support/index.ts"
import { newFirm } from "../support/sign-in.ts"

/**
 * Every list pages the same way (DECISIONS.md, issue 19 item 12): `limit` and `cursor` in, and
 * `{ data, has_more, next_cursor }` out. Generated from the catalog, so a list added later is
 * checked too.
 */

const fieldsOf = (schema: unknown): ReadonlyArray<string> =>
  Object.keys((schema as { fields?: Record<string, unknown> } | undefined)?.fields ?? {})

const lists = (Catalog.operations as ReadonlyArray<Operation.Any>).filter((operation) =>
  operation.method === "GET" && fieldsOf(operation.success).includes("data"))

describe("lists", () => {
  it("every list takes limit and cursor and answers data, has_more and next_cursor", () => {
    expect(lists.length).toBeGreaterThan(20)
    const wrong = lists.flatMap((operation) => {
      const missing = [
        ...["limit", "cursor"].filter((name) => !fieldsOf(operation.query).includes(name)).map((name) => `query ${name}`),
        ...["has_more", "next_cursor"].filter((name) => !fieldsOf(operation.success).includes(name)).map((name) => `answer ${name}`)
      ]
      return missing.length === 0 ? [] : [`${operation.id} (${operation.path}): no ${missing.join(", ")}`]
    })
    expect(wrong).toEqual([])
  })

  it("every list's limit is the one shared definition: 1 to 1000, 100 when absent (DECISIONS \"Lists\")", () => {
    expect(Limits.pageSizeMax).toBe(1_000)
    expect(Limits.pageSizeDefault).toBe(100)
    const own = lists.filter((operation) =>
      (operation.query as unknown as { fields: Record<string, unknown> }).fields.limit !== Common.PageQuery.limit
    ).map((operation) => operation.id)
    expect(own).toEqual([])
  })
})

let app: TestApp
beforeAll(async () => {
  app = await makeTestApp()
}, 120_000)
afterAll(() => app?.close())

/** Every page of a list, one item at a time. */
const pages = async (path: string, token: string): Promise<Array<unknown>> => {
  const items: Array<unknown> = []
  let cursor: string | null = null
  for (let page = 0; page < 50; page++) {
    const separator = path.includes("?") ? "&" : "?"
    const result = await app.call("GET", `${path}${separator}limit=1${cursor === null ? "" : `&cursor=${cursor}`}`, { token })
    expect(result.status, JSON.stringify(result.body)).toBe(200)
    expect(result.body.data.length).toBeLessThanOrEqual(1)
    items.push(...result.body.data)
    if (!result.body.has_more) {
      expect(result.body.next_cursor).toBeNull()
      return items
    }
    cursor = result.body.next_cursor
  }
  throw new Error("more than 50 pages")
}

describe("lists that did not page", () => {
  it("pages the starter charts one at a time, each once", async () => {
    const company = await app.createCompany({ name: "Pages Co" })
    const all = (await app.call("GET", "/v1/starter-charts", { token: company.ownerKey })).body.data
    expect(all.length).toBeGreaterThan(1)
    expect(await pages("/v1/starter-charts", company.ownerKey)).toEqual(all)
  })

  it("pages the bank rules in the order they are tried, each once", async () => {
    const company = await app.createCompany({ name: "Rule Pages Co" })
    for (const [name, priority] of [["Third", 30], ["First", 10], ["Second", 20], ["Also first", 10]] as const) {
      const rule = await app.call("POST", "/v1/bank-rules", {
        token: company.ownerKey,
        key: newKey(),
        body: { name, priority, direction: "out", account: "6030" }
      })
      expect(rule.status).toBe(201)
    }
    const paged = (await pages("/v1/bank-rules", company.ownerKey)) as Array<{ name: string }>
    expect(paged.map((rule) => rule.name)).toEqual(["First", "Also first", "Second", "Third"])
  })
})

/** The issues a 400 names at `query.limit`, if any. */
const limitIssues = (body: any): Array<unknown> =>
  ((body?.error?.details?.issues ?? []) as Array<{ path: ReadonlyArray<unknown> }>).filter((issue) =>
    issue.path.join(".") === "query.limit")

describe("every list over HTTP", () => {
  it("takes limit=1000 and refuses limit=1001 naming query.limit (issue 38 item 9)", async () => {
    const company = await app.createCompany({ name: "Long Lists Co" })
    const firm = await newFirm(app)
    const refusedThousand: Array<string> = []
    const acceptedMore: Array<string> = []
    for (const operation of lists) {
      const token = operation.credential === "firm" ? firm.adminKey : company.ownerKey
      // The records named in paths need not exist: the query is validated before any is read.
      const path = operation.path.replace(/\{[a-z_]+\}/g, "1") + (operation.id === "listPriorAmounts" ? "?year=2026&" : "?")
      const thousand = await app.call("GET", `${path}limit=1000`, { token })
      if (thousand.status === 400 && limitIssues(thousand.body).length > 0) refusedThousand.push(operation.id)
      else expect(thousand.status, `${operation.id}: ${JSON.stringify(thousand.body)}`).not.toBe(400)
      const more = await app.call("GET", `${path}limit=1001`, { token })
      if (!(more.status === 400 && limitIssues(more.body).length > 0)) acceptedMore.push(`${operation.id} ${more.status}`)
    }
    expect(refusedThousand).toEqual([])
    expect(acceptedMore).toEqual([])
  })
})
