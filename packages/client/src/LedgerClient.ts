import { Context, Effect, Layer, Option, Stream } from "effect"
import { FetchHttpClient, HttpClient } from "effect/http"
import { Catalog, type Operation } from "@ledger/api"
import * as Call from "./Call.ts"
import { type ClientError, LedgerUnexpectedResponse } from "./ClientError.ts"
import * as Download from "./Download.ts"
import * as IdempotencyKey from "./IdempotencyKey.ts"
import {
  type ClientOperation,
  type Input,
  type ItemOf,
  type ListOperationId,
  type OperationId,
  type OperationOf,
  type Output
} from "./Operations.ts"
import type { Operations } from "./generated/Operations.ts"
import * as RetryPolicy from "./RetryPolicy.ts"

/** The operation with this id, or undefined for an id the catalog does not have. */
export const lookup = (id: string): Operation.Any | undefined => (id === "postMcp" ? undefined : Catalog.get(id))

/** How the client reaches Ledger and acts there. Everything but `baseUrl` is optional. */
export interface Options {
  /** Where Ledger answers, e.g. `https://ledger.example.com` (paths start with /v1). */
  readonly baseUrl: string
  /** The Bearer credential: an API key `ldg_...`, or the operator token for operator operations. */
  readonly token?: string | undefined
  /** A Fetch implementation: the platform's by default; a test Ledger's `fetch` to run in-process. */
  readonly fetch?: typeof globalThis.fetch | undefined
  /** X-Agent-Model: required on an agent's writes. */
  readonly agentModel?: string | undefined
  /** X-Agent-Run-Id: ties the run's calls together in the audit log. */
  readonly agentRunId?: string | undefined
  /** X-Ledger-Company: the client company a firm credential acts in. */
  readonly company?: string | undefined
  /** Extra headers on every call. */
  readonly headers?: Readonly<Record<string, string>> | undefined
  /** Retries of network failures, timeouts, 429 and 5xx; `false` for none. */
  readonly retry?: Partial<RetryPolicy.RetryOptions> | false | undefined
  /** How long one attempt may take, in milliseconds (30 s by default). */
  readonly timeoutMs?: number | undefined
  /** Makes the Idempotency-Key of each `K` call; random UUIDs by default. */
  readonly idempotencyKeys?: (() => string) | undefined
  /** Checks every success body against its operation's schema (extra fields refused): for tests. */
  readonly validateResponses?: boolean | undefined
  /** Sends W3C trace headers with each request; off by default since browsers preflight them. */
  readonly tracePropagation?: boolean | undefined
  /** Told before each retry, e.g. to log it. */
  readonly onRetry?: ((event: Call.RetryEvent) => void) | undefined
  /** Waits between retries; `Effect.sleep` (so the Clock, and TestClock in tests) by default. */
  readonly sleep?: ((milliseconds: number) => Effect.Effect<void>) | undefined
}

/** Overrides for one call. */
export interface CallOptions {
  /** The Idempotency-Key for this call, e.g. to retry by hand a call whose answer was lost. */
  readonly idempotencyKey?: string | undefined
  readonly token?: string | undefined
  /** `null` leaves the client's value out for this call. */
  readonly agentModel?: string | null | undefined
  readonly agentRunId?: string | null | undefined
  readonly company?: string | null | undefined
  readonly headers?: Readonly<Record<string, string>> | undefined
  readonly retry?: Partial<RetryPolicy.RetryOptions> | false | undefined
  readonly timeoutMs?: number | undefined
}

export const timeoutMsDefault = 30_000

export type Response<Id extends OperationId> = Call.Response<Output<OperationOf<Id>>>

/** One method; one that takes `dry_run` answers by the call's own arguments (see PromiseClient). */
type Method<O extends ClientOperation> = O["dryRun"] extends true ? {
    (input: O["input"] & { readonly dry_run: true }, options?: CallOptions): Effect.Effect<O["preview"], ClientError>
    (...args: Args<O, { readonly dry_run?: false }>): Effect.Effect<O["output"] | O["queued"], ClientError>
    (...args: Args<O, {}>): Effect.Effect<Output<O>, ClientError>
  }
  : (...args: Args<O, {}>) => Effect.Effect<O["output"], ClientError>

type Args<O extends ClientOperation, Extra> = O["optional"] extends true ? [input?: O["input"] & Extra, options?: CallOptions]
  : [input: O["input"] & Extra, options?: CallOptions]

/** One method per operation of the catalog, named by its id. */
export type Methods = { readonly [Id in OperationId]: Method<Operations[Id]> }

export interface Client extends Methods {
  /** Any operation by id, answering with status, headers and whether it was a replay. */
  readonly request: <Id extends OperationId>(
    id: Id,
    input?: Input<OperationOf<Id>>,
    options?: CallOptions
  ) => Effect.Effect<Response<Id>, ClientError>
  /** Every item of a list, fetching page after page as the stream is pulled. */
  readonly stream: <Id extends ListOperationId>(
    id: Id,
    input?: Input<OperationOf<Id>>,
    options?: CallOptions
  ) => Stream.Stream<ItemOf<OperationOf<Id>>, ClientError>
  /**
   * The file an operation answers, as bytes with its name and media type: a report with
   * `format: "csv"`, a document's PDF, a receipt as it was received. Only for operations that
   * declare files; the methods themselves answer the JSON envelope.
   */
  readonly download: <Id extends OperationId>(
    id: Id,
    input?: Input<OperationOf<Id>>,
    options?: CallOptions
  ) => Effect.Effect<Download.Download, ClientError>
  /** The same client with some options changed: another key, another agent model. */
  readonly with: (options: Partial<Options>) => Client
  readonly options: Options
}

