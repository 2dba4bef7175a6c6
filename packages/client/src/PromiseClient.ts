import { type ClientError, LedgerUnexpectedResponse } from "./ClientError.ts"
import * as Fetch from "./Fetch.ts"
import * as Files from "./Files.ts"
import { type Operations, routes } from "./generated/Operations.ts"
import * as IdempotencyKey from "./IdempotencyKey.ts"
import { type ClientOperation, ids, type Input, type ItemOf, type ListOperationId, type OperationId, type OperationOf, type Output } from "./Operations.ts"
import * as RetryPolicy from "./RetryPolicy.ts"

/**
 * The SDK for code that does not use Effect: the same calls, keys, retries and errors as the
 * Effect client, as Promises, over `fetch` alone (Fetch.ts), so that a browser bundle carries
 * neither Effect nor the contract's schemas (docs/decisions/0606-sdk-precomputed-types.md). A
 * refused call rejects with a `ClientError`; narrow it with `isClientError(error, "not_found")` or
 * by `error.type`. The Effect client is `@ledger/client/effect`.
 */

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
  /**
   * Checks every success body against its operation's schema (extra fields refused): for tests.
   * `true` loads the schemas (and Effect) from `@ledger/client/effect` on the first call; a
   * function checks with it instead.
   */
  readonly validateResponses?: boolean | Fetch.Validator | undefined
  /** Accepted for the Effect client's sake; the Promise client opens no spans and sends no trace headers. */
  readonly tracePropagation?: boolean | undefined
  /** Told before each retry, e.g. to log it. */
  readonly onRetry?: ((event: Fetch.RetryEvent) => void) | undefined
  /** Waits between retries; a timer by default. Tests may advance a test clock instead. */
  readonly sleep?: ((milliseconds: number) => Promise<void>) | undefined
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
  /** Aborting rejects the call with the signal's reason and stops its retries. */
  readonly signal?: AbortSignal | undefined
}

export const timeoutMsDefault = 30_000

export type Response<Id extends OperationId> = Fetch.Response<Output<OperationOf<Id>>>

/**
 * One method. An operation that takes `dry_run` has three overloads, so that the answer follows
 * the call's own arguments: `dry_run: true` resolves with the preview, no `dry_run` with the record
 * or the queued proposal, and a `boolean` known only at run time with any of them.
 */
type Method<O extends ClientOperation> = O["dryRun"] extends true ? {
    (input: O["input"] & { readonly dry_run: true }, options?: CallOptions): Promise<O["preview"]>
    (...args: Args<O, { readonly dry_run?: false }>): Promise<O["output"] | O["queued"]>
    (...args: Args<O, {}>): Promise<Output<O>>
  }
  : (...args: Args<O, {}>) => Promise<O["output"]>

/** The arguments of a call: the input may be left out when every field is optional. */
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
  ) => Promise<Response<Id>>
  /** Every item of a list: `for await (const user of client.iterate("listUsers")) ...` */
  readonly iterate: <Id extends ListOperationId>(
    id: Id,
    input?: Input<OperationOf<Id>>,
    options?: CallOptions
  ) => AsyncIterable<ItemOf<OperationOf<Id>>>
  /**
   * The file an operation answers, as bytes with its name and media type: a report with
   * `format: "csv"`, a document's PDF. Only for operations that declare files; the methods
   * themselves answer the JSON envelope.
   */
  readonly download: <Id extends OperationId>(
    id: Id,
    input?: Input<OperationOf<Id>>,
    options?: CallOptions
  ) => Promise<Files.Download>
  /** The same client with some options changed: another key, another agent model. */
  readonly with: (options: Partial<Options>) => Client
  readonly options: Options
}

const reserved: ReadonlySet<string> = new Set(["request", "iterate", "download", "with", "options"])

/**
 * The schema check of `validateResponses: true`, loaded on first use: the specifier is not a
 * literal so that bundlers leave Effect out of a build that never asks for it.
 */
