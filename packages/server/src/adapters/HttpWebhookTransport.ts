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

/**
 * Why a host name could not be looked up, in words for the caller: the resolver's own text
 * ("Error: getaddrinfo ENOTFOUND …") is Node's detail, not an answer an API gives.
 */
const lookupProblem = (hostname: string, error: unknown): string =>
  (error as NodeJS.ErrnoException | null)?.code === "EAI_AGAIN"
    ? `The host name ${hostname} could not be looked up just now (DNS did not answer); try again.`
    : `The host name ${hostname} does not resolve.`

/** The static rules, then (for a host name) DNS: refused unless every address is allowed. */
const vet = (options: Options, url: string) =>
  Effect.tryPromise({
    try: async () => {
      const problem = Ports.addressProblem(url, options.allowPrivate)
      if (problem !== null) throw new Refused(problem)
      const hostname = new URL(url).hostname
      if (Ports.literalAddress(hostname) !== null) return
      await checkedAddresses(options, hostname).catch((error: unknown) => {
        throw error instanceof Refused ? error : new Refused(lookupProblem(hostname, error))
      })
    },
    catch: (error) => failure("refused", error instanceof Refused ? error.message : "The host name does not resolve.")
  })

/** One request through the checked socket (shared with the AI apps' client documents, http/OAuth.ts). */
export interface Exchange {
  readonly method: "GET" | "POST"
  readonly url: string
  readonly headers: Readonly<Record<string, string>>
  readonly body?: string | undefined
  /** The most of the answer read: past it the rest is not read and `overflowed` is true. */
  readonly bytesMax: number
}

export interface Exchanged {
  readonly status: number
  readonly headers: http.IncomingHttpHeaders
  readonly body: Buffer
  readonly overflowed: boolean
  readonly durationMs: number
}

/**
 * Sends one request with the address rules above: only to allowed addresses (checked before the
 * socket and by its lookup), no redirect followed, at most `bytesMax` of the answer read. Rejects
 * with `Refused` when the address is not allowed.
 */
export const exchange = (options: Options, request: Exchange, signal: AbortSignal) =>
  new Promise<Exchanged>((resolve, reject) => {
    const problem = Ports.addressProblem(request.url, options.allowPrivate)
    if (problem !== null) return reject(new Refused(problem))
    const url = new URL(request.url)
    const started = performance.now()
    const client = url.protocol === "https:" ? https : http
    const body = request.body ?? ""
    const outgoing = client.request(url, {
      method: request.method,
      headers: request.method === "POST" ? { ...request.headers, "content-length": String(Buffer.byteLength(body)) } : request.headers,
      lookup: lookupOf(options),
      signal,
      agent: false
    }, (response) => {
      const chunks: Array<Buffer> = []
      let received = 0
      const finish = (overflowed: boolean) =>
        resolve({
          status: response.statusCode ?? 0,
          headers: response.headers,
          body: Buffer.concat(chunks).subarray(0, request.bytesMax),
          overflowed,
          durationMs: Math.round(performance.now() - started)
        })
      response.on("data", (chunk: Buffer) => {
        received += chunk.length
        if (received <= request.bytesMax) chunks.push(chunk)
        else {
          // The status is what counts; the rest of an oversized answer is not read.
          chunks.push(chunk)
          finish(true)
          response.destroy()
        }
      })
      response.on("end", () => finish(false))
      response.on("error", reject)
    })
    outgoing.on("error", reject)
    outgoing.end(request.method === "POST" ? body : undefined)
  })

/** Whether an exchange failed because the address is not allowed (nothing was sent). */
export const isRefused = (error: unknown): error is Error => error instanceof Refused

const post = (options: Options, request: Ports.WebhookRequest, signal: AbortSignal) =>
  exchange(options, { method: "POST", url: request.url, headers: request.headers, body: request.body, bytesMax: Ports.responseBytesMax }, signal)
    .then((answer): Ports.WebhookResponse => ({
      status: answer.status,
      body: answer.body.subarray(0, Ports.responseExcerptBytes).toString("utf8"),
      durationMs: answer.durationMs
    }))

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
