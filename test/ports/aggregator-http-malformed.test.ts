import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { AggregatorHttp, Ports as ServerPorts } from "@ledger/server/adapters"
import { makeTestApp, newKey } from "../support/index.ts"

/**
 * What the API answers when the aggregator's link-token answer is not what its API promises: the
 * real HTTP adapter turns it into the aggregator's failure, which the API answers as its documented
 * `bad_gateway` error, never a RangeError surfacing as a 500. The aggregator is a scripted fetch
 * answering the next response the test sets.
 */

let next: () => Response = () => new Response("{}", { status: 200 })
const aggregator = AggregatorHttp.layer({
  baseUrl: "http://aggregator.invalid",
  clientId: "client-test",
  secret: "secret-test",
  fetch: async () => next()
})

let app: Awaited<ReturnType<typeof makeTestApp>>
let ownerKey: string
beforeAll(async () => {
  app = await makeTestApp({ providers: ServerPorts.wire({ dataDir: "memory", aggregator }).layer })
  ownerKey = (await app.createCompany({ name: "Malformed Feeds Co", plan: "owned" })).ownerKey
}, 120_000)
afterAll(async () => {
  await app?.close()
})

const json = (body: unknown, status = 200) =>
  new Response(JSON.stringify(body), { status, headers: { "content-type": "application/json" } })

const linkToken = () => app.call("POST", "/v1/bank-feeds/link-token", { token: ownerKey, body: {}, key: newKey() })

const expectBadGateway = async (code: string) => {
  const answer = await linkToken()
  expect(answer.status, JSON.stringify(answer.body)).toBe(502)
  expect(answer.body.error.type).toBe("bad_gateway")
  expect(answer.body.error.details.code).toBe(code)
}

describe("a malformed link-token answer from the aggregator", () => {
  it("a well-formed answer gives a link token (so the cases below fail for their answer alone)", async () => {
    next = () => json({ link_token: "link-ok", expiration: "2026-11-27T00:00:00Z", request_id: "r" })
    const answer = await linkToken()
    expect(answer.status, JSON.stringify(answer.body)).toBe(201)
    expect(answer.body.link_token).toBe("link-ok")
  })

  it("an unreadable expiration is the aggregator's error, not a 500", async () => {
    next = () => json({ link_token: "link-bad-expiry", expiration: "next tuesday", request_id: "r" })
    await expectBadGateway("error")
    next = () => json({ link_token: "link-no-expiry", request_id: "r" })
    await expectBadGateway("error")
  })

  it("a missing link token is the aggregator's error", async () => {
    next = () => json({ expiration: "2026-11-27T00:00:00Z", request_id: "r" })
    await expectBadGateway("error")
    next = () => json({ link_token: 42, expiration: "2026-11-27T00:00:00Z" })
    await expectBadGateway("error")
  })

  it("a body that is not JSON is the aggregator's error", async () => {
    next = () => new Response("<html>gateway</html>", { status: 200, headers: { "content-type": "text/html" } })
    await expectBadGateway("error")
  })

  it("a 500 from the aggregator is it being unavailable", async () => {
    next = () => json({ error_type: "API_ERROR", error_code: "INTERNAL_SERVER_ERROR", error_message: "boom" }, 500)
    await expectBadGateway("unavailable")
    next = () => new Response("Internal Server Error", { status: 500 })
    await expectBadGateway("unavailable")
  })
})
