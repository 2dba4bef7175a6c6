import { Context, Effect } from "effect"
import * as HttpWebhookTransport from "./HttpWebhookTransport.ts"

/**
 * Fetches OAuth client ID metadata documents (an AI app's `client_id` that is an https URL, MCP
 * authorization; ADR 1706) through the webhooks' checked transport (HttpWebhookTransport.exchange):
 * only public addresses, resolved and connected in one step, no redirect followed, a deadline, and
 * at most `documentBytesMax` read. `allowPrivate` (tests only) admits http and loopback addresses.
 */

/** The draft's recommended bound on a document's size. */
export const documentBytesMax = 5 * 1024

/** How long a fetch may take in all. */
export const fetchTimeoutMs = 5_000

export interface Fetched {
  readonly status: number
  readonly body: string
  readonly contentType: string | null
  readonly cacheControl: string | null
}

/** Why no document was read: the address refused, a network failure, a timeout or an answer too large. */
export class DocumentFetchFailure extends Error {}

export interface ClientDocumentFetcher {
  /** Tests only: http and loopback or private addresses are admitted too. */
  readonly allowPrivate: boolean
  readonly fetch: (url: string) => Effect.Effect<Fetched, DocumentFetchFailure>
}

const header = (value: string | Array<string> | undefined): string | null =>
  typeof value === "string" ? value : Array.isArray(value) ? value.join(", ") : null

export const make = (options: HttpWebhookTransport.Options): ClientDocumentFetcher => ({
  allowPrivate: options.allowPrivate,
  fetch: (url) =>
    Effect.tryPromise({
      try: async (signal) => {
        const answer = await HttpWebhookTransport.exchange(options, {
          method: "GET",
          url,
          headers: { accept: "application/json" },
          bytesMax: documentBytesMax
        }, AbortSignal.any([signal, AbortSignal.timeout(fetchTimeoutMs)]))
        if (answer.overflowed) throw new DocumentFetchFailure(`The client metadata document is larger than ${documentBytesMax} bytes.`)
        return {
          status: answer.status,
          body: answer.body.toString("utf8"),
          contentType: header(answer.headers["content-type"]),
          cacheControl: header(answer.headers["cache-control"])
        } satisfies Fetched
      },
      catch: (error) => {
        if (error instanceof DocumentFetchFailure) return error
        if (HttpWebhookTransport.isRefused(error)) return new DocumentFetchFailure(`The client metadata document's address is refused: ${error.message}`)
        const name = (error as { name?: string }).name
        if (name === "AbortError" || name === "TimeoutError") return new DocumentFetchFailure("The client metadata document did not arrive in time.")
        return new DocumentFetchFailure(`The client metadata document could not be fetched: ${(error as Error).message ?? String(error)}`)
      }
    })
})

/**
 * The fetcher the authorization server uses: public addresses only. A test gives one that admits
 * loopback (`make({ allowPrivate: true })`) through the app's providers layer.
 */
export class ClientDocuments extends Context.Reference<ClientDocumentFetcher>("@ledger/server/ClientDocuments", {
  defaultValue: () => make({ allowPrivate: false })
}) {}
