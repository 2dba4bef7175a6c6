import type { Ports } from "@ledger/engine"

/**
 * The storefront (`provider_b`) as Shopify's Admin REST API, version 2024-04, speaks it (ADR 2126;
 * test/fixtures/providers/shopify): consent at the shop's `/admin/oauth/authorize` (`client_id`,
 * `scope=read_orders`, `redirect_uri`, `state`; Shopify's authorization-code grant takes no PKCE),
 * the token from `POST /admin/oauth/access_token` (JSON `client_id`, `client_secret`, `code`,
 * answering `{access_token, scope}`), the shop from `GET /admin/api/2024-04/shop.json`, orders from
 * `GET /admin/api/2024-04/orders.json?status=any&limit=250&updated_at_min=...` paged by the
 * `Link` header's `page_info`, every call authenticated by `X-Shopify-Access-Token`, and the
 * app's access given up by `DELETE /admin/api_permissions/current.json`.
 */

type Json = Record<string, any>

export const apiVersion = "2024-04"
export const scope = "read_orders"
export const accessTokenHeader = "X-Shopify-Access-Token"
/** The Admin API reads the token from its own header, not `Authorization`. */
export const headers = (accessToken: string) => ({ [accessTokenHeader]: accessToken, accept: "application/json" })

/** `path` under the base URL, its own path kept. */
const under = (baseUrl: string, path: string): URL => new URL(`${baseUrl.replace(/\/+$/u, "")}/${path.replace(/^\/+/u, "")}`)
export const adminUrl = (baseUrl: string, resource: string): URL => under(baseUrl, `/admin/api/${apiVersion}/${resource}`)
export const authorizeUrl = (baseUrl: string) => under(baseUrl, "/admin/oauth/authorize")
export const tokenUrl = (baseUrl: string) => under(baseUrl, "/admin/oauth/access_token")
export const uninstallUrl = (baseUrl: string) => under(baseUrl, "/admin/api_permissions/current.json")

/** Integer cents from a decimal string ("19.99"), never through a float. */
export const cents = (value: unknown): number => {
  const [whole, fraction = ""] = String(value ?? "0").split(".")
  const sign = whole!.startsWith("-") ? -1 : 1
  return sign * (Math.abs(Number(whole)) * 100 + Number(fraction.padEnd(2, "0").slice(0, 2)))
}

/**
 * An order's discounts in money (issue 39 item 5). The storefront's `discount_applications` say how
 * a discount was defined (`value_type` percentage or fixed amount, `value`), not what it took off:
 * the amounts are each line's (and each shipping line's) `discount_allocations`, keyed here by their
 * application's code or title. An order without allocations falls back to its `discount_codes`
 * amounts, then to `total_discounts`.
 */
export const storefrontDiscounts = (order: Json): Array<Ports.SourceLine> => {
  const applications = (order.discount_applications ?? []) as Array<Json>
  const keyOf = (index: unknown): string => {
    const application = typeof index === "number" ? applications[index] : undefined
    return String(application?.code ?? application?.title ?? "*").slice(0, 200)
  }
  const allocated: Array<Ports.SourceLine> = []
  for (const line of [...(order.line_items ?? []), ...(order.shipping_lines ?? [])] as Array<Json>) {
    for (const allocation of (line.discount_allocations ?? []) as Array<Json>) {
      allocated.push({ kind: "discount", key: keyOf(allocation.discount_application_index), amountCents: cents(allocation.amount) })
    }
  }
  if (allocated.length > 0) return allocated
  const codes = ((order.discount_codes ?? []) as Array<Json>).map((code): Ports.SourceLine => ({ kind: "discount", key: String(code.code ?? "*").slice(0, 200), amountCents: cents(code.amount) }))
  if (codes.some((code) => code.amountCents !== 0)) return codes
  return cents(order.total_discounts) > 0 ? [{ kind: "discount", key: "*", amountCents: cents(order.total_discounts) }] : []
}

export const storefrontOrder = (order: Json): Ports.SourceObject => {
  const lines: Array<Ports.SourceLine> = []
  for (const item of (order.line_items ?? []) as Array<Json>) {
    lines.push({ kind: "product", key: String(item.sku ?? "*"), amountCents: cents(item.price) * Number(item.quantity ?? 1) })
  }
  lines.push(...storefrontDiscounts(order))
  for (const shipping of (order.shipping_lines ?? []) as Array<Json>) lines.push({ kind: "shipping", key: String(shipping.code ?? "*"), amountCents: cents(shipping.price) })
  for (const tax of (order.tax_lines ?? []) as Array<Json>) lines.push({ kind: "tax", key: String(tax.title ?? "*"), amountCents: cents(tax.price) })
  if (cents(order.total_tip_received) > 0) lines.push({ kind: "tip", key: "*", amountCents: cents(order.total_tip_received) })
  return {
    id: String(order.id),
    type: "order",
    version: String(order.updated_at),
    date: String(order.created_at).slice(0, 10),
    description: String(order.name ?? order.id),
    lines: lines.filter((line) => line.amountCents !== 0)
  }
}

