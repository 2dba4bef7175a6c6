import { createServer } from "node:http"
import { NodeHttpServer } from "@effect/platform-node"
import { Clock, Effect, Layer, ManagedRuntime } from "effect"
import { HttpRouter, HttpServer } from "effect/http"
import { SqlClient } from "effect/sql"
import { Dispatcher, Entropy, Ledger, Operator } from "@ledger/engine"
import type { ServerConfig } from "./Config.ts"
import * as Http from "./Http.ts"
import * as Storage from "./Storage.ts"

export interface AppOptions extends Storage.StorageOptions {
  readonly rateLimits?: boolean
  readonly seed?: number
  readonly operatorToken?: string | undefined
  /** Told the operator token when one is generated (printed once by the CLI). */
  readonly onOperatorToken?: (token: string) => void
}

/** The engine over migrated storage, with the operator token in place. */
export const engineLayer = (options: AppOptions): Layer.Layer<Dispatcher | SqlClient.SqlClient, unknown> => {
  const storage = Storage.layer(options)
  const operator = Layer.effectDiscard(Effect.gen(function*() {
    const now = new Date(yield* Clock.currentTimeMillis).toISOString()
    const result = yield* Operator.ensure(options.operatorToken, now)
    if (result.generated !== null) options.onOperatorToken?.(result.generated)
  })).pipe(Layer.provide(options.seed === undefined ? Entropy.layer : Entropy.layerSeeded(options.seed + 1)))
  return Layer.mergeAll(
    Ledger.layer({
      storage: Storage.kind(options),
      rateLimits: options.rateLimits ?? true,
      ...(options.seed === undefined ? {} : { seed: options.seed })
    }),
    operator
  ).pipe(Layer.provideMerge(storage))
}

/** Every route over the engine: what both the Node server and the in-process web handler serve. */
export const appLayer = (options: AppOptions) =>
  Http.routes.pipe(Layer.provideMerge(engineLayer(options)))

/**
 * A Fetch-style handler `(Request) => Promise<Response>` over the whole app, with no network:
 * the testkit and embedders that bring their own server use it.
 */
export const webHandler = (options: AppOptions) =>
  HttpRouter.toWebHandler(appLayer(options).pipe(Layer.provide(HttpServer.layerServices)) as never, {
    disableLogger: true
  }) as { readonly handler: (request: Request) => Promise<Response>; readonly dispose: () => Promise<void> }

/**
 * The whole app in this process with no network: a Fetch-style handler plus the runtime that
 * holds the engine and its SQL client (tests inspect tables through it; the testkit builds on it).
 */
export const inProcess = async (options: AppOptions) => {
  const runtime = ManagedRuntime.make(engineLayer(options))
  const context = await runtime.context()
  const web = HttpRouter.toWebHandler(
    Http.routes.pipe(Layer.provide(Layer.succeedContext(context)), Layer.provide(HttpServer.layerServices)) as never,
    { disableLogger: true }
  ) as { readonly handler: (request: Request) => Promise<Response>; readonly dispose: () => Promise<void> }
  return {
    handler: web.handler,
    runtime,
    dispose: async () => {
      await web.dispose()
      await runtime.dispose()
    }
  }
}

/** The Node HTTP server on the configured host and port. */
export const serverLayer = (config: ServerConfig, options: Partial<AppOptions> = {}) =>
  HttpRouter.serve(appLayer({
    databaseUrl: config.databaseUrl,
    dataDir: config.dataDir,
    operatorToken: config.operatorToken,
    rateLimits: config.rateLimits,
    ...options
  }), { disableLogger: true }).pipe(
    Layer.provide(NodeHttpServer.layer(createServer, { port: config.port, host: config.host }))
  )
