import { lookup as dnsLookup, type LookupAddress } from "node:dns"
import * as http from "node:http"
import * as https from "node:https"
import type { LookupFunction } from "node:net"
import { Effect, Layer } from "effect"
import { Ports } from "@ledger/engine"

/**
 * The webhook transport over Node's HTTP client (ADR 1102). Server-side request forgery: the host
 * is resolved by the socket's own `lookup`, which refuses the connection unless every address DNS
 * answered is public, and the socket connects to the address that lookup checked, so a DNS answer
 * that changes between the check and the connection (rebinding) never reaches a private address.
 * An IP literal is checked before any socket is made. No redirect is followed (a 3xx is a failed
 * attempt), the whole exchange has a deadline, and at most `responseBytesMax` of the answer is read.
 *
 * Node's `fetch` cannot be told which address to connect to without undici's dispatcher, which is
 * not a dependency: `node:https` with a `lookup` is the same check-and-connect in one step.
 */

export interface Options {
  /** `LEDGER_WEBHOOK_ALLOW_PRIVATE=true`: http and loopback or private addresses too (tests, private networks). */
  readonly allowPrivate: boolean
  /** DNS, replaceable in tests (a name that resolves to 127.0.0.1). */
  readonly resolve?: ((hostname: string) => Promise<ReadonlyArray<LookupAddress>>) | undefined
}

class Refused extends Error {}

const systemResolve = (hostname: string) =>
  new Promise<ReadonlyArray<LookupAddress>>((resolve, reject) =>
    dnsLookup(hostname, { all: true, verbatim: true }, (error, addresses) => error ? reject(error) : resolve(addresses)))

/** The addresses of a host when every one is allowed; a refusal naming the first that is not. */
const checkedAddresses = async (options: Options, hostname: string): Promise<ReadonlyArray<LookupAddress>> => {
  const addresses = await (options.resolve ?? systemResolve)(hostname)
  if (addresses.length === 0) throw new Refused(`${hostname} does not resolve.`)
  if (options.allowPrivate) return addresses
  const bad = addresses.find((address) => !Ports.isPublicAddress(address.address))
  if (bad !== undefined) throw new Refused(`${hostname} resolves to ${bad.address}, which is not a public address.`)
  return addresses
}

/** The socket's lookup: the check and the address the socket connects to are one answer. */
const lookupOf = (options: Options): LookupFunction => (hostname, lookupOptions, callback) => {
  checkedAddresses(options, hostname).then(
    (addresses) => {
      const family = lookupOptions.family === 4 || lookupOptions.family === 6 ? lookupOptions.family : 0
      const usable = family === 0 ? addresses : addresses.filter((address) => address.family === family)
      if (usable.length === 0) return callback(new Refused(`${hostname} has no IPv${family} address.`), "", 4)
      if (lookupOptions.all === true) return (callback as unknown as (error: null, all: ReadonlyArray<LookupAddress>) => void)(null, usable)
      callback(null, usable[0]!.address, usable[0]!.family)
    },
    (error: Error) => callback(error as NodeJS.ErrnoException, "", 4)
  )
}

const failure = (code: Ports.WebhookSendFailure["code"], message: string) => new Ports.WebhookSendFailure({ code, message })

/** The static rules, then (for a host name) DNS: refused unless every address is allowed. */
const vet = (options: Options, url: string) =>
  Effect.tryPromise({
    try: async () => {
      const problem = Ports.addressProblem(url, options.allowPrivate)
      if (problem !== null) throw new Refused(problem)
      const hostname = new URL(url).hostname
      if (Ports.literalAddress(hostname) === null) await checkedAddresses(options, hostname)
    },
    catch: (error) => failure("refused", error instanceof Refused ? error.message : `The host does not resolve: ${String(error)}`)
  })

const post = (options: Options, request: Ports.WebhookRequest, signal: AbortSignal) =>
  new Promise<Ports.WebhookResponse>((resolve, reject) => {
    const problem = Ports.addressProblem(request.url, options.allowPrivate)
    if (problem !== null) return reject(new Refused(problem))
    const url = new URL(request.url)
    const started = performance.now()
    const client = url.protocol === "https:" ? https : http
    const outgoing = client.request(url, {
      method: "POST",
      headers: { ...request.headers, "content-length": String(Buffer.byteLength(request.body)) },
      lookup: lookupOf(options),
      signal,
      agent: false
    }, (response) => {
      const chunks: Array<Buffer> = []
      let received = 0
      const finish = () => {
        const body = Buffer.concat(chunks).subarray(0, Ports.responseExcerptBytes).toString("utf8")
        resolve({ status: response.statusCode ?? 0, body, durationMs: Math.round(performance.now() - started) })
      }
      response.on("data", (chunk: Buffer) => {
        received += chunk.length
        if (received <= Ports.responseBytesMax) chunks.push(chunk)
        else {
          // The status is what counts; the rest of an oversized answer is not read.
          finish()
          response.destroy()
        }
      })
      response.on("end", finish)
      response.on("error", reject)
    })
    outgoing.on("error", reject)
    outgoing.end(request.body)
  })

const send = (options: Options, request: Ports.WebhookRequest) =>
  Effect.tryPromise({
    try: (signal) => {
      const deadline = AbortSignal.any([signal, AbortSignal.timeout(request.timeoutMs)])
      return post(options, request, deadline)
    },
    catch: (error) => {
      if (error instanceof Refused) return failure("refused", error.message)
      const name = (error as { name?: string }).name
      if (name === "AbortError" || name === "TimeoutError") {
        return failure("timeout", `No answer within ${Math.round(request.timeoutMs / 1000)} seconds.`)
      }
      return failure("network", `The receiver could not be reached: ${(error as Error).message ?? String(error)}`)
    }
  })

export const make = (options: Options): Ports.WebhookTransport["Service"] =>
  Ports.WebhookTransport.of({
    configured: true,
    allowPrivate: options.allowPrivate,
    vet: (url) => vet(options, url),
    send: (request) => send(options, request)
  })

export const layer = (options: Options): Layer.Layer<Ports.WebhookTransport> => Layer.succeed(Ports.WebhookTransport)(make(options))

/** The transport a server wires: private addresses only with LEDGER_WEBHOOK_ALLOW_PRIVATE=true. */
export const fromEnvironment = (environment: Record<string, string | undefined> = process.env) =>
  layer({ allowPrivate: environment.LEDGER_WEBHOOK_ALLOW_PRIVATE === "true" })
