import { createServer, type IncomingHttpHeaders, type Server } from "node:http"
import type { AddressInfo } from "node:net"
import { Clock, Effect, Layer } from "effect"
import { expect } from "vitest"
import { Webhooks } from "@ledger/client"
import { Ports } from "@ledger/engine"
import { TokenSealer } from "@ledger/engine/ports"
import { Providers } from "@ledger/testkit"
import * as Worker from "@ledger/server/workers"
import { HttpWebhookTransport } from "@ledger/server/adapters"
import { makeTestApp, newKey, type TestApp, type TestCompany } from "../support/index.ts"

/** The webhooks tests' fixtures: a real HTTP receiver on loopback, an app that may deliver to it, the workers. */

export interface Received {
  readonly headers: IncomingHttpHeaders
  readonly raw: string
  readonly body: any
  readonly answered: number
}

export interface Receiver {
  readonly url: string
  readonly received: Array<Received>
  /** Statuses for the next requests, in order; 200 after them. */
  readonly answerNext: (...statuses: ReadonlyArray<number>) => void
  /** Drops the statuses scripted and not used. */
  readonly clearAnswers: () => void
  readonly close: () => Promise<void>
}

/** A receiver on 127.0.0.1 at an ephemeral port: records every request and answers as scripted. */
export const startReceiver = async (): Promise<Receiver> => {
  const received: Array<Received> = []
  const statuses: Array<number> = []
  const server: Server = createServer((request, response) => {
    const chunks: Array<Buffer> = []
    request.on("data", (chunk: Buffer) => chunks.push(chunk))
    request.on("end", () => {
      const raw = Buffer.concat(chunks).toString("utf8")
      const answered = statuses.shift() ?? 200
      received.push({ headers: request.headers, raw, body: JSON.parse(raw), answered })
      response.writeHead(answered, { "content-type": "text/plain" }).end(answered < 300 ? "thanks" : "not now")
    })
  })
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", () => resolve()))
  const port = (server.address() as AddressInfo).port
  return {
    url: `http://127.0.0.1:${port}/hooks`,
    received,
    answerNext: (...next) => {
      statuses.push(...next)
    },
    clearAnswers: () => {
      statuses.splice(0)
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve()))
  }
}

/**
 * An app whose webhook transport is the real one, with the SSRF rule relaxed explicitly
 * (LEDGER_WEBHOOK_ALLOW_PRIVATE=true) so it may deliver to the loopback receiver, a manual clock,
 * and a master key for the sealed secrets.
 */
export const appForDelivery = (start = "2026-03-02T09:00:00Z") =>
  makeTestApp({
    clock: start,
    providers: Layer.mergeAll(
      Ports.layerUnconfigured,
      TokenSealer.layerFromKey(Providers.masterKeyOf(23)),
      HttpWebhookTransport.layer({ allowPrivate: true })
    )
  })

/** Runs the workers until no job is due, at the app's clock. */
export const drain = (app: TestApp, id = "webhooks-test-worker") =>
  app.runtime.runPromise(Worker.drain({ id, ...Worker.defaults }).pipe(Effect.provideService(Clock.Clock, app.clock!)))

export const createEndpoint = async (app: TestApp, company: TestCompany, body: Record<string, unknown>) => {
  const result = await app.call("POST", "/v1/webhooks", { token: company.ownerKey, key: newKey(), body })
  expect(result.status, JSON.stringify(result.body)).toBe(201)
  return result.body as { webhook: any; secret: string }
}

/** The SDK's verdict on a received delivery, at the receiver's clock `nowMs`. */
export const verify = (delivery: Received, secrets: string | ReadonlyArray<string>, nowMs: number) =>
  Webhooks.verifySignature({
    header: delivery.headers["ledger-signature"] as string | undefined,
    payload: delivery.raw,
    secrets,
    nowSeconds: Math.floor(nowMs / 1000)
  })

/** A balanced two-line posting of `cents`. */
export const postEntry = (app: TestApp, company: TestCompany, cents: number, date = "2026-03-02") =>
  app.call("POST", "/v1/journal-entries/propose", {
    token: company.ownerKey,
    key: newKey(),
    body: { entry_date: date, lines: [{ account: "6070", debit_cents: cents }, { account: "1010", credit_cents: cents }] }
  })
