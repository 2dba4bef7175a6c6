import { Layer } from "effect"
import type { Server } from "@ledger/server"
import { FakeCommerce, FakeOnlineBooks } from "@ledger/testkit"
import { Ports as ServerPorts } from "@ledger/server/adapters"
import { makeTestApp, newKey, type TestApp } from "../support/index.ts"

/**
 * The migrations tests' app: test/support's app with the server's ports (a token
 * sealer over an in-memory master key) and the testkit's fakes of the commerce providers and the
 * online edition, each run through the server's real HTTP adapter.
 */
export const makeProviderApp = async (options: {
  readonly readBudget?: number
  readonly publicBaseUrl?: string
  readonly clock?: string | Server.ManualClock
  /** How much of the clock each call to the online edition's API takes (with a `ManualClock`). */
  readonly onlineCallTakesMs?: number
  /** Take the client's address from `X-Forwarded-For`, to call the Web Connector endpoint from several addresses. */
  readonly trustProxy?: boolean
} = {}) => {
  const commerce = FakeCommerce.make()
  const online = FakeOnlineBooks.make({
    ...(options.readBudget === undefined ? {} : { monthlyReadBudget: options.readBudget }),
    // The fake's tokens end by the app's clock when the test moves it by hand.
    ...(typeof options.clock === "object" ? { clock: options.clock, callTakesMs: options.onlineCallTakesMs ?? 0 } : {})
  })
  const ports = ServerPorts.wire({ dataDir: "memory" })
  const app = await makeTestApp({
    providers: Layer.mergeAll(ports.layer, commerce.layer, online.layer) as never,
    publicBaseUrl: options.publicBaseUrl ?? "https://ledger.example.com",
    ...(options.clock === undefined ? {} : { clock: options.clock }),
    ...(options.trustProxy === undefined ? {} : { trustProxy: options.trustProxy })
  })
  return { app, commerce, online }
}

export const writer = (app: TestApp, token: string) => ({
  post: (path: string, body: unknown = {}) => app.call("POST", path, { token, body, key: newKey() }),
  get: (path: string) => app.call("GET", path, { token })
})
