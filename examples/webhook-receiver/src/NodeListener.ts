import type { IncomingMessage, ServerResponse } from "node:http"

/**
 * Serves a Fetch-style handler from Node's http server. The body is passed on byte for byte: a
 * signature is over the raw bytes, and re-encoding them would break it.
 */
export const nodeListener = (handle: (request: Request) => Promise<Response>) =>
async (incoming: IncomingMessage, outgoing: ServerResponse) => {
  const chunks: Array<Buffer> = []
  for await (const chunk of incoming) chunks.push(chunk as Buffer)
  const headers = new Headers()
  for (const [name, value] of Object.entries(incoming.headers)) if (typeof value === "string") headers.set(name, value)
  const method = incoming.method ?? "GET"
  const withBody = method !== "GET" && method !== "HEAD"
  const response = await handle(
    new Request(`http://localhost${incoming.url ?? "/"}`, { method, headers, ...(withBody ? { body: Buffer.concat(chunks) } : {}) })
  )
  outgoing.writeHead(response.status, Object.fromEntries(response.headers))
  outgoing.end(Buffer.from(await response.arrayBuffer()))
}
