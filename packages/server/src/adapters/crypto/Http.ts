import { Effect } from "effect"

// HTTP for the rails' adapters: a bounded wait, failures as their message.

const timeoutMs = 10_000
/** Addresses a watch may ask about at once (the engine watches the quotes of 30 days). */
export const addressesMax = 2_000

export const request = (url: string, init?: RequestInit): Effect.Effect<Response, string> =>
  Effect.tryPromise({
    try: (signal) => fetch(url, { ...init, signal: AbortSignal.any([signal, AbortSignal.timeout(timeoutMs)]) }),
    catch: (error) => error instanceof Error ? error.message : String(error)
  })

export const text = (response: Response): Effect.Effect<string, string> =>
  Effect.tryPromise({ try: () => response.text(), catch: (error) => error instanceof Error ? error.message : String(error) })

export const getJson = (url: string): Effect.Effect<unknown, string> =>
  Effect.gen(function*() {
    const response = yield* request(url)
    if (!response.ok) return yield* Effect.fail(`${response.status} from ${new URL(url).host}`)
    const body = yield* text(response)
    return yield* Effect.try({ try: () => JSON.parse(body) as unknown, catch: () => `not JSON from ${new URL(url).host}` })
  })
