import { randomBytes } from "node:crypto"

/**
 * The storefront part of `FakeCommerce`: Shopify's Admin REST API, version 2024-04, as its
 * documentation and its published library describe it (test/fixtures/providers/shopify). OAuth
 * without PKCE (`/admin/oauth/authorize`, a JSON `POST /admin/oauth/access_token` answering
 * `{access_token, scope}`), the token in `X-Shopify-Access-Token`, `shop.json`, and `orders.json`:
 * every order once, as it is now (an update changes its `updated_at`, a time), `open` ones only
 * unless `status=any`, `updated_at_min` inclusive, at most 250 a page, the next page named by the
 * `Link` header's `page_info` (beside which only `limit` and `fields` are taken). Refusals are
 * `{errors: ...}`; the app's access ends with `DELETE /admin/api_permissions/current.json`.
 */

type Json = Record<string, any>

export interface ShopRecord {
  readonly id: number
  readonly domain: string
  readonly name: string
  readonly orders: Map<string, Json>
  clock: number
}

export interface Shop {
  readonly shopCodes: Map<string, ShopRecord>
  readonly shopTokens: Map<string, ShopRecord>
  /** By the test's own name for the shop (`consent(url, {id})`). */
  readonly shops: Map<string, ShopRecord>
  readonly revoked: Array<string>
}

const version = "2024-04"
const json = (status: number, body: unknown, headers: Record<string, string> = {}) =>
  new Response(JSON.stringify(body), { status, headers: { "content-type": "application/json", ...headers } })
/** Shopify's times: seconds, no fraction. */
const stamp = (time: number) => new Date(time).toISOString().replace(/\.\d{3}Z$/u, "Z")

const shopOf = (state: Shop, id: string, name = id): ShopRecord => {
  const found = state.shops.get(id) ?? { id: 548_380_000 + state.shops.size + 1, domain: `${id.toLowerCase().replace(/[^a-z0-9-]/gu, "-")}.myshopify.com`, name, orders: new Map(), clock: 0 }
  state.shops.set(id, found)
  return found
}

/** The person installs the app at the consent URL: the state and the code Shopify sends back. */
export const shopConsent = (state: Shop, url: URL, who: { readonly id: string; readonly name?: string }) => {
  if (url.pathname !== "/admin/oauth/authorize") throw new Error(`Shopify's consent is /admin/oauth/authorize, not ${url.pathname}`)
  if (url.searchParams.get("scope") !== "read_orders") throw new Error(`invalid scope: ${url.searchParams.get("scope")}`)
  if (!URL.canParse(url.searchParams.get("redirect_uri") ?? "")) throw new Error("The redirect_uri is not a URL the app has whitelisted")
  const code = randomBytes(16).toString("hex")
  state.shopCodes.set(code, shopOf(state, who.id, who.name))
  return { state: url.searchParams.get("state") ?? "", code }
}

/** Adds or changes an order: Shopify keeps one, with a later `updated_at` (ids are numbers there). */
export const putOrder = (state: Shop, accountId: string, order: Json) => {
  const shop = shopOf(state, accountId)
  shop.clock = Math.max(shop.clock + 1_000, Date.parse(String(order.created_at)) || 0)
  const id = typeof order.id === "string" && /^\d+$/u.test(order.id) ? Number(order.id) : order.id
  shop.orders.set(String(id), { ...order, id, updated_at: stamp(shop.clock) })
}

const token = async (state: Shop, request: Request): Promise<Response> => {
  let body: Json = {}
  try {
    body = await request.json() as Json
  } catch {
    return json(400, { error: "invalid_request", error_description: "The request body is not JSON" })
  }
  if (body.client_id !== "client-b" || body.client_secret !== "secret-b") return json(400, { error: "invalid_client", error_description: "Client authentication failed" })
  const shop = state.shopCodes.get(String(body.code))
  state.shopCodes.delete(String(body.code))
  if (shop === undefined) return json(400, { error: "invalid_request", error_description: "The authorization code was not found or was already used" })
  const issued = `shpat_${randomBytes(16).toString("hex")}`
  state.shopTokens.set(issued, shop)
  return json(200, { access_token: issued, scope: "read_orders" })
}

interface Filter { readonly status: string; readonly updatedAtMin: string | null; readonly offset: number }

const orders = (shop: ShopRecord, url: URL): Response => {
  const pageInfo = url.searchParams.get("page_info")
  const limit = Number(url.searchParams.get("limit") ?? 50)
  if (!Number.isInteger(limit) || limit < 1 || limit > 250) return json(400, { errors: { limit: ["must be between 1 and 250"] } })
  let filter: Filter
  if (pageInfo !== null) {
    if ([...url.searchParams.keys()].some((key) => !["page_info", "limit", "fields"].includes(key))) return json(400, { errors: { page_info: ["cannot be combined with other filters"] } })
    try {
      filter = JSON.parse(Buffer.from(pageInfo, "base64url").toString("utf8")) as Filter
    } catch {
      return json(400, { errors: { page_info: ["Invalid value."] } })
    }
  } else {
    filter = { status: url.searchParams.get("status") ?? "open", updatedAtMin: url.searchParams.get("updated_at_min"), offset: 0 }
    if (filter.updatedAtMin !== null && Number.isNaN(Date.parse(filter.updatedAtMin))) return json(400, { errors: { updated_at_min: ["is not a time"] } })
  }
  const open = (order: Json) => (order.closed_at ?? null) === null && (order.cancelled_at ?? null) === null
  const matching = [...shop.orders.values()]
    .filter((order) => filter.status === "any" || (filter.status === "open" ? open(order) : filter.status === "closed" ? (order.closed_at ?? null) !== null : (order.cancelled_at ?? null) !== null))
    .filter((order) => filter.updatedAtMin === null || Date.parse(order.updated_at) >= Date.parse(filter.updatedAtMin))
    .sort((a, b) => Date.parse(b.created_at) - Date.parse(a.created_at) || Number(b.id) - Number(a.id))
  const page = matching.slice(filter.offset, filter.offset + limit)
  const headers: Record<string, string> = {}
  if (filter.offset + limit < matching.length) {
    const next = Buffer.from(JSON.stringify({ ...filter, offset: filter.offset + limit })).toString("base64url")
    headers.link = `<${url.origin}/admin/api/${version}/orders.json?limit=${limit}&page_info=${next}>; rel="next"`
  }
  return json(200, { orders: page }, headers)
}

/** Shopify's side of the fake commerce providers: every `/admin/` path. */
export const shopify = async (state: Shop, request: Request, url: URL): Promise<Response> => {
  if (url.pathname === "/admin/oauth/access_token" && request.method === "POST") return token(state, request)
  const issued = request.headers.get("x-shopify-access-token") ?? ""
  const shop = state.shopTokens.get(issued)
  if (shop === undefined) return json(401, { errors: "[API] Invalid API key or access token (unrecognized login or wrong password)" })
  if (url.pathname === "/admin/api_permissions/current.json" && request.method === "DELETE") {
    state.shopTokens.delete(issued)
    state.revoked.push(issued)
    return json(200, {})
  }
  if (request.method !== "GET") return json(406, { errors: "Not Acceptable" })
  if (url.pathname === `/admin/api/${version}/shop.json`) {
    return json(200, { shop: { id: shop.id, name: shop.name, myshopify_domain: shop.domain, domain: shop.domain, currency: "USD", iana_timezone: "America/New_York" } })
  }
  if (url.pathname === `/admin/api/${version}/orders.json`) return orders(shop, url)
  return json(404, { errors: "Not Found" })
}