let validatorLoad: Promise<Fetch.Validator> | undefined
const effectEntry = import.meta.url.endsWith(".ts") ? "./effect.ts" : "./effect.js"
const loadValidator = (): Promise<Fetch.Validator> =>
  validatorLoad ??= (import(/* @vite-ignore */ effectEntry) as Promise<{ readonly validator: Fetch.Validator }>).then((module) => module.validator)

const pick = <A>(callValue: A | null | undefined, clientValue: A | undefined): A | null =>
  callValue === null ? null : callValue ?? clientValue ?? null

const settingsOf = async (options: Options, call: CallOptions | undefined, binary: boolean): Promise<Fetch.Settings> => ({
  baseUrl: options.baseUrl,
  token: call?.token ?? options.token ?? null,
  agentModel: pick(call?.agentModel, options.agentModel),
  agentRunId: pick(call?.agentRunId, options.agentRunId),
  company: pick(call?.company, options.company),
  headers: { ...options.headers, ...call?.headers },
  retry: RetryPolicy.resolve(call?.retry, RetryPolicy.resolve(options.retry)),
  timeoutMs: call?.timeoutMs ?? options.timeoutMs ?? timeoutMsDefault,
  fetch: options.fetch ?? ((input, init) => globalThis.fetch(input, init)),
  sleep: options.sleep ?? Fetch.sleep(call?.signal),
  onRetry: options.onRetry,
  validate: options.validateResponses === true
    ? await loadValidator()
    : typeof options.validateResponses === "function"
    ? options.validateResponses
    : null,
  signal: call?.signal,
  binary
})

const routeOf = (id: string) => {
  const route = Object.hasOwn(routes, id) ? routes[id as OperationId] : undefined
  if (route === undefined) throw new TypeError(`No operation "${id}" in the catalog`)
  return route
}

export const createClient = (options: Options): Client => {
  const keys = options.idempotencyKeys ?? IdempotencyKey.random

  const request = async (id: string, input?: unknown, call?: CallOptions): Promise<Fetch.Response> => {
    const route = routeOf(id)
    const idempotencyKey = route[2] === "K" ? call?.idempotencyKey ?? keys() : null
    return Fetch.run(id, route, input as Record<string, unknown> | undefined, await settingsOf(options, call, false), idempotencyKey)
  }

  const download = async (id: string, input?: unknown, call?: CallOptions): Promise<Files.Download> => {
    const route = routeOf(id)
    const accept = route[5]
    if (accept === null) throw new TypeError(`Operation "${id}" answers no file`)
    const settings = await settingsOf(options, { ...call, headers: { accept, ...call?.headers } }, true)
    const response = await Fetch.run(id, route, input as Record<string, unknown> | undefined, settings, null)
    const file = Files.fromAnswer(id, response)
    if (file !== null) return file
    throw new LedgerUnexpectedResponse({
      type: "unexpected_response",
      message: `${id} answered data, not a file: ask for a file format.`,
      status: response.status,
      body: response.body,
      operationId: id
    }) as ClientError
  }

  const client: Record<string, unknown> = {
    request,
    iterate: (id: string, input?: Record<string, unknown>, call?: CallOptions) => ({
      async *[Symbol.asyncIterator]() {
        let cursor = input?.cursor as string | undefined
        for (;;) {
          const page = input === undefined && cursor === undefined ? {} : { ...input, ...(cursor === undefined ? {} : { cursor }) }
          const response = await request(id, page, call)
          const body = response.body as { data: ReadonlyArray<unknown>; has_more: boolean; next_cursor: string | null }
          yield* body.data
          if (!body.has_more || body.next_cursor === null) return
          cursor = body.next_cursor
        }
      }
    }),
    download,
    with: (changes: Partial<Options>) => createClient({ ...options, ...changes }),
    options
  }
  for (const id of ids()) {
    if (reserved.has(id)) throw new Error(`Operation id "${id}" collides with a client member`)
    client[id] = async (input?: unknown, call?: CallOptions) => (await request(id, input, call)).body
  }
  return client as unknown as Client
}