const reserved: ReadonlySet<string> = new Set(["request", "stream", "download", "with", "options"])

const settingsOf = (options: Options, call: CallOptions | undefined): Call.Settings => {
  const pick = <A>(callValue: A | null | undefined, clientValue: A | undefined): A | null =>
    callValue === null ? null : callValue ?? clientValue ?? null
  return {
    baseUrl: options.baseUrl,
    token: call?.token ?? options.token ?? null,
    agentModel: pick(call?.agentModel, options.agentModel),
    agentRunId: pick(call?.agentRunId, options.agentRunId),
    company: pick(call?.company, options.company),
    headers: { ...options.headers, ...call?.headers },
    retry: RetryPolicy.resolve(call?.retry, RetryPolicy.resolve(options.retry)),
    timeoutMs: call?.timeoutMs ?? options.timeoutMs ?? timeoutMsDefault,
    validateResponses: options.validateResponses ?? false,
    fetch: options.fetch,
    tracePropagation: options.tracePropagation ?? false,
    sleep: options.sleep ?? ((milliseconds) => Effect.sleep(milliseconds)),
    onRetry: options.onRetry
  }
}

/** Builds a client over an `HttpClient`; `layer` provides the Fetch one. */
export const make = (options: Options): Effect.Effect<Client, never, HttpClient.HttpClient> =>
  Effect.gen(function*() {
    return build(yield* HttpClient.HttpClient, options)
  })

const build = (http: HttpClient.HttpClient, options: Options): Client => {
  const keys = options.idempotencyKeys ?? IdempotencyKey.random

  const request = (id: string, input: unknown, call?: CallOptions): Effect.Effect<Call.Response, ClientError> => {
    const operation = lookup(id)
    if (operation === undefined) return Effect.die(new TypeError(`No operation "${id}" in the catalog`))
    const idempotencyKey = operation.mode === "K" ? call?.idempotencyKey ?? keys() : null
    return Call.run(http, operation, input as Record<string, unknown> | undefined, settingsOf(options, call), idempotencyKey).pipe(
      Effect.withSpan(`LedgerClient.${id}`)
    )
  }

  const stream = (id: string, input: unknown, call?: CallOptions) => {
    const first = (input ?? {}) as Record<string, unknown>
    return Stream.paginate(first.cursor as string | undefined, (cursor: string | undefined) =>
      Effect.map(request(id, { ...first, ...(cursor === undefined ? {} : { cursor }) }, call), (response) => {
        const page = response.body as { data: ReadonlyArray<unknown>; has_more: boolean; next_cursor: string | null }
        const next = page.has_more && page.next_cursor !== null ? Option.some(page.next_cursor) : Option.none<string>()
        return [page.data, next] as const
      }))
  }

  const download = (id: string, input: unknown, call?: CallOptions): Effect.Effect<Download.Download, ClientError> => {
    const operation = lookup(id)
    if (operation?.files === undefined) return Effect.die(new TypeError(`Operation "${id}" answers no file`))
    const settings = settingsOf(options, { ...call, headers: { accept: Download.acceptOf(operation.files), ...call?.headers } })
    return Call.run(http, operation, input as Record<string, unknown> | undefined, { ...settings, binary: true }, null).pipe(
      Effect.flatMap((response) => {
        const file = Download.fromResponse(operation, response)
        return file !== null ? Effect.succeed(file) : Effect.fail(
          new LedgerUnexpectedResponse({
            type: "unexpected_response",
            message: `${id} answered data, not a file: ask for a file format.`,
            status: response.status,
            body: response.body,
            operationId: id
          }) as ClientError
        )
      }),
      Effect.withSpan(`LedgerClient.download.${id}`)
    )
  }

  const client: Record<string, unknown> = {
    request,
    stream,
    download,
    with: (changes: Partial<Options>) => build(http, { ...options, ...changes }),
    options
  }
  // From the catalog itself, not the generated table, so the Effect client never lags the contract.
  for (const id of (Catalog.operations as ReadonlyArray<Operation.Any>).map((operation) => operation.id).filter((id) => id !== "postMcp")) {
    if (reserved.has(id)) throw new Error(`Operation id "${id}" collides with a client member`)
    client[id] = (input: unknown, call?: CallOptions) => Effect.map(request(id, input, call), (response) => response.body)
  }
  return client as unknown as Client
}

/** The client as an Effect service, for programs that take their dependencies from layers. */
export class LedgerClient extends Context.Service<LedgerClient, Client>()("@ledger/client/LedgerClient") {
  /** Over the given `HttpClient`. */
  static readonly layerWith = (options: Options): Layer.Layer<LedgerClient, never, HttpClient.HttpClient> =>
    Layer.effect(LedgerClient)(make(options))

  /** Over fetch (`options.fetch`, else the platform's): Node 24, browsers and edge runtimes. */
  static readonly layer = (options: Options): Layer.Layer<LedgerClient> =>
    LedgerClient.layerWith(options).pipe(Layer.provide(FetchHttpClient.layer))
}

/** Waits on a Promise-based sleep, as the Effect client's `sleep` (see `fromPromiseClient`). */
export const promiseSleep = (sleep: (milliseconds: number) => Promise<void>, milliseconds: number): Effect.Effect<void> =>
  Effect.promise(() => sleep(milliseconds))

/** A client over fetch, without layers. */
export const makeFetch = (options: Options): Client =>
  Effect.runSync(make(options).pipe(Effect.provide(FetchHttpClient.layer)))
