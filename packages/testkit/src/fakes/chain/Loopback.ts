import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http"
import type { AddressInfo } from "node:net"

// The loopback HTTP server the chain fakes and the price fake answer on.

export type Json = Record<string, any>

export const json = (response: ServerResponse, status: number, body: unknown) =>
  response.writeHead(status, { "content-type": "application/json" }).end(typeof body === "string" ? body : JSON.stringify(body))

export const readBody = (request: IncomingMessage): Promise<string> =>
  new Promise((resolve) => {
    const chunks: Array<Buffer> = []
    request.on("data", (chunk: Buffer) => chunks.push(chunk))
    request.on("end", () => resolve(Buffer.concat(chunks).toString("utf8")))
  })

/** A loopback HTTP server, started on first use. */
export const loopback = (handle: (request: IncomingMessage, response: ServerResponse) => Promise<unknown>) => {
  let server: Server | null = null
  let started: Promise<string> | null = null
  return {
    start: () =>
      started ??= new Promise<string>((resolve) => {
        server = createServer((request, response) => {
          handle(request, response).catch((error: unknown) => json(response, 500, { error: String(error) }))
        })
        server.unref()
        server.listen(0, "127.0.0.1", () => resolve(`http://127.0.0.1:${(server!.address() as AddressInfo).port}`))
      }),
    close: () => new Promise<void>((resolve) => server === null ? resolve() : server.close(() => resolve()))
  }
}
