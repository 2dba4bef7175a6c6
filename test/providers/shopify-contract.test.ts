import { Effect } from "effect"
import { describe, expect, it } from "vitest"
import type { CommerceProviders } from "@ledger/engine/ports"
import { CommerceHttp } from "@ledger/server"
import { FakeCommerce } from "@ledger/testkit"
import { consentProblems, description, nextLink, recording, requestProblems, responseProblems } from "../support/providers/shopify.ts"

/**
 * The storefront's contract (issue 39): every request the real adapter (CommerceHttp's
 * `provider_b`) sends in a whole connection's life, and every answer the testkit's fake gives,
 * checked against Shopify's published description of its Admin REST API 2024-04
 * (test/fixtures/providers/shopify). Orders come in pages of 250 by the Link header, closed ones
 * too, an update comes once, and the fake refuses as Shopify does (`errors`, 429 with Retry-After).
 */
const app = "https://app.ledger.test/books"

const setUp = () => {
  const fake = FakeCommerce.make()
  const recorded = recording(fake.fetch)
  const port = CommerceHttp.make({ providers: { provider_b: { baseUrl: "https://provider-b.fake", clientId: "client-b", clientSecret: "secret-b" } }, appUrl: app, fetch: recorded.fetch })
  return { fake, port, requests: recorded.requests }
}
const run = <A, E>(effect: Effect.Effect<A, E>) => Effect.runPromise(effect)

/** An order as Shopify's documented examples have it: a discount code allocated to the line, shipping, tax. */
const order = (id: number, day: number, extra: Record<string, unknown> = {}) => ({
  id, name: `#${id}`, created_at: `2026-03-${String(1 + (day % 28)).padStart(2, "0")}T10:00:00-05:00`, currency: "USD", financial_status: "paid",
  closed_at: null, cancelled_at: null, total_discounts: "2.50", total_tip_received: "0.00",
  discount_codes: [{ code: "SPRING10", amount: "2.50", type: "percentage" }],
  discount_applications: [{ type: "discount_code", code: "SPRING10", value: "10.0", value_type: "percentage", allocation_method: "across", target_selection: "all", target_type: "line_item" }],
  line_items: [{ id: id * 10, sku: "MUG", title: "Mug", price: "12.50", quantity: 2, discount_allocations: [{ amount: "2.50", discount_application_index: 0 }] }],
  shipping_lines: [{ id: id * 10 + 1, code: "standard", title: "Standard", price: "5.00" }],
  tax_lines: [{ title: "State Tax", price: "1.35", rate: 0.06 }],
  ...extra
})

const drain = async (port: CommerceProviders["Service"], accessToken: string, cursor: string | null) => {
  const objects: Array<string> = []
  let at = cursor
  for (let more = true; more;) {
    const page = await run(port.objects({ provider: "provider_b", accessToken, cursor: at }))
    objects.push(...page.objects.map((object) => object.id))
    at = page.nextCursor
    more = page.hasMore
  }
  return { objects, cursor: at }
}

