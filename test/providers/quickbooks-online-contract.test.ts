import { Effect } from "effect"
import { describe, expect, it } from "vitest"
import { onlineBooksEntities as entities } from "@ledger/engine/ports"
import { OnlineBooksHttp } from "@ledger/server"
import { FakeOnlineBooks } from "@ledger/testkit"
import { consentProblems, recording, requestProblems, responseProblems, statementProblems } from "../support/providers/quickbooks-online.ts"

/**
 * The online edition's contract (issue 39): every request the real adapter (OnlineBooksHttp) sends
 * in a whole extraction, and every answer the testkit's fake gives, checked against Intuit's
 * published description (test/fixtures/providers/quickbooks-online: the v3 XSDs, Intuit's OAuth
 * scopes and endpoints). The fake refuses as the service refuses, with its Fault shape.
 */
const app = "https://app.ledger.test/books"

const setUp = () => {
  const fake = FakeOnlineBooks.make()
  const recorded = recording(fake.fetch)
  const port = OnlineBooksHttp.make({
    baseUrl: "https://online-books.fake", clientId: "client", clientSecret: "secret", appUrl: app, monthlyReadBudget: 1_000, fetch: recorded.fetch
  })
  return { fake, port, requests: recorded.requests }
}
const run = <A, E>(effect: Effect.Effect<A, E>) => Effect.runPromise(effect)

