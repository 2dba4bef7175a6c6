import { connect } from "node:net"
import type { AddressInfo } from "node:net"
import { afterEach, describe, expect, it } from "vitest"
import * as SlowClients from "../src/http/SlowClients.ts"

/**
 * Issue 19 item 10: a client trickling its headers or body holds a socket and a parser forever.
 * `ledger serve` builds its Node server with SlowClients.createServer, which answers 408 and closes
 * the socket once the bounds pass. Short bounds here; the defaults are in SlowClients.defaults.
 */

const servers: Array<ReturnType<typeof SlowClients.createServer>> = []
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => new Promise((done) => server.close(done))))
})

const listening = async (limits: SlowClients.Limits) => {
  const server = SlowClients.createServer(limits)
  servers.push(server)
  server.on("request", (request, response) => {
    request.resume()
    request.on("end", () => response.end("ok"))
  })
  await new Promise<void>((done) => server.listen(0, "127.0.0.1", done))
  return (server.address() as AddressInfo).port
}

/** Sends `chunks` one every `gapMs` and answers what the server wrote before closing. */
const trickle = (port: number, chunks: ReadonlyArray<string>, gapMs: number) =>
  new Promise<string>((done) => {
    const socket = connect(port, "127.0.0.1")
    let answer = ""
    let index = 0
    socket.on("data", (data) => (answer += data.toString()))
    socket.on("error", () => undefined)
    socket.on("close", () => {
      clearInterval(timer)
      done(answer)
    })
    const timer = setInterval(() => {
      if (index < chunks.length && !socket.destroyed) socket.write(chunks[index++]!)
    }, gapMs)
  })

const limits: SlowClients.Limits = { headersTimeoutMs: 600, requestTimeoutMs: 1_200, keepAliveTimeoutMs: 500, checkIntervalMs: 100 }

describe("slow clients", () => {
  it("cuts off headers that trickle in", async () => {
    const port = await listening(limits)
    const headerBytes = "GET /health HTTP/1.1\r\nHost: x\r\nX-Slow: " + "a".repeat(200)
    const answer = await trickle(port, headerBytes.split(""), 20)
    expect(answer).toMatch(/^HTTP\/1\.1 408/)
  })

  it("cuts off a body that trickles in", async () => {
    const port = await listening(limits)
    const head = "POST /v1/accounts HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 400\r\n\r\n"
    const answer = await trickle(port, [head, ...Array.from({ length: 400 }, () => "a")], 20)
    expect(answer).toMatch(/^HTTP\/1\.1 408/)
  })

  it("answers a request sent at once", async () => {
    const port = await listening(limits)
    const answer = await trickle(port, ["GET /health HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n"], 10)
    expect(answer).toMatch(/^HTTP\/1\.1 200/)
  })

  it("reads its bounds from the environment and refuses nonsense", () => {
    expect(SlowClients.fromEnvironment({})).toMatchObject({ headersTimeoutMs: 10_000, requestTimeoutMs: 120_000, keepAliveTimeoutMs: 5_000 })
    expect(SlowClients.fromEnvironment({ LEDGER_HEADERS_TIMEOUT_MS: "2000", LEDGER_REQUEST_TIMEOUT_MS: "30000" }))
      .toMatchObject({ headersTimeoutMs: 2_000, requestTimeoutMs: 30_000, checkIntervalMs: 500 })
    expect(() => SlowClients.fromEnvironment({ LEDGER_HEADERS_TIMEOUT_MS: "soon" })).toThrow(/LEDGER_HEADERS_TIMEOUT_MS/)
    expect(() => SlowClients.fromEnvironment({ LEDGER_HEADERS_TIMEOUT_MS: "20000", LEDGER_REQUEST_TIMEOUT_MS: "10000" })).toThrow(/at least/)
    expect(SlowClients.fromEnvironment({}).bodyReadsPerAddress).toBe(32)
    expect(SlowClients.fromEnvironment({ LEDGER_BODY_READS_PER_ADDRESS: "4" }).bodyReadsPerAddress).toBe(4)
    expect(() => SlowClients.fromEnvironment({ LEDGER_BODY_READS_PER_ADDRESS: "0" })).toThrow(/LEDGER_BODY_READS_PER_ADDRESS/)
  })
})
