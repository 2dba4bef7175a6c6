import { createHash } from "node:crypto"
import { createServer, request as httpRequest, type Server } from "node:http"
import type { AddressInfo } from "node:net"
import { S3BlobStore } from "@ledger/server"

/**
 * An S3-compatible object store on loopback HTTP, for the server's S3 adapter
 * (@ledger/server `S3BlobStore`): PUT, GET, HEAD and DELETE of objects in one bucket, addressed
 * path-style (`/bucket/key`) or virtual-host style (`Host: bucket.<host>`). Every request must
 * carry a valid Signature Version 4 for the fake's access key (checked by `S3BlobStore.verify`,
 * aws4fetch's signer recomputing the signature from what arrived) and a payload hash that is the
 * body's; otherwise it answers S3's 403/400 XML errors. Objects over `objectBytesMax` are refused
 * (400 EntityTooLarge). `failNext(n)` makes the next n requests answer 503, as an outage would.
 * As S3 does (checked against AWS's model of S3 by test/providers/s3-contract.test.ts), it refuses
 * a signed request without `x-amz-content-sha256`, an `x-amz-date` more than 15 minutes from its
 * clock (`RequestTimeTooSkewed`) and a PUT without `Content-Length`, and its errors carry the key
 * or resource and a request id.
 */

export interface StoredRequest {
  readonly method: string
  readonly style: "path" | "virtual"
  readonly key: string
  readonly status: number
}

/** A request as received and the answer given (the object's bytes left out), for contract tests (issue 39). */
export interface Exchange {
  readonly method: string
  /** The request target: path and query, still percent-encoded. */
  readonly target: string
  /** Header names lower-case, `host` included. */
  readonly headers: Readonly<Record<string, string | undefined>>
  readonly bodyBytes: number
  readonly status: number
  readonly responseHeaders: Readonly<Record<string, string>>
  /** The answer's text when it is not an object's bytes (an error's XML), else "". */
  readonly responseBody: string
}

export interface FakeObjectStore {
  readonly accessKeyId: string
  readonly secretAccessKey: string
  readonly bucket: string
  readonly region: string
  /** Starts listening (once); resolves the endpoint, `http://127.0.0.1:<port>`. */
  readonly start: () => Promise<string>
  readonly close: () => Promise<void>
  /** The adapter's settings for this store (start it first). */
  readonly settings: (options?: { readonly addressing?: "path" | "virtual"; readonly prefix?: string; readonly secretAccessKey?: string }) => S3BlobStore.Settings
  /** Objects by key (without the bucket). */
  readonly objects: ReadonlyMap<string, Uint8Array>
  readonly requests: ReadonlyArray<StoredRequest>
  readonly exchanges: ReadonlyArray<Exchange>
  readonly failNext: (count?: number) => void
}

