import { createHash } from "node:crypto"
import { Effect } from "effect"
import { describe, expect, it } from "vitest"
import type { ObjectPage } from "@ledger/engine/ports"
import { CommerceHttp } from "@ledger/server"
import { FakeCommerce } from "@ledger/testkit"
import { recording } from "../support/providers/shopify.ts"
import { requestProblems, responseProblems } from "../support/providers/stripe.ts"

/**
 * The processor source's contract (issue 39): the requests CommerceHttp's `provider_a` sends to
 * Stripe's API (balance transactions, balance) and the fake's answers, checked against Stripe's
 * published description (test/fixtures/providers/stripe, API 2023-08-16). The connection is the
 * merchant's own account through OAuth, so the token names the account (no `Stripe-Account`).
 */
describe("the processor source against Stripe's description", () => {
  it("every API request and answer of a sync match it", async () => {
    const fake = FakeCommerce.make()
    const recorded = recording(fake.fetch)
    const port = CommerceHttp.make({ providers: { provider_a: { baseUrl: "https://provider-a.fake", clientId: "client-a", clientSecret: "secret-a" } }, appUrl: "https://app.ledger.test", fetch: recorded.fetch })
    const verifier = "v".repeat(43)
    const challenge = createHash("sha256").update(verifier).digest("base64url")
    const consent = fake.consent(port.consentUrl({ provider: "provider_a", state: "s", codeChallenge: challenge, redirectUri: "/cb" }), { id: "acct_1Contract" })
    const grant = await Effect.runPromise(port.exchange({ provider: "provider_a", code: consent.code, codeVerifier: verifier, redirectUri: "/cb" }))
    for (let n = 0; n < 150; n++) fake.addCharge("acct_1Contract", { id: `txn_${1000 + n}`, amountCents: 1_000 + n, feeCents: 59, date: "2026-03-02" })
    fake.addPayout("acct_1Contract", { id: "txn_po_1", amountCents: 50_000, date: "2026-03-05" })
    // The other types a sync books (issue 39 item 4), in the processor's shape too.
    fake.addRefund("acct_1Contract", { id: "txn_re_1", amountCents: 1_000, feeReturnedCents: 29, date: "2026-03-06" })
    fake.addDispute("acct_1Contract", { id: "txn_du_1", amountCents: 1_001, feeCents: 1_500, date: "2026-03-06" })
    fake.addDisputeWon("acct_1Contract", { id: "txn_du_2", amountCents: 1_001, date: "2026-03-07" })
    fake.addPayoutFailure("acct_1Contract", { id: "txn_pf_1", amountCents: 50_000, date: "2026-03-07" })
    fake.addTransaction("acct_1Contract", { id: "txn_tr_1", type: "transfer", amountCents: -100, date: "2026-03-07" })
    let cursor: string | null = null
    for (let more = true; more;) {
      const page: ObjectPage = await Effect.runPromise(port.objects({ provider: "provider_a", accessToken: grant.accessToken, cursor }))
      cursor = page.nextCursor
      more = page.hasMore
    }
    await Effect.runPromise(port.objects({ provider: "provider_a", accessToken: grant.accessToken, cursor }))
    await Effect.runPromise(port.balance({ provider: "provider_a", accessToken: grant.accessToken }))
    const api = recorded.requests.filter((request) => new URL(request.url).pathname.startsWith("/v1/"))
      .map((request) => ({ ...request, path: `${new URL(request.url).pathname}${new URL(request.url).search}` }))
    expect(api.length).toBe(4)
    expect(api.flatMap((request) => request.answer?.data ?? []).map((item: any) => item.type)).toEqual(expect.arrayContaining(["adjustment", "payout_failure", "transfer", "refund"]))
    expect(api.flatMap((request) => requestProblems(request, { connectedBy: "token" }))).toEqual([])
    expect(api.flatMap(responseProblems)).toEqual([])
  })
})