describe("the online edition against Intuit's description (v3 XSDs, OAuth 2.0)", () => {
  it("every request of a whole extraction and every answer match it", async () => {
    const { fake, port, requests } = setUp()
    fake.generateYear({ months: 2, perMonth: 3 })
    const consentUrl = port.consentUrl({ state: "st-1", redirectUri: "/migrations/online/callback" })
    expect(consentProblems(consentUrl)).toEqual([])
    expect(new URL(consentUrl).searchParams.get("redirect_uri")).toBe(`${app}/migrations/online/callback`)
    const consent = fake.consent(consentUrl)
    const { accessToken } = await run(port.exchange({ code: consent.code, realmId: consent.realmId, redirectUri: "/migrations/online/callback" }))
    for (const entity of entities) {
      const count = await run(port.count({ accessToken, realmId: consent.realmId, entity }))
      const rows = await run(port.query({ accessToken, realmId: consent.realmId, entity, startPosition: 1, maxResults: 1_000 }))
      expect(rows.length).toBe(count)
    }
    expect(await run(port.query({ accessToken, realmId: consent.realmId, entity: "Invoice", startPosition: 5_000, maxResults: 1_000 }))).toEqual([])
    await run(port.revoke({ accessToken }))
    expect(fake.revoked).toEqual([accessToken])
    // A revoked token is refused with the service's Fault, read as an authorisation failure.
    const refused = await run(Effect.flip(port.count({ accessToken, realmId: consent.realmId, entity: "Invoice" })))
    expect(refused).toMatchObject({ code: "unauthorized" })
    expect(refused.message).toContain("AuthenticationFailed")

    expect(requests.length).toBe(2 * entities.length + 4)
    expect(requests.flatMap(requestProblems)).toEqual([])
    expect(requests.flatMap(responseProblems)).toEqual([])
    expect(requests.at(-1)!.answer.Fault.Error[0].code).toBe("3200")
  })

  it("the service's refusals reach the port as what they are: throttled with its wait, a query fault, a bad code", async () => {
    const { fake, port, requests } = setUp()
    const consent = fake.consent(port.consentUrl({ state: "s", redirectUri: "/cb" }))
    const { accessToken } = await run(port.exchange({ code: consent.code, realmId: consent.realmId, redirectUri: "/cb" }))
    fake.failNext("throttle")
    const throttled = await run(Effect.flip(port.count({ accessToken, realmId: consent.realmId, entity: "Invoice" })))
    expect(throttled.code).toBe("throttled")
    expect(throttled.message).toContain("retry after 60 s")
    fake.failNext("validation")
    // A refused query is not a refused grant (a 400 from the API is a ValidationFault).
    const parsed = await run(Effect.flip(port.count({ accessToken, realmId: consent.realmId, entity: "Invoice" })))
    expect(parsed).toMatchObject({ code: "error" })
    expect(parsed.message).toContain("code 4000")
    fake.failNext("unavailable")
    expect(await run(Effect.flip(port.count({ accessToken, realmId: consent.realmId, entity: "Invoice" })))).toMatchObject({ code: "unavailable" })
    // A malformed page is a failure, never an empty page taken as the end.
    fake.failNext("malformed")
    expect(await run(Effect.flip(port.query({ accessToken, realmId: consent.realmId, entity: "Invoice", startPosition: 1, maxResults: 1_000 })))).toMatchObject({ code: "error", message: "not JSON" })
    const replayed = await run(Effect.flip(port.exchange({ code: consent.code, realmId: consent.realmId, redirectUri: "/cb" })))
    expect(replayed.code).toBe("invalid_grant")
    expect(requests.flatMap(requestProblems)).toEqual([])
    expect(requests.filter((request) => typeof request.answer !== "string").flatMap(responseProblems)).toEqual([])
  })

  it("renews with the refresh token (HTTP Basic, grant_type=refresh_token), which rotates; an ended token is a 401 Fault; a revoked grant is invalid_grant", async () => {
    const { fake, port, requests } = setUp()
    const consent = fake.consent(port.consentUrl({ state: "r", redirectUri: "/cb" }))
    const first = await run(port.exchange({ code: consent.code, realmId: consent.realmId, redirectUri: "/cb" }))
    expect(first).toMatchObject({ expiresInSeconds: 3_600, refreshToken: expect.stringMatching(/^AB11/u) })
    fake.endAccessTokens()
    const ended = await run(Effect.flip(port.count({ accessToken: first.accessToken, realmId: consent.realmId, entity: "Invoice" })))
    expect(ended).toMatchObject({ code: "unauthorized" })
    expect(ended.message).toContain("AuthenticationFailed")
    const second = await run(port.refresh({ refreshToken: first.refreshToken! }))
    expect(second.refreshToken).not.toBe(first.refreshToken)
    expect(await run(port.count({ accessToken: second.accessToken, realmId: consent.realmId, entity: "Invoice" }))).toBe(0)
    // The rotated-out refresh token no longer works: only the latest one is to be kept.
    expect(await run(Effect.flip(port.refresh({ refreshToken: first.refreshToken! })))).toMatchObject({ code: "invalid_grant" })
    await run(port.revoke({ accessToken: second.refreshToken! }))
    expect(await run(Effect.flip(port.refresh({ refreshToken: second.refreshToken! })))).toMatchObject({ code: "invalid_grant" })
    const sent = requests.filter((request) => request.url.endsWith("/oauth2/v1/tokens/bearer")).map((request) => new URLSearchParams(request.body).get("grant_type"))
    expect(sent).toEqual(["authorization_code", "refresh_token", "refresh_token", "refresh_token"])
    expect(requests.flatMap(requestProblems)).toEqual([])
    expect(requests.filter((request) => typeof request.answer !== "string").flatMap(responseProblems)).toEqual([])
  })

  it("points at Intuit's own OAuth endpoints for Intuit's API, a base URL's path kept otherwise", () => {
    expect(OnlineBooksHttp.oauthEndpoints({ baseUrl: "https://quickbooks.api.intuit.com" })).toEqual({
      authorizeUrl: "https://appcenter.intuit.com/connect/oauth2",
      tokenUrl: "https://oauth.platform.intuit.com/oauth2/v1/tokens/bearer",
      revokeUrl: "https://developer.api.intuit.com/v2/oauth2/tokens/revoke"
    })
    expect(OnlineBooksHttp.oauthEndpoints({ baseUrl: "http://proxy.test/qbo/" }).tokenUrl).toBe("http://proxy.test/qbo/oauth2/v1/tokens/bearer")
  })

  it("a request the description does not have is reported", () => {
    const basic = `Basic ${btoa("client:secret")}`
    expect(consentProblems("https://appcenter.intuit.com/connect/oauth2?client_id=c&response_type=code&scope=com.intuit.quickbooks.accounting.read&redirect_uri=%2Fcb&state=s")).toEqual([
      "consent URL: scope \"com.intuit.quickbooks.accounting.read\" is not one Intuit has",
      "consent URL: redirect_uri \"/cb\" is not absolute"
    ])
    expect(requestProblems({ method: "POST", url: "https://oauth.platform.intuit.com/oauth2/v1/tokens/bearer", headers: { authorization: basic, "content-type": "application/x-www-form-urlencoded", accept: "application/json" }, body: "grant_type=authorization_code&code=c&redirect_uri=%2Fcb&client_id=x" })).toEqual([
      "POST /oauth2/v1/tokens/bearer: client_id is not a parameter of this grant",
      "POST /oauth2/v1/tokens/bearer: redirect_uri \"/cb\" is not absolute"
    ])
    expect(requestProblems({ method: "POST", url: "https://online-books.fake/oauth2/v1/tokens/revoke", headers: {}, body: "{}" })).toEqual(["POST /oauth2/v1/tokens/revoke: no such operation"])
    expect(requestProblems({ method: "GET", url: "https://quickbooks.api.intuit.com/v3/company/1/query?query=SELECT%20*%20FROM%20Invoice%20MAXRESULTS%205000&limit=5", headers: { authorization: "Bearer t" }, body: "" })).toEqual([
      "GET /v3/company/1/query: no Accept: application/json (the API answers XML otherwise)",
      "GET /v3/company/1/query: limit is not a parameter",
      "GET /v3/company/1/query: query \"SELECT * FROM Invoice MAXRESULTS 5000\": MAXRESULTS is 1 to 1000"
    ])
    expect(requestProblems({ method: "GET", url: "/v3/company/1/query", headers: {}, body: "" })).toEqual(["GET /v3/company/1/query: not an absolute URL"])
    expect(statementProblems("SELECT * FROM Invoices")).toEqual(["query \"SELECT * FROM Invoices\": Invoices is not an entity the description has"])
    // Inactive records are asked for only where the entity has Active (the name lists, ADR 2112).
    expect(statementProblems("SELECT * FROM Customer WHERE Active IN (true, false) STARTPOSITION 1 MAXRESULTS 1000")).toEqual([])
    expect(statementProblems("SELECT COUNT(*) FROM Invoice WHERE Active IN (true, false)")).toEqual(["query \"SELECT COUNT(*) FROM Invoice WHERE Active IN (true, false)\": Invoice has no Active field"])
    expect(responseProblems({ method: "GET", url: "https://q.test/v3/company/1/query", headers: {}, body: "", status: 200, answer: { QueryResponse: { Invoice: [{ Id: "1", TxnDate: "2026-13", TotalAmt: "10.00", Colour: "red" }] } } })).toEqual([
      "GET /v3/company/1/query answer 200.QueryResponse.Invoice[0].TxnDate: a date (YYYY-MM-DD) expected, not \"2026-13\"",
      "GET /v3/company/1/query answer 200.QueryResponse.Invoice[0].TotalAmt: a number expected, not \"10.00\"",
      "GET /v3/company/1/query answer 200.QueryResponse.Invoice[0].Colour: not in the description of Invoice"
    ])
    expect(responseProblems({ method: "GET", url: "https://q.test/v3/company/1/query", headers: {}, body: "", status: 401, answer: { fault: "AuthenticationFailed" } })).toEqual([
      "GET /v3/company/1/query answer 401.fault: not in the description of IntuitResponse",
      "GET /v3/company/1/query answer 401: a refusal carries a Fault"
    ])
  })
})