/**
 * Where a storefront sync stands. Shopify lists an order once, as it is now (not a log of its
 * changes), so a sync asks for the orders updated since the newest `updated_at` the last pass saw
 * (`updated_at_min`, inclusive) and leaves out the ones it already had at that very time (`seen`).
 * A pass may take several pages (`page`, the `Link` header's `page_info`); the newest time is
 * moved on only when the pass ends, as the pages are not in `updated_at` order.
 */
export interface StorefrontCursor {
  readonly since: string | null
  readonly seen: ReadonlyArray<string>
  readonly newest: string | null
  readonly newestIds: ReadonlyArray<string>
  readonly page: string | null
}

const start: StorefrontCursor = { since: null, seen: [], newest: null, newestIds: [], page: null }

/** The cursor kept in the connection; anything else (the earlier adapter's offsets) starts over. */
export const storefrontCursor = (cursor: string | null): StorefrontCursor => {
  if (cursor === null || !cursor.startsWith("shopify:")) return start
  try {
    return { ...start, ...JSON.parse(cursor.slice("shopify:".length)) as Partial<StorefrontCursor> }
  } catch {
    return start
  }
}

/** The orders request for a cursor: with a `page_info`, only `limit` may go beside it. */
export const ordersUrl = (baseUrl: string, at: StorefrontCursor): URL => {
  const url = adminUrl(baseUrl, "orders.json")
  url.searchParams.set("limit", "250")
  if (at.page !== null) url.searchParams.set("page_info", at.page)
  else {
    // Shopify's default is `open` only: closed (archived) and cancelled orders would never come.
    url.searchParams.set("status", "any")
    if (at.since !== null) url.searchParams.set("updated_at_min", at.since)
  }
  return url
}

/** The `page_info` of a Link header's `rel="next"`, or null on the last page. */
export const nextPage = (link: string | null): string | null => {
  for (const part of (link ?? "").split(",")) {
    const match = /<([^<>]+)>;\s*rel="next"/u.exec(part)
    if (match !== null && URL.canParse(match[1]!)) return new URL(match[1]!).searchParams.get("page_info")
  }
  return null
}

const time = (value: unknown) => Date.parse(String(value))

/** One answered page: the new orders (oldest change first) and the cursor that follows. */
export const storefrontPage = (at: StorefrontCursor, orders: ReadonlyArray<Json>, next: string | null): Ports.ObjectPage => {
  const fresh = orders.filter((order) => !(at.since !== null && time(order.updated_at) === time(at.since) && at.seen.includes(String(order.id))))
  let newest = at.newest
  let newestIds = [...at.newestIds]
  for (const order of orders) {
    const when = time(order.updated_at)
    if (Number.isNaN(when)) continue
    if (newest === null || when > time(newest)) {
      newest = String(order.updated_at)
      newestIds = [String(order.id)]
    } else if (when === time(newest) && !newestIds.includes(String(order.id))) newestIds.push(String(order.id))
  }
  const objects = [...fresh].sort((a, b) => time(a.updated_at) - time(b.updated_at)).map(storefrontOrder)
  const following: StorefrontCursor = next !== null
    ? { ...at, newest, newestIds, page: next }
    : newest === null ? { ...start, since: at.since, seen: at.seen }
    : { ...start, since: newest, seen: at.since !== null && time(at.since) === time(newest) ? [...new Set([...at.seen, ...newestIds])] : newestIds }
  return { objects, nextCursor: `shopify:${JSON.stringify(following)}`, hasMore: next !== null }
}

/** The connection's account: the shop's own domain (stable, unlike its name), and its name. */
export const shopAccount = (json: Json): { readonly accountId: string; readonly accountName: string } | null => {
  const shop = json.shop as Json | undefined
  const id = shop?.myshopify_domain ?? (shop?.id === undefined ? undefined : String(shop.id))
  if (typeof id !== "string" || id === "" || id.length > 200) return null
  return { accountId: id, accountName: String(shop?.name ?? id).slice(0, 200) }
}
