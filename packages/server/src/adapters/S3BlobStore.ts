import { timingSafeEqual } from "node:crypto"
import { AwsClient, AwsV4Signer } from "aws4fetch"
import { Effect, Layer } from "effect"
import { Ports } from "@ledger/engine"

/**
 * Receipt files in an S3-compatible bucket (AWS S3, MinIO, R2, Ceph ...): the object store under
 * the engine's `BlobStore.layerObjectStore`, which seals every file with AES-256-GCM under the
 * master key before it reaches this adapter, so the bucket only ever holds ciphertext. Requests
 * are signed with AWS Signature Version 4 by `aws4fetch`, payload hash included
 * (`x-amz-content-sha256` is the body's SHA-256, not `UNSIGNED-PAYLOAD`), path-style
 * (`https://host/bucket/key`, MinIO's default) or virtual-host style (`https://bucket.host/key`,
 * AWS's). Chosen by `LEDGER_BLOB_STORE=s3` (ADR 1205); the testkit's `FakeObjectStore` serves the
 * same API on loopback and checks every signature with `verify` below.
 */

/** A sealed receipt file: 20 MB, its IV and tag, and room for an HTML receipt's snapshot. */
export const objectBytesMax = 21 * 1024 * 1024
/** How long one request may take before the store counts as unreachable. */
const requestTimeoutMs = 30_000
/** Only a couple of quick retries of a 5xx or 429: someone waits in an HTTP request or an SMTP session. */
const retries = 2
const retryDelayMs = 50

export type Addressing = "path" | "virtual"

export interface Settings {
  /** The service's base URL, e.g. `https://s3.eu-central-1.amazonaws.com` or `http://127.0.0.1:9000`. */
  readonly endpoint: string
  readonly bucket: string
  readonly region: string
  readonly accessKeyId: string
  readonly secretAccessKey: string
  readonly sessionToken?: string | undefined
  readonly addressing: Addressing
  /** Prepended to every object name (e.g. `ledger/`), so one bucket can serve several deployments. */
  readonly prefix: string
  /** The fetch to send with (tests route virtual-host names to loopback); default the global one. */
  readonly fetch?: ((request: Request) => Promise<Response>) | undefined
}

export class S3SettingsError extends Error {}

const bucketPattern = /^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/u

/**
 * The S3 settings of an environment: null unless `LEDGER_BLOB_STORE=s3`. A missing or malformed
 * setting is refused (thrown) so the server does not start half-configured.
 */
export const fromEnvironment = (environment: Readonly<Record<string, string | undefined>>): Settings | null => {
  const kind = environment.LEDGER_BLOB_STORE ?? ""
  if (kind === "" || kind === "database") return null
  if (kind !== "s3") throw new S3SettingsError(`LEDGER_BLOB_STORE must be database or s3, got ${kind}`)
  const required = (name: string) => {
    const value = environment[name] ?? ""
    if (value === "") throw new S3SettingsError(`${name} is required with LEDGER_BLOB_STORE=s3`)
    return value
  }
  const endpoint = required("LEDGER_S3_ENDPOINT").replace(/\/+$/u, "")
  let url: URL
  try {
    url = new URL(endpoint)
  } catch {
    throw new S3SettingsError(`LEDGER_S3_ENDPOINT must be an http(s) URL, got ${endpoint}`)
  }
  if (url.protocol !== "https:" && url.protocol !== "http:") throw new S3SettingsError(`LEDGER_S3_ENDPOINT must be an http(s) URL, got ${endpoint}`)
  const bucket = required("LEDGER_S3_BUCKET")
  if (!bucketPattern.test(bucket)) throw new S3SettingsError(`LEDGER_S3_BUCKET is not a bucket name: ${bucket}`)
  const addressing = environment.LEDGER_S3_ADDRESSING ?? (url.hostname.endsWith(".amazonaws.com") ? "virtual" : "path")
  if (addressing !== "path" && addressing !== "virtual") throw new S3SettingsError(`LEDGER_S3_ADDRESSING must be path or virtual, got ${addressing}`)
  const prefix = environment.LEDGER_S3_PREFIX ?? ""
  if (prefix.length > 200 || /^\/|\/\/|\.\./u.test(prefix)) throw new S3SettingsError(`LEDGER_S3_PREFIX is not a usable object name prefix: ${prefix}`)
  return {
    endpoint,
    bucket,
    region: environment.LEDGER_S3_REGION || "us-east-1",
    accessKeyId: required("LEDGER_S3_ACCESS_KEY_ID"),
    secretAccessKey: required("LEDGER_S3_SECRET_ACCESS_KEY"),
    sessionToken: environment.LEDGER_S3_SESSION_TOKEN || undefined,
    addressing,
    prefix
  }
}

