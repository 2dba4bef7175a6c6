import { Layer } from "effect"
import { expect } from "vitest"
import { FakePaymentProcessor } from "@ledger/testkit"
import { Ports as ServerPorts } from "@ledger/server/adapters"
import { listen } from "../support/loopback.ts"
import { makeTestApp, newKey, signInAs, type TestApp, type TestAppOptions } from "../support/index.ts"

/** The web app's address the tests' deployments name (LEDGER_APP_URL), under a path. */
export const appUrl = "https://app.ledger.test/books"

/** The billing tests' app: the server's ports with the testkit's fake card processor on loopback HTTP. */
export interface BillingApp {
  readonly app: TestApp
  readonly processor: FakePaymentProcessor.FakePaymentProcessor
}

export const makeBillingApp = async (options: TestAppOptions = {}): Promise<BillingApp> => {
  const processor = FakePaymentProcessor.make()
  // The web app's address (LEDGER_APP_URL), with a path: the processor is handed absolute URLs under it.
  const ports = ServerPorts.wire({ dataDir: "memory", appUrl })
  const app = await makeTestApp({ ...options, providers: Layer.merge(ports.layer, processor.layer) })
  processor.endpoint(`${await listen(app)}/v1/online-payments/events`)
  return { app, processor }
}

/** POSTs one event as the processor would, over HTTP: `payload` as the body, `signature` as its header. */
export const deliver = (processor: FakePaymentProcessor.FakePaymentProcessor, event: { readonly payload: string; readonly signature: string }) =>
  processor.post({ payload: event.payload, signature: event.signature })

/** The processor sends every event it has not yet sent, signed over the raw body; each must be accepted. */
export const deliverAll = async (processor: FakePaymentProcessor.FakePaymentProcessor) => {
  for (const result of await processor.send()) expect(result.status, JSON.stringify(result.body)).toBe(200)
}

export const post = async (app: TestApp, token: string, path: string, body: unknown) => {
  const result = await app.call("POST", path, { token, key: newKey(), body })
  return { status: result.status, body: result.body as any }
}

/**
 * A billing write by the company's owner signed in: billing's writes take no API key and ask a
 * step-up (ADR 2001), so each signs in afresh at the app's clock (signing in counts as one).
 */
export const ownerPost = async (app: TestApp, company: { readonly companyId: string; readonly ownerId: number }, path: string, body: unknown) =>
  post(app, (await signInAs(app, company)).secret, path, body)

export const get = async (app: TestApp, token: string, path: string) => {
  const result = await app.call("GET", path, { token })
  return { status: result.status, body: result.body as any }
}

/** A billing app whose clock and fake processor both start at `startMs`. */
export const makeBillingAppAt = async (startMs: number): Promise<BillingApp> => {
  const world = await makeBillingApp({ clock: new Date(startMs).toISOString() })
  world.processor.advanceTo(Math.floor(startMs / 1000))
  return world
}

/** Moves the app's clock and the processor's together. */
export const moveTo = (world: BillingApp, ms: number) => {
  world.app.clock!.set(new Date(ms).toISOString())
  world.processor.advanceTo(Math.floor(ms / 1000))
}
