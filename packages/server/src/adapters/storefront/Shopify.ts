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
  const booked = lines.filter((line) => line.amountCents !== 0)
  return {
    id: String(order.id),
    type: "order",
    // What the order books, not its `updated_at`: a refund changes the order's `updated_at` but
    // not what it sold, and is booked as its own object (`storefrontRefunds`); a changed line
    // still makes a new version, which waits for a person.
    version: `lines:${digest(JSON.stringify([order.created_at, booked]))}`,
    date: String(order.created_at).slice(0, 10),
    description: String(order.name ?? order.id),
    lines: booked
  }
}

/** FNV-1a, 32 bits, in hex: a short, stable fingerprint (not a secret). */
const digest = (text: string): string => {
  let hash = 0x811c9dc5
  for (let index = 0; index < text.length; index++) hash = Math.imul(hash ^ text.charCodeAt(index), 0x01000193) >>> 0
  return hash.toString(16).padStart(8, "0")
}

/** One refund's reversal of what the order booked, and the clearing account credited what went back. */
const refundLines = (order: Json, refund: Json): Array<Ports.SourceLine> => {
  const applications = (order.discount_applications ?? []) as Array<Json>
  const items = new Map(((order.line_items ?? []) as Array<Json>).map((item) => [String(item.id), item]))
  const taxKey = String((order.tax_lines ?? [])[0]?.title ?? "*").slice(0, 200)
  const lines: Array<Ports.SourceLine> = []
  for (const refunded of (refund.refund_line_items ?? []) as Array<Json>) {
    const item = (refunded.line_item ?? items.get(String(refunded.line_item_id)) ?? {}) as Json
    const gross = cents(item.price) * Number(refunded.quantity ?? 0)
    const allocation = ((item.discount_allocations ?? []) as Array<Json>)[0]
    const application = typeof allocation?.discount_application_index === "number" ? applications[allocation.discount_application_index] : undefined
    // `subtotal` is after the line's discounts: the rest of the gross is the discount given back.
    lines.push({ kind: "product", key: String(item.sku ?? "*").slice(0, 200), amountCents: -gross })
    lines.push({ kind: "discount", key: String(application?.code ?? application?.title ?? "*").slice(0, 200), amountCents: -(gross - cents(refunded.subtotal)) })
    lines.push({ kind: "tax", key: taxKey, amountCents: -cents(refunded.total_tax) })
  }
  const shippingKey = String((order.shipping_lines ?? [])[0]?.code ?? "*").slice(0, 200)
  for (const adjustment of (refund.order_adjustments ?? []) as Array<Json>) {
    // Shopify's adjustments are negative: a shipping refund, or a discrepancy between what the
    // lines say and what went back.
    const shipping = adjustment.kind === "shipping_refund"
    lines.push({ kind: shipping ? "shipping" : "product", key: shipping ? shippingKey : "refund_discrepancy", amountCents: cents(adjustment.amount) })
    lines.push({ kind: "tax", key: taxKey, amountCents: cents(adjustment.tax_amount) })
  }
  const moved = ((refund.transactions ?? []) as Array<Json>).filter((transaction) => transaction.kind === "refund" && transaction.status === "success")
  if (moved.length > 0) {
    // The clearing account is credited what was refunded, whatever the lines say.
    const paid = moved.reduce((sum, transaction) => sum + cents(transaction.amount), 0)
    const booked = -lines.reduce((sum, line) => sum + (line.kind === "discount" ? -line.amountCents : line.amountCents), 0)
    if (paid !== booked) lines.push({ kind: "product", key: "refund_discrepancy", amountCents: booked - paid })
  }
  return lines.filter((line) => line.amountCents !== 0)
}

/**
 * An order's refunds (the admin Order's `refunds`), each its own object: a refund is made once
 * and never changes, so its version is when it was made.
 */
export const storefrontRefunds = (order: Json): Array<Ports.SourceObject> =>
  ((order.refunds ?? []) as Array<Json>).slice(0, 100).map((refund): Ports.SourceObject => ({
    id: `${String(order.id)}/refunds/${String(refund.id)}`,
    type: "refund",
    version: String(refund.created_at),
    date: String(refund.created_at ?? order.created_at).slice(0, 10),
    description: `Refund of ${String(order.name ?? order.id)}`,
    lines: refundLines(order, refund)
  }))

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
  const objects = [...fresh].sort((a, b) => time(a.updated_at) - time(b.updated_at)).flatMap((order) => [storefrontOrder(order), ...storefrontRefunds(order)])
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
