import { createServer, type Server } from "node:http"
import type { AddressInfo } from "node:net"

/**
 * The Web Connector's side of its SOAP protocol, for tests: envelopes as the connector sends them
 * (SOAP 1.1, namespace http://developer.intuit.com/), posted with a real HTTP client to a real
 * listening socket in front of the test app.
 */

const escape = (text: string) => text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;")
const unescape = (text: string) => text.replace(/&lt;/g, "<").replace(/&gt;/g, ">").replace(/&quot;/g, "\"").replace(/&amp;/g, "&")

export const envelope = (method: string, params: Record<string, string | number>) =>
  `<?xml version="1.0" encoding="utf-8"?><soap:Envelope xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" ` +
  `xmlns:xsd="http://www.w3.org/2001/XMLSchema" xmlns:soap="http://schemas.xmlsoap.org/soap/envelope/"><soap:Body>` +
  `<${method} xmlns="http://developer.intuit.com/">` +
  Object.entries(params).map(([name, value]) => `<${name}>${escape(String(value))}</${name}>`).join("") +
  `</${method}></soap:Body></soap:Envelope>`

/** Serves the app's fetch handler on a loopback port: the connector reaches it over real HTTP. */
export const listen = async (fetch: (request: Request) => Promise<Response>): Promise<{ url: string; close: () => Promise<void> }> => {
  const server: Server = createServer(async (incoming, outgoing) => {
    const chunks: Array<Buffer> = []
    for await (const chunk of incoming) chunks.push(chunk as Buffer)
    const headers = new Headers()
    for (const [name, value] of Object.entries(incoming.headers)) if (typeof value === "string") headers.set(name, value)
    const response = await fetch(new Request(`http://127.0.0.1${incoming.url}`, {
      method: incoming.method!,
      headers,
      ...(incoming.method === "GET" ? {} : { body: Buffer.concat(chunks) })
    }))
    outgoing.writeHead(response.status, Object.fromEntries(response.headers))
    outgoing.end(Buffer.from(await response.arrayBuffer()))
  })
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
  const { port } = server.address() as AddressInfo
  return { url: `http://127.0.0.1:${port}`, close: () => new Promise((resolve) => server.close(() => resolve())) }
}

/** The connector at `url`; `headers` go with every call (a test's `X-Forwarded-For`, to call from another address). */
export const connector = (url: string, headers: Readonly<Record<string, string>> = {}) => {
  const call = async (method: string, params: Record<string, string | number> = {}) => {
    const response = await globalThis.fetch(`${url}/qbwc`, {
      method: "POST",
      headers: { ...headers, "content-type": "text/xml; charset=utf-8", soapaction: `"http://developer.intuit.com/${method}"` },
      body: envelope(method, params)
    })
    const text = await response.text()
    if (response.status !== 200) throw new Error(`${method}: HTTP ${response.status} ${text}`)
    return text
  }
  const result = (method: string, text: string) => {
    const match = new RegExp(`<${method}Result>([\\s\\S]*)</${method}Result>`).exec(text)
    return match === null ? "" : match[1]!
  }
  return {
    raw: call,
    authenticate: async (user: string, password: string) => {
      const text = result("authenticate", await call("authenticate", { strUserName: user, strPassword: password }))
      const strings = [...text.matchAll(/<string>([\s\S]*?)<\/string>/g)].map((match) => unescape(match[1]!))
      return { ticket: strings[0] ?? "", status: strings[1] ?? "" }
    },
    sendRequestXML: async (ticket: string) =>
      unescape(result("sendRequestXML", await call("sendRequestXML", {
        ticket, strHCPResponse: "", strCompanyFileName: "C:\\Company Files\\Books.QBW", qbXMLCountry: "US", qbXMLMajorVers: 13, qbXMLMinorVers: 0
      }))),
    receiveResponseXML: async (ticket: string, response: string) =>
      Number(result("receiveResponseXML", await call("receiveResponseXML", { ticket, response, hresult: "", message: "" }))),
    getLastError: async (ticket: string) => unescape(result("getLastError", await call("getLastError", { ticket }))),
    closeConnection: async (ticket: string) => result("closeConnection", await call("closeConnection", { ticket })),
    serverVersion: async () => result("serverVersion", await call("serverVersion")),
    clientVersion: async () => result("clientVersion", await call("clientVersion", { strVersion: "2.3.0.215" }))
  }
}
