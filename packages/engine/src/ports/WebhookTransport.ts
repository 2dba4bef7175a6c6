import { Context, Data, Effect, Layer } from "effect"
import ipaddr from "ipaddr.js"

/**
 * Sends webhook deliveries (spec 4.15, concepts 6): one HTTP POST of a signed JSON body to an
 * endpoint's address, as a port. The real adapter (packages/server/src/adapters/HttpWebhookTransport.ts)
 * resolves the host, refuses addresses that are not public (server-side request forgery, ADR 1102),
 * connects to the very address it checked, follows no redirect, bounds the time and the size of
 * the answer. The testkit's `FakeWebhookTransport` records requests and answers as scripted.
 *
 * The address rules are here, pure, so the engine checks an address when an endpoint is saved and
 * the adapter checks each one DNS answers with the same rules.
 */

export interface WebhookRequest {
  readonly url: string
  readonly headers: Readonly<Record<string, string>>
  readonly body: string
  readonly timeoutMs: number
}

export interface WebhookResponse {
  readonly status: number
  /** The start of the answer's body, at most `responseExcerptBytes`, for the delivery log. */
  readonly body: string
  readonly durationMs: number
}

/** Why nothing reached the receiver, or why its answer was not read. */
export class WebhookSendFailure extends Data.TaggedError("WebhookSendFailure")<{
  /** `refused`: the address is not allowed (not public, not https); nothing was sent. */
  readonly code: "refused" | "timeout" | "network" | "too_large" | "not_configured"
  readonly message: string
}> {}

export class WebhookTransport extends Context.Service<WebhookTransport, {
  /** False only for `layerUnconfigured`: the webhook operations answer 503 `webhooks_not_configured`. */
  readonly configured: boolean
  /** `LEDGER_WEBHOOK_ALLOW_PRIVATE=true`: http and loopback or private addresses are allowed too. */
  readonly allowPrivate: boolean
  /** Resolves the address's host and refuses it unless every address it names is allowed. */
  readonly vet: (url: string) => Effect.Effect<void, WebhookSendFailure>
  readonly send: (request: WebhookRequest) => Effect.Effect<WebhookResponse, WebhookSendFailure>
}>()("@ledger/engine/WebhookTransport") {
  /** No transport: every call fails with `not_configured`; the operations refuse before calling. */
  static readonly layerUnconfigured: Layer.Layer<WebhookTransport> = Layer.sync(WebhookTransport)(() => {
    const notConfigured = Effect.fail(new WebhookSendFailure({
      code: "not_configured",
      message: "No webhook transport is configured on this deployment."
    }))
    return WebhookTransport.of({ configured: false, allowPrivate: false, vet: () => notConfigured, send: () => notConfigured })
  })
}

/** How much of a receiver's answer is read and kept: the rest is not read at all. */
export const responseExcerptBytes = 1024

/** The most of an answer the adapter reads before it stops (the delivery still counts by status). */
export const responseBytesMax = 64 * 1024

/**
 * Whether an IP address (v4 or v6, as text) is a public unicast address. Loopback, private,
 * link-local (and so the cloud metadata address 169.254.169.254), carrier-grade NAT, multicast,
 * broadcast, reserved, unique-local and every IPv6 form that embeds an IPv4 address (mapped,
 * NAT64, 6to4, Teredo) are not: an IPv4-mapped address is judged as the IPv4 address it maps.
 */
export const isPublicAddress = (address: string): boolean => {
  const text = address.startsWith("[") && address.endsWith("]") ? address.slice(1, -1) : address
  if (!ipaddr.isValid(text)) return false
  let parsed = ipaddr.parse(text)
  if (parsed.kind() === "ipv6" && (parsed as ipaddr.IPv6).isIPv4MappedAddress()) parsed = (parsed as ipaddr.IPv6).toIPv4Address()
  return parsed.range() === "unicast"
}

/** An IP address written as a URL host (brackets around IPv6), or null for a host name. */
export const literalAddress = (hostname: string): string | null => {
  const text = hostname.startsWith("[") && hostname.endsWith("]") ? hostname.slice(1, -1) : hostname
  return ipaddr.isValid(text) && (text.includes(":") || ipaddr.IPv4.isValidFourPartDecimal(text)) ? text : null
}

/** Host names that name this machine or a private network whatever DNS says. */
const privateNames = /(^|\.)(localhost|local|internal|localdomain|home\.arpa)$/i

/**
 * The address rules that need no DNS: https (or http when private addresses are allowed), no
 * credentials, a host; an IP literal must be public, and a host name must not be a local name.
 * Returns why not, or null when the address may be resolved and used.
 */
export const addressProblem = (url: string, allowPrivate: boolean): string | null => {
  let parsed: URL
  try {
    parsed = new URL(url)
  } catch {
    return "It is not an absolute URL."
  }
  if (parsed.protocol !== "https:" && !(allowPrivate && parsed.protocol === "http:")) return "The address must use https."
  if (parsed.username !== "" || parsed.password !== "") return "The address may not carry a user name or password."
  if (parsed.hostname === "") return "The address has no host."
  if (allowPrivate) return null
  const literal = literalAddress(parsed.hostname)
  if (literal !== null) return isPublicAddress(literal) ? null : "The address is not a public address."
  if (privateNames.test(parsed.hostname.replace(/\.$/, ""))) return "The address is not a public address."
  if (!parsed.hostname.includes(".")) return "The host name must be a fully qualified domain name."
  return null
}
