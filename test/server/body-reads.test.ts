import { connect, type Socket } from "node:net"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { freshStore, type RunningServer, startServer, type Store } from "../support/server-process.ts"

/**
 * Issue 41 item 3, the rest (ADR 2330): a bound on the bodies one address may have read at once
 * before their credential is known. Bodies within the common limit are read before their token is
 * looked up (ADR 2301), so one address could hold any number of sockets open, each trickling a
 * body within its deadline. Now, past `LEDGER_BODY_READS_PER_ADDRESS` such reads at once, the next
 * is answered 429 `rate_limited` with Retry-After before a byte of its body is read, and the
 * connection is closed; another address is served, and the first is served again once its reads end.
 */

const operatorToken = `operator-body-reads-${Math.random().toString(36).slice(2)}`
let store: Store
let server: RunningServer
let ownerKey: string
beforeAll(async () => {
  store = await freshStore()
  server = await startServer(store, {
    LEDGER_WORKERS: "off",
    LEDGER_ACCESS_LOG: "off",
    LEDGER_TRUST_PROXY: "1",
    LEDGER_OPERATOR_TOKEN: operatorToken,
    LEDGER_BODY_READS_PER_ADDRESS: "2"
  })
  const created = await fetch(`${server.url}/v1/companies`, {
    method: "POST",
    headers: { authorization: `Bearer ${operatorToken}`, "idempotency-key": "body-reads-company", "content-type": "application/json" },
    body: JSON.stringify({ name: "Body Reads Co", owner_name: "Owner" })
  })
  ownerKey = ((await created.json()) as { secret: string }).secret
}, 300_000)
afterAll(async () => {
  await server?.stop()
  await store?.remove()
})

const accountBody = (code: string) => JSON.stringify({ code, name: `Account ${code}`, type: "asset", subtype: "bank" })

/** A POST whose head and first half of body are sent now; `finish` sends the rest; `answer` is all the server wrote. */
const heldRequest = (address: string, body: string) => {
  const { port } = new URL(server.url)
  const socket: Socket = connect(Number(port), "127.0.0.1")
  let text = ""
  socket.on("data", (data) => (text += data.toString()))
  socket.on("error", () => undefined)
  const answer = new Promise<string>((done) => socket.on("close", () => done(text)))
  const half = Math.floor(body.length / 2)
  socket.write(
    `POST /v1/accounts HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nAuthorization: Bearer ${ownerKey}\r\n` +
      `Idempotency-Key: held-${Math.random().toString(36).slice(2)}\r\nX-Forwarded-For: ${address}\r\nConnection: close\r\n` +
      `Content-Length: ${Buffer.byteLength(body)}\r\n\r\n${body.slice(0, half)}`
  )
  return { finish: () => socket.write(body.slice(half)), answer }
}

const post = (address: string, code: string) =>
  fetch(`${server.url}/v1/accounts`, {
    method: "POST",
    headers: {
      authorization: `Bearer ${ownerKey}`,
      "idempotency-key": `body-reads-${code}`,
      "content-type": "application/json",
      "x-forwarded-for": address
    },
    body: accountBody(code)
  })

describe("bodies read before their credential is known", () => {
  it("answer 429 with Retry-After past the bound for one address; another address is served; the first again once its reads end", async () => {
    const held = [heldRequest("192.0.2.70", accountBody("1110")), heldRequest("192.0.2.70", accountBody("1111"))]
    // The held requests' bodies are being read once the server has read their heads, which no
    // answer orders against another socket's: ask again until the bound answers (a request let
    // through before that is served in full, under a code of its own).
    let refused = await post("192.0.2.70", "1112")
    for (let attempt = 0; refused.status === 201 && attempt < 50; attempt++) {
      await new Promise((resolve) => setTimeout(resolve, 100))
      refused = await post("192.0.2.70", `12${String(attempt).padStart(2, "0")}`)
    }
    expect(refused.status).toBe(429)
    expect(Number(refused.headers.get("retry-after"))).toBeGreaterThan(0)
    expect(refused.headers.get("connection")).toBe("close")
    const body = (await refused.json()) as { error: { type: string; details: { reads_per_address: number } } }
    expect(body.error.type).toBe("rate_limited")
    expect(body.error.details.reads_per_address).toBe(2)
    // Another address is served while the first's two reads are held.
    expect((await post("192.0.2.71", "1113")).status).toBe(201)
    for (const request of held) request.finish()
    const answers = await Promise.all(held.map((request) => request.answer))
    for (const answer of answers) expect(answer).toMatch(/^HTTP\/1\.1 201/)
    // Its reads over, the first address is served again (its refused request was never read, so it is not stored).
    expect((await post("192.0.2.70", "1114")).status).toBe(201)
  }, 60_000)
})
