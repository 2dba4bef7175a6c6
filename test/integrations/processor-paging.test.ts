import { Effect } from "effect"
import { describe, expect, it } from "vitest"
import { CommerceHttp } from "@ledger/server"
import { FakeCommerce } from "@ledger/testkit"
import { requestProblems } from "../support/providers/stripe.ts"

/**
 * The processor source's paging (issue 39, item 7). The processor lists balance transactions
 * newest first (Stripe API 2023-08-16: `starting_after` pages to older ones, `ending_before` to
 * newer ones). The adapter used to page with `starting_after=<last seen>`, which on a newest-first
 * list asks for older items: after the first sync no new charge was ever fetched.
 */
/** Every list request the adapter sent, as the processor received it. */
const listed: Array<{ method: string; path: string; headers: Record<string, string>; body: string }> = []

const adapterOver = (commerce: FakeCommerce.FakeCommerce, baseUrl = "https://provider-a.fake") =>
  CommerceHttp.make({
    providers: { provider_a: { baseUrl, clientId: "client-a", clientSecret: "secret-a" } },
    appUrl: "https://ledger.fake",
    fetch: (request) => {
      const url = new URL(request.url)
      if (url.pathname.startsWith("/v1/")) listed.push({ method: request.method, path: `${url.pathname}${url.search}`, headers: Object.fromEntries(request.headers), body: "" })
      return commerce.fetch(request)
    }
  })

const connect = async (commerce: FakeCommerce.FakeCommerce, account: string) => {
  const port = adapterOver(commerce)
  const verifier = "v".repeat(43)
  const challenge = Buffer.from(await crypto.subtle.digest("SHA-256", new TextEncoder().encode(verifier))).toString("base64url")
  const consent = commerce.consent(port.consentUrl({ provider: "provider_a", state: "s", codeChallenge: challenge, redirectUri: "/cb" }), { id: account })
  const grant = await Effect.runPromise(port.exchange({ provider: "provider_a", code: consent.code, codeVerifier: verifier, redirectUri: "/cb" }))
  return { port, token: grant.accessToken }
}

/** Runs pages as the sync does (until `hasMore` is false), from `cursor`: the ids in the order given, and the cursor after. */
const sync = async (port: ReturnType<typeof adapterOver>, token: string, cursor: string | null) => {
  const ids: Array<string> = []
  let at = cursor
  for (let page = 0; page < 20; page++) {
    const result = await Effect.runPromise(port.objects({ provider: "provider_a", accessToken: token, cursor: at }))
    ids.push(...result.objects.map((object) => object.id))
    at = result.nextCursor
    if (!result.hasMore) break
  }
  return { ids, cursor: at }
}

const charges = (commerce: FakeCommerce.FakeCommerce, account: string, from: number, count: number) => {
  for (let index = from; index < from + count; index++) {
    commerce.addCharge(account, { id: `txn_${String(index).padStart(4, "0")}`, amountCents: 1_000 + index, date: "2026-04-01" })
  }
  return Array.from({ length: count }, (_, offset) => `txn_${String(from + offset).padStart(4, "0")}`)
}

describe("processor source paging", () => {
  it("fetches everything once over several pages, then only what is newer, each page oldest first", async () => {
    const commerce = FakeCommerce.make()
    const { port, token } = await connect(commerce, "acct_pages")
    const first = charges(commerce, "acct_pages", 0, 150)
    const initial = await sync(port, token, null)
    expect([...initial.ids].sort()).toEqual(first)
    expect(new Set(initial.ids).size).toBe(150)

    const later = charges(commerce, "acct_pages", 150, 2)
    const next = await sync(port, token, initial.cursor)
    expect(next.ids).toEqual(later)
    const idle = await sync(port, token, next.cursor)
    expect(idle).toEqual({ ids: [], cursor: next.cursor })

    // More than a page of new ones: every one, oldest first, none twice.
    const many = charges(commerce, "acct_pages", 152, 230)
    const caughtUp = await sync(port, token, idle.cursor)
    expect(caughtUp.ids).toEqual(many)
    // Each list request is one Stripe's description has (`ending_before`, `starting_after`, `limit`).
    expect(listed.some((request) => request.path.includes("ending_before="))).toBe(true)
    expect(listed.flatMap((request) => requestProblems(request, { connectedBy: "token" }))).toEqual([])
  })

  it("reads a cursor of the earlier form (the last id seen) as the newest seen", async () => {
    const commerce = FakeCommerce.make()
    const { port, token } = await connect(commerce, "acct_old")
    charges(commerce, "acct_old", 0, 3)
    const later = charges(commerce, "acct_old", 3, 1)
    expect((await sync(port, token, "txn_0002")).ids).toEqual(later)
  })

  it("keeps the base URL's path in the consent URL and every request, and the app's path in the redirect", () => {
    const port = CommerceHttp.make({
      providers: { provider_a: { baseUrl: "http://host.test/pa/", clientId: "c", clientSecret: "s" } },
      appUrl: "https://app.test/books",
      fetch: () => Promise.reject(new Error("not called"))
    })
    const consent = new URL(port.consentUrl({ provider: "provider_a", state: "st", codeChallenge: "ch", redirectUri: "/v1/integrations/callback" }))
    expect(`${consent.origin}${consent.pathname}`).toBe("http://host.test/pa/oauth/authorize")
    expect(consent.searchParams.get("redirect_uri")).toBe("https://app.test/books/v1/integrations/callback")
    expect(CommerceHttp.endpoint("http://host.test/pa", "/v1/balance_transactions").toString()).toBe("http://host.test/pa/v1/balance_transactions")
  })
})
