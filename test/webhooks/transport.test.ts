import { createServer, type Server } from "node:http"
import type { AddressInfo } from "node:net"
import { Effect, Exit } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { Ports } from "@ledger/engine"
import { HttpWebhookTransport } from "@ledger/server/adapters"

/**
 * The real webhook transport (packages/server/src/adapters/HttpWebhookTransport.ts): server-side
 * request forgery refused before and at connection time (DNS rebinding included), no redirects
 * followed, a bounded answer, a deadline.
 */

let server: Server
let port = 0
let requests = 0

beforeAll(async () => {
  server = createServer((request, response) => {
    requests++
    request.resume()
    request.on("end", () => {
      if (request.url === "/redirect") return response.writeHead(302, { location: `http://127.0.0.1:${port}/ok` }).end()
      if (request.url === "/huge") return response.writeHead(200).end("x".repeat(2_000_000))
      if (request.url === "/slow") return setTimeout(() => response.writeHead(200).end("late"), 2_000)
      response.writeHead(200).end("ok")
    })
  })
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", () => resolve()))
  port = (server.address() as AddressInfo).port
})
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())))

const post = (transport: Ports.WebhookTransport["Service"], url: string, timeoutMs = 5_000) =>
  Effect.runPromiseExit(transport.send({ url, headers: { "content-type": "application/json" }, body: "{}", timeoutMs }))

const failureOf = (exit: Exit.Exit<unknown, Ports.WebhookSendFailure>) => {
  if (Exit.isSuccess(exit)) throw new Error(`expected a failure, got ${JSON.stringify(exit.value)}`)
  const failure = exit.cause.reasons.find((reason) => reason._tag === "Fail")
  return (failure as { error: Ports.WebhookSendFailure }).error
}

describe("server-side request forgery", () => {
  const strict = HttpWebhookTransport.make({
    allowPrivate: false,
    resolve: async (hostname) => {
      const table: Record<string, string> = {
        "loopback.example.com": "127.0.0.1",
        "private.example.com": "10.20.30.40",
        "metadata.example.com": "169.254.169.254",
        "v6.example.com": "::1",
        "mapped.example.com": "::ffff:192.168.1.1"
      }
      const address = table[hostname]
      if (address === undefined) throw new Error(`ENOTFOUND ${hostname}`)
      return [{ address, family: address.includes(":") ? 6 : 4 }]
    }
  })

  it("refuses loopback, private, link-local (metadata) and IPv6 loopback literals without sending", async () => {
    const before = requests
    for (const url of [
      `https://127.0.0.1:${port}/ok`,
      "https://10.0.0.1/ok",
      "https://169.254.169.254/latest/meta-data/",
      "https://[::1]/ok",
      "https://[::ffff:7f00:1]/ok",
      "https://0x7f000001/ok",
      `http://127.0.0.1:${port}/ok`
    ]) {
      expect(failureOf(await post(strict, url)).code, url).toBe("refused")
      expect(Exit.isFailure(await Effect.runPromiseExit(strict.vet(url))), url).toBe(true)
    }
    expect(requests).toBe(before)
  })

  it("refuses host names that resolve to such addresses, when vetted and when connecting", async () => {
    for (const host of ["loopback", "private", "metadata", "v6", "mapped"]) {
      const url = `https://${host}.example.com/ok`
      const vetted = await Effect.runPromiseExit(strict.vet(url))
      expect(Exit.isFailure(vetted), url).toBe(true)
      const sent = failureOf(await post(strict, url))
      expect(sent.code, url).toBe("refused")
      expect(sent.message).toContain("not a public address")
    }
  })

  it("connects to the address it checked: a DNS answer that changes after the check is checked again", async () => {
    let answers = 0
    const rebinding = HttpWebhookTransport.make({
      allowPrivate: false,
      // Public when the endpoint is saved, loopback when the delivery connects.
      resolve: async () => [answers++ === 0 ? { address: "93.184.215.14", family: 4 } : { address: "127.0.0.1", family: 4 }]
    })
    expect(Exit.isSuccess(await Effect.runPromiseExit(rebinding.vet("https://rebind.example.com/ok")))).toBe(true)
    const before = requests
    expect(failureOf(await post(rebinding, `https://rebind.example.com:${port}/ok`)).code).toBe("refused")
    expect(requests).toBe(before)
  })
})

describe("what the transport allows when private addresses are allowed (tests, private networks)", () => {
  const relaxed = HttpWebhookTransport.make({ allowPrivate: true })

  it("posts to a loopback receiver and reads its answer", async () => {
    const exit = await post(relaxed, `http://127.0.0.1:${port}/ok`)
    expect(exit).toMatchObject({ _tag: "Success", value: { status: 200, body: "ok" } })
  })

  it("follows no redirect: a 3xx is the answer", async () => {
    const before = requests
    const exit = await post(relaxed, `http://127.0.0.1:${port}/redirect`)
    expect(exit).toMatchObject({ _tag: "Success", value: { status: 302 } })
    expect(requests).toBe(before + 1)
  })

  it("reads at most the first kilobyte of a large answer", async () => {
    const exit = await post(relaxed, `http://127.0.0.1:${port}/huge`)
    expect(exit).toMatchObject({ _tag: "Success", value: { status: 200 } })
    if (Exit.isSuccess(exit)) expect(exit.value.body.length).toBe(Ports.responseExcerptBytes)
  })

  it("gives up on a receiver that does not answer in time", async () => {
    const failure = failureOf(await post(relaxed, `http://127.0.0.1:${port}/slow`, 200))
    expect(failure.code).toBe("timeout")
  })

  it("reports a receiver that is not there", async () => {
    const closed = createServer()
    await new Promise<void>((resolve) => closed.listen(0, "127.0.0.1", () => resolve()))
    const closedPort = (closed.address() as AddressInfo).port
    await new Promise<void>((resolve) => closed.close(() => resolve()))
    expect(failureOf(await post(relaxed, `http://127.0.0.1:${closedPort}/ok`)).code).toBe("network")
  })
})
