import http from "node:http"

/** One HTTP request as the load generators describe it. */
export interface RequestSpec {
  readonly method: "GET" | "POST"
  readonly path: string
  readonly headers?: Readonly<Record<string, string>>
  /** Serialized already, so the generator spends no time on JSON while it keeps the schedule. */
  readonly body?: string
}

export interface Response {
  readonly status: number
  readonly headers: http.IncomingHttpHeaders
  readonly text: string
}

/**
 * A keep-alive agent: one request at a time per connection (no pipelining), as many connections
 * as the arrival rate needs, up to `socketsMax`.
 */
export const agent = (socketsMax: number) => new http.Agent({ keepAlive: true, maxSockets: socketsMax, maxFreeSockets: socketsMax })

const defaultAgent = agent(64)

export const request = (
  baseUrl: string,
  spec: RequestSpec,
  options: {
    readonly agent?: http.Agent
    readonly timeoutMs?: number
    readonly onSocket?: () => void
    readonly signal?: AbortSignal
  } = {}
): Promise<Response> =>
  new Promise((resolve, reject) => {
    const url = new URL(spec.path, baseUrl)
    const headers: Record<string, string> = { ...spec.headers }
    if (spec.body !== undefined) {
      headers["content-type"] ??= "application/json"
      headers["content-length"] = String(Buffer.byteLength(spec.body))
    }
    const outgoing = http.request({
      host: url.hostname,
      port: url.port,
      path: `${url.pathname}${url.search}`,
      method: spec.method,
      headers,
      agent: options.agent ?? defaultAgent,
      timeout: options.timeoutMs ?? 30_000,
      ...(options.signal === undefined ? {} : { signal: options.signal })
    }, (incoming) => {
      const chunks: Array<Buffer> = []
      incoming.on("data", (chunk: Buffer) => chunks.push(chunk))
      incoming.on("end", () => resolve({ status: incoming.statusCode ?? 0, headers: incoming.headers, text: Buffer.concat(chunks).toString("utf8") }))
      incoming.on("error", reject)
    })
    if (options.onSocket !== undefined) outgoing.once("socket", options.onSocket)
    outgoing.on("timeout", () => outgoing.destroy(new Error("timeout")))
    outgoing.on("error", reject)
    outgoing.end(spec.body)
  })

/** A JSON call that must succeed with one of `statuses`. */
export const json = async (baseUrl: string, spec: RequestSpec, statuses: ReadonlyArray<number> = [200, 201]): Promise<any> => {
  const response = await request(baseUrl, spec)
  if (!statuses.includes(response.status)) throw new Error(`${spec.method} ${spec.path}: ${response.status} ${response.text}`)
  return response.text === "" ? null : JSON.parse(response.text)
}

/** Headers of a company call. */
export const bearer = (token: string, extra: Record<string, string> = {}): Record<string, string> => ({
  authorization: `Bearer ${token}`,
  ...extra
})