/** The URL of an object: each segment of its name percent-encoded, in the chosen addressing style. */
export const objectUrl = (settings: Settings, name: string): string => {
  const path = `${settings.prefix}${name}`.split("/").map(encodeURIComponent).join("/")
  const base = new URL(settings.endpoint)
  const root = base.pathname.replace(/\/+$/u, "")
  return settings.addressing === "path"
    ? `${base.origin}${root}/${settings.bucket}/${path}`
    : `${base.protocol}//${settings.bucket}.${base.host}${root}/${path}`
}

const hex = (bytes: ArrayBuffer) => Buffer.from(bytes).toString("hex")

/** Reads a response body, refusing one over `limit` bytes whatever its Content-Length claimed. */
const boundedBody = async (response: Response, limit: number): Promise<Uint8Array> => {
  const declared = Number(response.headers.get("content-length") ?? "0")
  if (declared > limit) throw new Error(`the object is ${declared} bytes, over the ${limit}-byte bound`)
  const chunks: Array<Uint8Array> = []
  let size = 0
  const reader = response.body?.getReader()
  for (;;) {
    const next = await reader?.read()
    if (next === undefined || next.done) break
    size += next.value.byteLength
    if (size > limit) {
      await reader!.cancel()
      throw new Error(`the object is over the ${limit}-byte bound`)
    }
    chunks.push(next.value)
  }
  return new Uint8Array(Buffer.concat(chunks))
}

/** The S3 error code of an error answer (`<Code>NoSuchKey</Code>`), for messages. */
const errorCode = async (response: Response) => {
  const text = await boundedBody(response, 64 * 1024).then((bytes) => Buffer.from(bytes).toString("utf8"), () => "")
  return /<Code>([^<]{1,100})<\/Code>/u.exec(text)?.[1] ?? `HTTP ${response.status}`
}

/** The four S3 calls Ledger makes, signed; promises, for the layer below and for tests. */
export const client = (settings: Settings) => {
  const aws = new AwsClient({
    accessKeyId: settings.accessKeyId,
    secretAccessKey: settings.secretAccessKey,
    ...(settings.sessionToken === undefined ? {} : { sessionToken: settings.sessionToken }),
    service: "s3",
    region: settings.region
  })
  const once = async (method: "PUT" | "GET" | "DELETE" | "HEAD", name: string, payloadHash: string, body?: Uint8Array) => {
    const signed = await aws.sign(objectUrl(settings, name), {
      method,
      headers: {
        "x-amz-content-sha256": payloadHash,
        ...(body === undefined ? {} : { "content-type": "application/octet-stream" })
      },
      ...(body === undefined ? {} : { body: new Uint8Array(body) }),
      signal: AbortSignal.timeout(requestTimeoutMs)
    })
    return (settings.fetch ?? fetch)(signed)
  }
  /** One request, signed afresh per attempt; a 5xx or 429 is tried again up to `retries` times. */
  const send = async (method: "PUT" | "GET" | "DELETE" | "HEAD", name: string, body?: Uint8Array) => {
    const payloadHash = hex(await globalThis.crypto.subtle.digest("SHA-256", body === undefined ? new Uint8Array() : new Uint8Array(body)))
    for (let attempt = 0; ; attempt++) {
      const response = await once(method, name, payloadHash, body)
      if ((response.status < 500 && response.status !== 429) || attempt >= retries) return response
      await response.body?.cancel()
      await new Promise((resolve) => setTimeout(resolve, retryDelayMs * 2 ** attempt))
    }
  }
  return {
    put: async (name: string, bytes: Uint8Array): Promise<void> => {
      if (bytes.byteLength > objectBytesMax) throw new Error(`an object of ${bytes.byteLength} bytes is over the ${objectBytesMax}-byte bound`)
      const response = await send("PUT", name, bytes)
      if (!response.ok) throw new Error(`PUT ${name}: ${await errorCode(response)}`)
      await response.body?.cancel()
    },
    get: async (name: string): Promise<Uint8Array | null> => {
      const response = await send("GET", name)
      if (response.status === 404) {
        const code = await errorCode(response)
        if (code === "NoSuchKey") return null
        throw new Error(`GET ${name}: ${code}`)
      }
      if (!response.ok) throw new Error(`GET ${name}: ${await errorCode(response)}`)
      return boundedBody(response, objectBytesMax)
    },
    /** An object's size, or null when there is none. */
    head: async (name: string): Promise<number | null> => {
      const response = await send("HEAD", name)
      if (response.status === 404) return null
      if (!response.ok) throw new Error(`HEAD ${name}: HTTP ${response.status}`)
      return Number(response.headers.get("content-length") ?? "0")
    },
    remove: async (name: string): Promise<void> => {
      const response = await send("DELETE", name)
      // Deleting what is not there is done (S3 itself answers 204 for a missing key).
      if (!response.ok && response.status !== 404) throw new Error(`DELETE ${name}: ${await errorCode(response)}`)
      await response.body?.cancel()
    }
  }
}

