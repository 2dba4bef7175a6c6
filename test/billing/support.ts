import { Layer } from "effect"
import { expect } from "vitest"
import { FakePaymentProcessor } from "@ledger/testkit"
import * as ServerPorts from "../../packages/server/src/adapters/Ports.ts"
import { makeTestApp, newKey, type TestApp, type TestAppOptions } from "../support/index.ts"

/** The billing tests' app: the server's ports with the testkit's fake card processor on loopback HTTP. */
export interface BillingApp {
  readonly app: TestApp
  readonly processor: FakePaymentProcessor.FakePaymentProcessor
}

export const makeBillingApp = async (options: TestAppOptions = {}): Promise<BillingApp> => {
  const processor = FakePaymentProcessor.make()
  const ports = ServerPorts.wire({ dataDir: "memory" })
  return { app: await makeTestApp({ ...options, providers: Layer.merge(ports.layer, processor.layer) }), processor }
}

export const deliver = (app: TestApp, event: { readonly payload: string; readonly signature: string }) =>
  app.call("POST", "/v1/online-payments/events", { body: { payload: event.payload, signature: event.signature } })

/** Delivers every event the processor has not yet sent; each must be accepted. */
export const deliverAll = async (app: TestApp, processor: FakePaymentProcessor.FakePaymentProcessor) => {
  for (const event of processor.take()) {
    const result = await deliver(app, event)
    expect(result.status, JSON.stringify(result.body)).toBe(200)
  }
}

export const post = async (app: TestApp, token: string, path: string, body: unknown) => {
  const result = await app.call("POST", path, { token, key: newKey(), body })
  return { status: result.status, body: result.body as any }
}

export const get = async (app: TestApp, token: string, path: string) => {
  const result = await app.call("GET", path, { token })
  return { status: result.status, body: result.body as any }
}
