/**
 * Pure rules of the receipt inbox (spec 4.1, 8.2): custom names, lookalikes, the sender
 * allow-list, authentication results, and what becomes of a message.
 */

export const slugPattern = /^[a-z0-9]+(-[a-z0-9]+)*$/u

/** Names no company may take: mailbox roles (RFC 2142), the service's own words, and test names. */
export const reservedSlugs: ReadonlyArray<string> = [
  "abuse", "admin", "administrator", "api", "billing", "bounce", "bounces", "help", "hostmaster", "info", "inbox",
  "ledger", "mail", "mailer-daemon", "noc", "no-reply", "noreply", "postmaster", "receipt", "receipts", "root",
  "sales", "security", "support", "system", "test", "webmaster", "www"
]

/**
 * A slug reduced to what a reader sees: hyphens dropped, and characters that pass for one
 * another folded together (0/o, 1/l/i, 5/s, rn/m, vv/w). Two slugs that reduce alike are lookalikes.
 */
export const skeleton = (slug: string): string =>
  slug.toLowerCase()
    .replace(/-/gu, "")
    .replace(/rn/gu, "m")
    .replace(/vv/gu, "w")
    .replace(/0/gu, "o")
    .replace(/[1i]/gu, "l")
    .replace(/5/gu, "s")
    .replace(/8/gu, "b")

export type SlugVerdict = "invalid" | "reserved" | "lookalike" | null

/** Whether a slug may be taken at all, before asking who holds what: null when it may. */
export const judgeSlug = (slug: string): SlugVerdict => {
  if (slug.length < 3 || slug.length > 30 || !slugPattern.test(slug)) return "invalid"
  // `r-<token>` is the private address's own form.
  if (reservedSlugs.includes(slug) || slug.startsWith("r-")) return "reserved"
  const shape = skeleton(slug)
  if (reservedSlugs.some((reserved) => skeleton(reserved) === shape)) return "lookalike"
  return null
}

/** The bare address from `Name <a@b>` or `a@b`, lower-cased; null when there is none. */
export const addressOf = (value: string): string | null => {
  const match = /<([^<>\s]+@[^<>\s]+)>/u.exec(value) ?? /([^\s<>"]+@[^\s<>"]+)/u.exec(value)
  return match === null ? null : match[1]!.toLowerCase()
}

/** Whether a sender is on the list: an exact address, or `@domain` (that domain only, not its subdomains). */
export const senderAllowed = (sender: string, allowed: ReadonlyArray<string>): boolean => {
  const address = sender.toLowerCase()
  const domain = address.slice(address.lastIndexOf("@"))
  return allowed.some((entry) => {
    const rule = entry.toLowerCase()
    return rule.startsWith("@") ? rule === domain : rule === address
  })
}

export type AuthResult = "pass" | "fail" | "softfail" | "neutral" | "none" | "temperror" | "permerror" | "policy"
export interface Authentication {
  readonly spf: string
  readonly dkim: string
  readonly dmarc: string
}

/**
 * Results of an `Authentication-Results` header (RFC 8601) written by a verifier the deployment
 * trusts (its `authserv-id`). A header from anyone else is ignored: a sender can write one too.
 */
export const parseAuthenticationResults = (headers: ReadonlyArray<string>, trustedAuthservId: string | null): Authentication => {
  const out: Record<"spf" | "dkim" | "dmarc", string> = { spf: "none", dkim: "none", dmarc: "none" }
  if (trustedAuthservId === null) return out
  for (const header of headers) {
    const [authserv, ...rest] = header.split(";")
    if ((authserv ?? "").trim().split(/\s+/u)[0]!.toLowerCase() !== trustedAuthservId.toLowerCase()) continue
    for (const clause of rest) {
      const match = /^\s*(spf|dkim|dmarc)\s*=\s*([a-z]+)/iu.exec(clause)
      if (match !== null) {
        const method = match[1]!.toLowerCase() as "spf" | "dkim" | "dmarc"
        // One passing DKIM signature is enough; keep a pass once seen.
        if (out[method] !== "pass") out[method] = match[2]!.toLowerCase()
      }
    }
  }
  return out
}

/** Authenticated: DMARC passes, or (no DMARC policy) SPF or DKIM passes. */
export const authenticated = (auth: Authentication): boolean =>
  auth.dmarc === "pass" || (auth.dmarc === "none" && (auth.spf === "pass" || auth.dkim === "pass"))

export interface Arrival {
  readonly enabled: boolean
  readonly duplicate: boolean
  readonly sizeBytes: number
  readonly attachmentCount: number
  readonly acceptableCount: number
  readonly allowed: boolean
  readonly authenticated: boolean
}

export interface Limits {
  readonly messageBytesMax: number
  readonly attachmentsPerMessageMax: number
}

/** What becomes of a message, and why (the reasons are stored and listed). */
export const decide = (arrival: Arrival, limits: Limits): { readonly status: "processed" | "review" | "rejected" | "duplicate" | "quarantined"; readonly reasons: ReadonlyArray<string> } => {
  if (!arrival.enabled) return { status: "rejected", reasons: ["inbox_disabled"] }
  if (arrival.duplicate) return { status: "duplicate", reasons: ["message_id_seen"] }
  if (arrival.sizeBytes > limits.messageBytesMax) return { status: "rejected", reasons: ["message_too_large"] }
  if (arrival.attachmentCount > limits.attachmentsPerMessageMax) return { status: "rejected", reasons: ["too_many_attachments"] }
  if (arrival.acceptableCount === 0) return { status: arrival.attachmentCount === 0 ? "rejected" : "quarantined", reasons: ["no_receipt_files"] }
  const reasons = [...(arrival.allowed ? [] : ["unknown_sender"]), ...(arrival.authenticated ? [] : ["not_authenticated"])]
  return { status: reasons.length === 0 ? "processed" : "review", reasons }
}