const unavailable = (error: unknown) => new Ports.BlobUnavailable({ message: error instanceof Error ? error.message : String(error) })

/** The engine's object-store shape over a bucket. */
export const objectStore = (settings: Settings): Ports.ObjectStore => {
  const s3 = client(settings)
  return {
    put: (name, bytes) => Effect.tryPromise({ try: () => s3.put(name, bytes), catch: unavailable }),
    get: (name) => Effect.tryPromise({ try: () => s3.get(name), catch: unavailable }),
    remove: (name) => Effect.tryPromise({ try: () => s3.remove(name), catch: unavailable })
  }
}

/** The blob store over a bucket, sealing with the master key. */
export const layer = (masterKey: Uint8Array, settings: Settings): Layer.Layer<Ports.BlobStore> =>
  Ports.BlobStore.layerObjectStore(masterKey, objectStore(settings))

export interface ReceivedRequest {
  readonly method: string
  /** The request target as received: path and query, still percent-encoded. */
  readonly target: string
  /** Header names lower-case; `host` included. */
  readonly headers: Readonly<Record<string, string | undefined>>
  readonly body: Uint8Array
}

export type Verdict =
  | { readonly ok: true; readonly accessKeyId: string; readonly region: string }
  | { readonly ok: false; readonly code: "AccessDenied" | "InvalidAccessKeyId" | "SignatureDoesNotMatch" | "XAmzContentSHA256Mismatch" | "AuthorizationHeaderMalformed"; readonly message: string }

const authorizationPattern = /^AWS4-HMAC-SHA256 Credential=([^/\s,]+)\/(\d{8})\/([^/\s,]+)\/([^/\s,]+)\/aws4_request,\s*SignedHeaders=([a-z0-9;-]+),\s*Signature=([0-9a-f]{64})$/u

/**
 * Checks a received request's Signature Version 4 the way S3 does: the canonical request is
 * rebuilt from what arrived (method, path, query, the headers it says it signed) and signed again
 * with the secret of its access key by aws4fetch's own signer, and the two signatures are compared
 * in constant time; a declared payload hash must be the body's. For the testkit's fake store (a
 * real S3 checks its own); kept beside the client so both follow one reading of the protocol.
 */
export const verify = async (request: ReceivedRequest, secretOf: (accessKeyId: string) => string | null): Promise<Verdict> => {
  const header = request.headers.authorization ?? ""
  const parts = authorizationPattern.exec(header)
  if (parts === null) return { ok: false, code: header === "" ? "AccessDenied" : "AuthorizationHeaderMalformed", message: "A Signature Version 4 Authorization header is required." }
  const [, accessKeyId, day, region, service, signedHeaders, signature] = parts as unknown as [string, string, string, string, string, string, string]
  const secret = secretOf(accessKeyId)
  if (secret === null) return { ok: false, code: "InvalidAccessKeyId", message: "The access key does not exist." }
  const datetime = request.headers["x-amz-date"] ?? ""
  if (!/^\d{8}T\d{6}Z$/u.test(datetime) || datetime.slice(0, 8) !== day || service !== "s3") {
    return { ok: false, code: "AuthorizationHeaderMalformed", message: "The credential scope does not match x-amz-date or the service." }
  }
  const declared = request.headers["x-amz-content-sha256"] ?? ""
  if (declared !== "UNSIGNED-PAYLOAD" && declared !== hex(await globalThis.crypto.subtle.digest("SHA-256", new Uint8Array(request.body)))) {
    return { ok: false, code: "XAmzContentSHA256Mismatch", message: "The body's SHA-256 is not the declared x-amz-content-sha256." }
  }
  const names = signedHeaders.split(";")
  const headers: Record<string, string> = {}
  for (const name of names) if (name !== "host") headers[name] = request.headers[name] ?? ""
  const signer = new AwsV4Signer({
    method: request.method,
    url: `http://${request.headers.host ?? ""}${request.target}`,
    headers,
    accessKeyId,
    secretAccessKey: secret,
    service,
    region,
    datetime,
    allHeaders: true
  })
  const expected = Buffer.from(await signer.signature(), "utf8")
  const given = Buffer.from(signature, "utf8")
  if (signer.signedHeaders !== signedHeaders || !names.includes("host") || !timingSafeEqual(expected, given)) {
    return { ok: false, code: "SignatureDoesNotMatch", message: "The request signature we calculated does not match the signature you provided." }
  }
  return { ok: true, accessKeyId, region }
}