describe(`the storefront against Shopify's description (Admin REST API ${description.apiVersion})`, () => {
  it("every request of a connection's life and every answer match it", async () => {
    const { fake, port, requests } = setUp()
    const consentUrl = port.consentUrl({ provider: "provider_b", state: "st-1", codeChallenge: "unused", redirectUri: "/integrations/callback" })
    expect(consentProblems(consentUrl)).toEqual([])
    const consent = fake.consent(consentUrl, { id: "mug-shop", name: "Mug Shop" })
    const grant = await run(port.exchange({ provider: "provider_b", code: consent.code, codeVerifier: "unused", redirectUri: "/integrations/callback" }))
    expect(grant).toMatchObject({ accountId: "mug-shop.myshopify.com", accountName: "Mug Shop" })
    for (let n = 0; n < 300; n++) fake.putOrder("mug-shop", order(1_000 + n, n))
    // Closed (archived) and cancelled orders are in the books too: Shopify lists only open ones unless asked.
    fake.putOrder("mug-shop", order(2_000, 1, { closed_at: "2026-03-02T10:00:00-05:00" }))
    const first = await drain(port, grant.accessToken, null)
    expect(first.objects.length).toBe(301)
    expect(new Set(first.objects).size).toBe(301)
    const pages = requests.filter((request) => request.url.includes("orders.json"))
    expect(pages.length).toBe(2)
    expect(nextLink(pages[0]!.answerHeaders?.link)).toContain("page_info=")

    fake.putOrder("mug-shop", order(1_007, 7, { total_tip_received: "3.00" }))
    const second = await drain(port, grant.accessToken, first.cursor)
    expect(second.objects).toEqual(["1007"])
    const third = await drain(port, grant.accessToken, second.cursor)
    expect(third.objects).toEqual([])

    await run(port.revoke({ provider: "provider_b", accessToken: grant.accessToken }))
    expect(fake.revoked).toEqual([grant.accessToken])
    const refused = await run(Effect.flip(port.objects({ provider: "provider_b", accessToken: grant.accessToken, cursor: third.cursor })))
    expect(refused.code).toBe("unauthorized")

    expect(requests.flatMap(requestProblems)).toEqual([])
    expect(requests.flatMap(responseProblems)).toEqual([])
  })

  it("a throttled call keeps Shopify's wait; a used code is a refused grant", async () => {
    const { fake, port, requests } = setUp()
    const consent = fake.consent(port.consentUrl({ provider: "provider_b", state: "s", codeChallenge: "c", redirectUri: "/cb" }), { id: "shop-t" })
    const grant = await run(port.exchange({ provider: "provider_b", code: consent.code, codeVerifier: "v", redirectUri: "/cb" }))
    fake.failNext("throttle")
    const throttled = await run(Effect.flip(port.objects({ provider: "provider_b", accessToken: grant.accessToken, cursor: null })))
    expect(throttled.code).toBe("unavailable")
    expect(throttled.message).toContain("retry after 2.0 s")
    const again = await run(Effect.flip(port.exchange({ provider: "provider_b", code: consent.code, codeVerifier: "v", redirectUri: "/cb" })))
    expect(again.code).toBe("invalid_grant")
    expect(requests.flatMap(requestProblems)).toEqual([])
    expect(requests.flatMap(responseProblems)).toEqual([])
  })

  it("a request the description does not have is reported", () => {
    // What the adapter sent before: a path Shopify does not have, a Bearer token, its own cursor, PKCE and a made-up scope.
    expect(requestProblems({ method: "GET", url: "https://shop.test/admin/api/orders.json?since_cursor=0&limit=100", headers: { authorization: "Bearer t" }, body: "" })).toEqual([
      "GET /admin/api/orders.json: no X-Shopify-Access-Token header",
      "GET /admin/api/orders.json: an Authorization header (the Admin API reads X-Shopify-Access-Token)",
      "GET /admin/api/orders.json: no such operation in API 2024-04"
    ])
    expect(consentProblems("https://shop.test/oauth/authorize?response_type=code&client_id=c&redirect_uri=%2Fcb&state=s&scope=read_only&code_challenge=x&code_challenge_method=S256")).toEqual([
      "consent URL: /oauth/authorize is not /admin/oauth/authorize",
      "consent URL: response_type is not a parameter",
      "consent URL: code_challenge is not a parameter",
      "consent URL: code_challenge_method is not a parameter",
      "consent URL: scope \"read_only\" is not an access scope of the described resources (read_orders, write_orders)",
      "consent URL: redirect_uri \"/cb\" is not absolute"
    ])
    const token = { "x-shopify-access-token": "shpat_1" }
    expect(requestProblems({ method: "GET", url: "https://shop.test/admin/api/2024-04/orders.json?limit=500&page_info=abc&status=any", headers: token, body: "" })).toEqual([
      "GET /admin/api/2024-04/orders.json: limit \"500\" is not 1 to 250",
      "GET /admin/api/2024-04/orders.json: status beside page_info (a page's link carries the filters)"
    ])
    expect(requestProblems({ method: "GET", url: "https://shop.test/admin/api/2024-04/orders.json?updated_at_min=yesterday&since_cursor=4", headers: token, body: "" })).toEqual([
      "GET /admin/api/2024-04/orders.json: since_cursor is not a parameter",
      "GET /admin/api/2024-04/orders.json: updated_at_min \"yesterday\" is not an ISO 8601 time"
    ])
    expect(requestProblems({ method: "POST", url: "https://shop.test/admin/oauth/access_token", headers: { "content-type": "application/x-www-form-urlencoded" }, body: "code=1" })).toEqual([
      "POST /admin/oauth/access_token: not JSON", "POST /admin/oauth/access_token: the body is not JSON"
    ])
    expect(responseProblems({ method: "GET", url: "https://shop.test/admin/api/2024-04/orders.json", headers: token, body: "", status: 200, answer: { orders: [{ id: "1001", updated_at: "1#2", line_items: [{ sku: "MUG", price: 12.5 }] }], next_cursor: "5" } })).toEqual([
      "GET /admin/api/2024-04/orders.json answer 200.orders[0].id: \"1001\" is not number | null",
      "GET /admin/api/2024-04/orders.json answer 200.orders[0].id: a string where the examples have number",
      "GET /admin/api/2024-04/orders.json answer 200.orders[0].line_items[0].price: a number where the examples have string"
    ])
    expect(responseProblems({ method: "GET", url: "https://shop.test/admin/api/2024-04/orders.json", headers: token, body: "", status: 429, answer: { error: "slow down" }, answerHeaders: {} })).toEqual([
      "GET /admin/api/2024-04/orders.json answer 429: a refusal carries \"errors\"",
      "GET /admin/api/2024-04/orders.json answer 429: a 429 says when to retry (Retry-After)"
    ])
  })
})
