import { Effect } from "effect"
import type * as Call from "./Call.ts"
import type { ClientError } from "./ClientError.ts"
import * as LedgerClient from "./LedgerClient.ts"
import {
  type ClientOperation,
  ids,
  type Input,
  type InputOptional,
  type ItemOf,
  type ListOperationId,
  type OperationId,
  type OperationOf,
  type Output
} from "./Operations.ts"

/**
 * The SDK for code that does not use Effect: the same calls, keys, retries and errors as the
 * Effect client (it runs it), as Promises. A refused call rejects with a `ClientError`; narrow it
 * with `isClientError(error, "not_found")` or by `error.type`.
 */

export interface Options extends Omit<LedgerClient.Options, "sleep"> {
  /** Waits between retries; a timer by default. Tests may advance a test clock instead. */
  readonly sleep?: ((milliseconds: number) => Promise<void>) | undefined
}

export interface CallOptions extends LedgerClient.CallOptions {
  /** Aborting rejects the call with the signal's reason and stops its retries. */
  readonly signal?: AbortSignal | undefined
}

type Method<O extends ClientOperation> = InputOptional<O> extends true
  ? (input?: Input<O>, options?: CallOptions) => Promise<Output<O>>
  : (input: Input<O>, options?: CallOptions) => Promise<Output<O>>

export type Methods = { readonly [O in ClientOperation as O["id"]]: Method<O> }

export interface Client extends Methods {
  /** Any operation by id, answering with status, headers and whether it was a replay. */
  readonly request: <Id extends OperationId>(
    id: Id,
    input?: Input<OperationOf<Id>>,
    options?: CallOptions
  ) => Promise<LedgerClient.Response<Id>>
  /** Every item of a list: `for await (const user of client.iterate("listUsers")) ...` */
  readonly iterate: <Id extends ListOperationId>(
    id: Id,
    input?: Input<OperationOf<Id>>,
    options?: CallOptions
  ) => AsyncIterable<ItemOf<OperationOf<Id>>>
  /** The same client with some options changed: another key, another agent model. */
  readonly with: (options: Partial<Options>) => Client
  readonly options: Options
  /** The Effect client underneath, for code that moves to Effect. */
  readonly effect: LedgerClient.Client
}

const run = <A>(effect: Effect.Effect<A, ClientError>, signal: AbortSignal | undefined): Promise<A> => {
  if (signal === undefined) return Effect.runPromise(effect)
  if (signal.aborted) return Promise.reject(signal.reason)
  return Effect.runPromise(effect, { signal }).catch((error: unknown) => {
    throw signal.aborted ? signal.reason : error
  })
}

const toEffectOptions = (options: Options): LedgerClient.Options => {
  const { sleep, ...rest } = options
  return sleep === undefined ? rest : { ...rest, sleep: (milliseconds) => Effect.promise(() => sleep(milliseconds)) }
}

export const createClient = (options: Options): Client => {
  const effect = LedgerClient.makeFetch(toEffectOptions(options))
  // Untyped inside: the public types come from `Client`; instantiating the generic signature over
  // every operation id at once is more than the compiler should be asked to do.
  const request = effect.request as unknown as (
    id: string,
    input: unknown,
    call?: CallOptions
  ) => Effect.Effect<Call.Response, ClientError>
  const client: Record<string, unknown> = {
    request: (id: string, input?: unknown, call?: CallOptions) => run(request(id, input, call), call?.signal),
    iterate: (id: string, input?: Record<string, unknown>, call?: CallOptions) => ({
      async *[Symbol.asyncIterator]() {
        let cursor = input?.cursor as string | undefined
        for (;;) {
          const page = input === undefined && cursor === undefined ? {} : { ...input, ...(cursor === undefined ? {} : { cursor }) }
          const response = await run(request(id, page, call), call?.signal)
          const body = response.body as { data: ReadonlyArray<unknown>; has_more: boolean; next_cursor: string | null }
          yield* body.data
          if (!body.has_more || body.next_cursor === null) return
          cursor = body.next_cursor
        }
      }
    }),
    with: (changes: Partial<Options>) => createClient({ ...options, ...changes }),
    options,
    effect
  }
  for (const id of ids()) {
    const method = (effect as unknown as Record<string, (input: unknown, call?: CallOptions) => Effect.Effect<unknown, ClientError>>)[id]!
    client[id] = (input?: unknown, call?: CallOptions) => run(method(input, call), call?.signal)
  }
  return client as unknown as Client
}