const escape = (text: string) => text.replace(/[<>&'"]/gu, (char) => `&#${char.charCodeAt(0)};`)
let requestIds = 0

/**
 * S3's error answer (restXml without wrapping: `<Error>` is the root): its code, message, the key or
 * resource it is about and the request's id, in the body and in `x-amz-request-id`.
 */
const xmlError = (status: number, code: string, message: string, about: { readonly key?: string; readonly resource?: string } = {}) => {
  const requestId = (++requestIds).toString(16).toUpperCase().padStart(16, "0")
  const detail = `${about.key === undefined ? "" : `<Key>${escape(about.key)}</Key>`}${about.resource === undefined ? "" : `<Resource>${escape(about.resource)}</Resource>`}`
  return {
    status,
    headers: { "content-type": "application/xml", "x-amz-request-id": requestId },
    body: Buffer.from(`<?xml version="1.0" encoding="UTF-8"?>\n<Error><Code>${code}</Code><Message>${escape(message)}</Message>${detail}<RequestId>${requestId}</RequestId><HostId>fake</HostId></Error>`)
  }
}

/** S3's tolerance of a request's clock (`x-amz-date`) against its own: 15 minutes. */
const skewMs = 15 * 60_000

/**
 * A fetch that sends every request to 127.0.0.1 whatever its host name says, keeping the name in
 * `Host` (and so in the signature): how a virtual-host address (`bucket.localhost`) reaches the
 * fake without DNS.
 */
export const loopbackFetch = async (request: Request): Promise<Response> => {
  const url = new URL(request.url)
  const body = request.body === null ? undefined : Buffer.from(await request.arrayBuffer())
  return new Promise<Response>((resolve, reject) => {
    const outgoing = httpRequest({
      host: "127.0.0.1",
      port: url.port,
      method: request.method,
      path: `${url.pathname}${url.search}`,
      headers: { ...Object.fromEntries(request.headers), host: url.host, ...(body === undefined ? {} : { "content-length": String(body.byteLength) }) }
    }, (incoming) => {
      const chunks: Array<Buffer> = []
      incoming.on("data", (chunk: Buffer) => chunks.push(chunk))
      incoming.on("end", () => {
        const headers = new Headers()
        for (const [name, value] of Object.entries(incoming.headers)) if (typeof value === "string") headers.set(name, value)
        const status = incoming.statusCode ?? 500
        resolve(new Response(status === 204 || status === 304 || request.method === "HEAD" ? null : Buffer.concat(chunks), { status, headers }))
      })
      incoming.on("error", reject)
    })
    outgoing.on("error", reject)
    outgoing.end(body)
  })
}

interface State {
  readonly accessKeyId: string
  readonly secretAccessKey: string
  readonly bucket: string
  readonly region: string
  readonly limit: number
  readonly objects: Map<string, Uint8Array>
  readonly requests: Array<StoredRequest>
  readonly exchanges: Array<Exchange>
  failures: number
  /** The fake's clock, for S3's 15-minute tolerance of a request's `x-amz-date`. */
  readonly now: () => number
}

/** One S3 request: the bucket and key from the Host or the path, the signature checked, then the object call. */
const answer = async (state: State, method: string, target: string, headers: Record<string, string | undefined>, body: Uint8Array) => {
  const hostname = (headers.host ?? "").replace(/:\d+$/u, "")
  const virtual = hostname.startsWith(`${state.bucket}.`)
  const segments = new URL(target, "http://fake").pathname.split("/").slice(1)
  const named = virtual ? state.bucket : decodeURIComponent(segments.shift() ?? "")
  const key = segments.map(decodeURIComponent).join("/")
  const refuse = (status: number, code: string, message: string) => {
    state.requests.push({ method, style: virtual ? "virtual" : "path", key, status })
    return xmlError(status, code, message, code === "NoSuchKey" ? { key } : { resource: new URL(target, "http://fake").pathname })
  }
  if (state.failures > 0) {
    state.failures--
    return refuse(503, "ServiceUnavailable", "Please reduce your request rate.")
  }
  // What S3 refuses before it looks at the signature: a signed request without its payload hash, a
  // clock too far from its own, and an upload that does not say its length.
  if (headers.authorization !== undefined && headers["x-amz-content-sha256"] === undefined) {
    return refuse(400, "InvalidRequest", "Missing required header for this request: x-amz-content-sha256")
  }
  const stamped = /^(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(\d{2})Z$/u.exec(headers["x-amz-date"] ?? "")
  if (stamped !== null && Math.abs(state.now() - Date.UTC(+stamped[1]!, +stamped[2]! - 1, +stamped[3]!, +stamped[4]!, +stamped[5]!, +stamped[6]!)) > skewMs) {
    return refuse(403, "RequestTimeTooSkewed", "The difference between the request time and the current time is too large.")
  }
  if (method === "PUT" && headers["content-length"] === undefined) return refuse(411, "MissingContentLength", "You must provide the Content-Length HTTP header.")
  const verdict = await S3BlobStore.verify({ method, target, headers, body }, (id) => id === state.accessKeyId ? state.secretAccessKey : null)
  if (!verdict.ok) return refuse(verdict.code === "XAmzContentSHA256Mismatch" || verdict.code === "AuthorizationHeaderMalformed" ? 400 : 403, verdict.code, verdict.message)
  if (verdict.region !== state.region) return refuse(400, "AuthorizationHeaderMalformed", `The region '${verdict.region}' is wrong; expecting '${state.region}'`)
  if (named !== state.bucket) return refuse(404, "NoSuchBucket", "The specified bucket does not exist")
  if (key === "") return refuse(400, "InvalidRequest", "This fake serves objects only")
  const done = (status: number, out: { headers?: Record<string, string>; body?: Buffer } = {}) => {
    state.requests.push({ method, style: virtual ? "virtual" : "path", key, status })
    return { status, headers: out.headers ?? {}, body: out.body ?? Buffer.alloc(0) }
  }
  const object = state.objects.get(key)
  switch (method) {
    case "PUT":
      if (body.byteLength > state.limit) return refuse(400, "EntityTooLarge", "Your proposed upload exceeds the maximum allowed size")
      state.objects.set(key, new Uint8Array(body))
      return done(200, { headers: { etag: `"${createHash("md5").update(body).digest("hex")}"` } })
    case "GET":
    case "HEAD":
      if (object === undefined) return method === "HEAD" ? done(404) : refuse(404, "NoSuchKey", "The specified key does not exist.")
      return done(200, {
        headers: { "content-type": "application/octet-stream", "content-length": String(object.byteLength) },
        body: method === "HEAD" ? Buffer.alloc(0) : Buffer.from(object)
      })
    case "DELETE":
      state.objects.delete(key)
      return done(204)
    default:
      return refuse(405, "MethodNotAllowed", "The specified method is not allowed against this resource.")
  }
}

/** The store on a loopback port: bodies kept up to one byte past the bound, so an oversized object is still seen as one. */
const serve = (state: State) =>
  new Promise<{ server: Server; endpoint: string }>((resolve) => {
    const server = createServer((request, response) => {
      const chunks: Array<Buffer> = []
      let size = 0
      request.on("data", (chunk: Buffer) => {
        size += chunk.byteLength
        if (size <= state.limit + 1) chunks.push(chunk)
      })
      request.on("end", () => {
        const headers = Object.fromEntries(Object.entries(request.headers).map(([name, value]) => [name, Array.isArray(value) ? value.join(",") : value]))
        answer(state, request.method ?? "GET", request.url ?? "/", headers, new Uint8Array(Buffer.concat(chunks))).then((out) => {
          const error = out.status >= 300 && request.method !== "HEAD"
          state.exchanges.push({
            method: request.method ?? "GET", target: request.url ?? "/", headers, bodyBytes: size, status: out.status,
            responseHeaders: Object.fromEntries(Object.entries(out.headers).map(([name, value]) => [name.toLowerCase(), value])),
            responseBody: error ? out.body.toString("utf8") : ""
          })
          response.writeHead(out.status, out.headers).end(request.method === "HEAD" ? undefined : out.body)
        }, (error: unknown) => response.writeHead(500).end(String(error)))
      })
    })
    server.unref()
    server.listen(0, "127.0.0.1", () => resolve({ server, endpoint: `http://127.0.0.1:${(server.address() as AddressInfo).port}` }))
  })

export const make = (options: { readonly bucket?: string; readonly region?: string; readonly objectBytesMax?: number; readonly now?: () => number } = {}): FakeObjectStore => {
  const state: State = {
    accessKeyId: "AKIAFAKEOBJECTSTORE1",
    secretAccessKey: createHash("sha256").update("ledger fake object store").digest("base64").slice(0, 40),
    bucket: options.bucket ?? "ledger-receipts",
    region: options.region ?? "us-east-1",
    limit: options.objectBytesMax ?? S3BlobStore.objectBytesMax,
    objects: new Map(),
    requests: [],
    exchanges: [],
    failures: 0,
    now: options.now ?? Date.now
  }
  let started: Promise<{ server: Server; endpoint: string }> | null = null
  let endpoint = ""
  const start = async () => {
    started ??= serve(state)
    endpoint = (await started).endpoint
    return endpoint
  }
  return {
    accessKeyId: state.accessKeyId,
    secretAccessKey: state.secretAccessKey,
    bucket: state.bucket,
    region: state.region,
    start,
    close: async () => {
      if (started === null) return
      const { server } = await started
      await new Promise<void>((resolve) => server.close(() => resolve()))
    },
    settings: (choice = {}) => {
      if (endpoint === "") throw new Error("start the fake object store first")
      const addressing = choice.addressing ?? "path"
      return {
        // Virtual-host names resolve only through loopbackFetch; `localhost` keeps them recognisably local.
        endpoint: addressing === "path" ? endpoint : endpoint.replace("127.0.0.1", "localhost"),
        bucket: state.bucket,
        region: state.region,
        accessKeyId: state.accessKeyId,
        secretAccessKey: choice.secretAccessKey ?? state.secretAccessKey,
        addressing,
        prefix: choice.prefix ?? "",
        ...(addressing === "virtual" ? { fetch: loopbackFetch } : {})
      }
    },
    objects: state.objects,
    requests: state.requests,
    exchanges: state.exchanges,
    failNext: (count = 1) => {
      state.failures = count
    }
  }
}
