import { createServer } from "node:http"
import type { AddressInfo } from "node:net"
import type { TestApp } from "./app.ts"

/**
 * The app on a loopback port, so a fake provider (a payment processor) sends its calls over real
 * HTTP: each request's exact body and headers are handed to the app (answers its base URL).
 * Unref'd: it ends with the test.
 */
export const listen = async (app: TestApp): Promise<string> => {
  const server = createServer((request, response) => {
    const chunks: Array<Buffer> = []
    request.on("data", (chunk: Buffer) => chunks.push(chunk))
    request.on("end", () => {
      const headers: Record<string, string> = {}
      for (const [name, value] of Object.entries(request.headers)) {
        if (typeof value === "string" && name !== "host" && name !== "content-length" && name !== "connection") headers[name] = value
      }
      const body = Buffer.concat(chunks).toString("utf8")
      app.call((request.method ?? "GET") as "GET" | "POST", request.url ?? "/", { headers, ...(body === "" ? {} : { rawBody: body }) })
        .then((answer) => response.writeHead(answer.status, { "content-type": "application/json" }).end(JSON.stringify(answer.body)))
        .catch((error: Error) => response.writeHead(500).end(error.message))
    })
  })
  server.unref()
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`
}
