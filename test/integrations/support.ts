import { Clock, Effect, Layer } from "effect"
import { expect } from "vitest"
import * as Worker from "@ledger/server/workers"
import { Ports as ServerPorts } from "@ledger/server/adapters"
import { FakeCommerce, FakeOnlineBooks } from "@ledger/testkit"
import { makeTestApp, newKey, type TestApp } from "../support/index.ts"

/**
 * The integrations and migrations tests' app: test/support's app with the server's ports (a token
 * sealer over an in-memory master key) and the testkit's fakes of the commerce providers and the
 * online edition, each run through the server's real HTTP adapter.
 */
export const makeProviderApp = async (options: { readonly readBudget?: number; readonly publicBaseUrl?: string; readonly clock?: string } = {}) => {
  const commerce = FakeCommerce.make()
  const online = FakeOnlineBooks.make(options.readBudget === undefined ? {} : { monthlyReadBudget: options.readBudget })
  const ports = ServerPorts.wire({ dataDir: "memory" })
  const app = await makeTestApp({
    providers: Layer.mergeAll(ports.layer, commerce.layer, online.layer) as never,
    publicBaseUrl: options.publicBaseUrl ?? "https://ledger.example.com",
    ...(options.clock === undefined ? {} : { clock: options.clock })
  })
  return { app, commerce, online }
}

export const writer = (app: TestApp, token: string) => ({
  post: (path: string, body: unknown = {}) => app.call("POST", path, { token, body, key: newKey() }),
  get: (path: string) => app.call("GET", path, { token })
})

/** Runs every due job, as a server's workers would, on the app's clock when it has one. */
export const drainJobs = (app: TestApp, id = "integrations-test") => {
  const drain = Worker.drain({ id, ...Worker.defaults }) as Effect.Effect<number>
  return app.runtime.runPromise(app.clock === undefined ? drain : drain.pipe(Effect.provideService(Clock.Clock, app.clock)))
}

/**
 * Asks for a sync (202: the queued run), lets the workers run it, and answers the finished run
 * as the sync-runs list has it.
 */
export const syncNow = async (app: TestApp, owner: ReturnType<typeof writer>, id: number) => {
  const asked = await owner.post(`/v1/integrations/connections/${id}/sync`)
  expect(asked.status, JSON.stringify(asked.body)).toBe(202)
  expect(asked.body).toMatchObject({ status: "queued", trigger: "request", finished_at: null })
  await drainJobs(app)
  const runs = await owner.get(`/v1/integrations/connections/${id}/sync-runs?limit=1`)
  const run = runs.body.data[0]
  expect(run.id).toBe(asked.body.id)
  return { status: asked.status, body: run }
}
