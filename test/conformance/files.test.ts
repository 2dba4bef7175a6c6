import { createServer, type Server } from "node:http"
import type { AddressInfo } from "node:net"
import { Layer } from "effect"
import fc from "fast-check"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { Catalog, File, type Operation } from "@ledger/api"
import { createClient } from "@ledger/client"
import { FakeInformationReturns } from "@ledger/testkit"
import { Ports as ServerPorts, ReceiptPorts } from "@ledger/server/adapters"
import { connectMcp, isPdf, makeTestApp, newKey, type TestApp } from "../support/index.ts"
import { cases, ids, mileageCsv, pdfText, seed, text } from "./files-cases.ts"

/**
 * Files are files (issue 20 item 4, docs/decisions/0015-files-are-files.md): every operation that
 * declares files answers, over HTTP, the file itself with its media type and Content-Disposition,
 * chosen by `format` or `Accept`; its JSON envelope (format=base64, a JSON client, MCP) holds the
 * same bytes. The cases (files-cases.ts) are checked against the catalog, so a new file operation
 * without a case fails here. files-serve.test.ts checks the same of `ledger serve` itself.
 */

let app: TestApp
let server: Server
let base = ""
let owner = ""
const filer = FakeInformationReturns.make()

/** The in-process app behind a loopback HTTP server: requests and answers cross a real socket. */
const listen = (fetch: TestApp["fetch"]) =>
  new Promise<Server>((resolve) => {
    const bridge = createServer(async (incoming, outgoing) => {
      const chunks: Array<Buffer> = []
      for await (const chunk of incoming) chunks.push(chunk as Buffer)
      const headers = new Headers()
      for (const [name, value] of Object.entries(incoming.headers)) if (typeof value === "string") headers.set(name, value)
      const response = await fetch(new Request(`http://ledger.test${incoming.url}`, {
        method: incoming.method!,
        headers,
        ...(incoming.method === "GET" ? {} : { body: Buffer.concat(chunks) })
      }))
      const bytes = Buffer.from(await response.arrayBuffer())
      outgoing.writeHead(response.status, Object.fromEntries(response.headers))
      outgoing.end(bytes)
    })
    bridge.listen(0, "127.0.0.1", () => resolve(bridge))
  })

const get = async (path: string, headers: Record<string, string> = {}) => {
  const response = await fetch(`${base}${path}`, { headers: { authorization: `Bearer ${owner}`, ...headers } })
  return { status: response.status, headers: response.headers, bytes: new Uint8Array(await response.arrayBuffer()) }
}

const post = async (path: string, body: unknown) => {
  const result = await app.call("POST", path, { token: owner, key: newKey(), body })
  if (result.status >= 300) throw new Error(`${path}: ${result.status} ${JSON.stringify(result.body)}`)
  return result.body
}

beforeAll(async () => {
  const ports = ServerPorts.wire({ dataDir: "memory", appUrl: "https://books.example.test/" }).layer
  const receipts = ReceiptPorts.wire({ dataDir: "memory", environment: {} }, false).layer
  // A fixed clock: a PDF carries the request's time, so two requests of one PDF are the same bytes.
  app = await makeTestApp({ providers: Layer.mergeAll(ports, receipts, filer.layer), clock: "2026-04-01T12:00:00Z" })
  server = await listen(app.fetch)
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  const company = await app.createCompany({ name: "Files Co" })
  owner = company.ownerKey
  await seed(app, company.companyId, post)
}, 240_000)

afterAll(async () => {
  await new Promise<void>((resolve) => server.close(() => resolve()))
  await app.close()
})

const fileOperations = (Catalog.operations as ReadonlyArray<Operation.Any>).filter((operation) => operation.files !== undefined)

/** Checks one raw file answer and answers its bytes. */
const expectFile = async (path: string, type: string, headers: Record<string, string> = {}) => {
  const answer = await get(path, headers)
  expect(answer.status, `${path}: ${text(answer.bytes).slice(0, 300)}`).toBe(200)
  expect(File.essence(answer.headers.get("content-type") ?? "")).toBe(type)
  if (type.startsWith("text/")) expect(answer.headers.get("content-type")).toContain("charset=utf-8")
  expect(answer.headers.get("content-disposition")).toMatch(/^attachment; filename="[A-Za-z0-9._ -]+"/)
  expect(answer.headers.get("x-content-type-options")).toBe("nosniff")
  expect(Number(answer.headers.get("content-length"))).toBe(answer.bytes.byteLength)
  return answer
}

describe("files are files", () => {
  it("covers every operation of the catalog that declares files", () => {
    expect(Object.keys(cases).sort()).toEqual(fileOperations.map((operation) => operation.id).sort())
    for (const operation of fileOperations) {
      // A format the file is chosen by is a value the query takes, unless it is the default.
      const query = (operation.query as { fields?: Record<string, unknown> } | undefined)?.fields ?? {}
      for (const format of Object.keys(operation.files!.formats)) {
        if (format !== operation.files!.default) expect(Object.keys(query), `${operation.id} ${format}`).toContain("format")
      }
    }
  })

  for (const [id, test] of [...Object.entries(cases), ["getMileageLog (csv)", mileageCsv] as const]) {
    it(`${id}: the file itself, the same bytes as its JSON envelope`, async () => {
      const raw = await expectFile(test.path(), test.type)
      await test.check(raw.bytes)
      const envelope = await get(test.envelope(), test.envelope() === test.path() ? { accept: "application/json" } : {})
      expect(envelope.status).toBe(200)
      expect(envelope.headers.get("content-type")).toMatch(/^application\/json/)
      const file = File.read(JSON.parse(text(envelope.bytes)))
      expect(file, text(envelope.bytes).slice(0, 300)).not.toBeNull()
      if (test.drawnEachTime === true) {
        expect(isPdf(file!.bytes)).toBe(true)
        expect(await pdfText(file!.bytes)).toBe(await pdfText(raw.bytes))
      } else {
        expect(Buffer.from(file!.bytes).equals(Buffer.from(raw.bytes))).toBe(true)
      }
      expect(raw.headers.get("content-disposition")).toContain(File.asciiFilename(file!.filename))
    })
  }

  it("chooses the file by Accept when format is absent, and keeps JSON data otherwise", async () => {
    for (const [id, test] of Object.entries(cases)) {
      if (test.byAccept === undefined) continue
      const byAccept = await expectFile(test.byAccept(), test.type, { accept: test.type })
      await test.check(byAccept.bytes)
      const data = await get(test.byAccept(), { accept: "application/json" })
      expect(data.headers.get("content-type"), id).toMatch(/^application\/json/)
      expect(File.read(JSON.parse(text(data.bytes))), id).toBeNull()
    }
    // q-values: the preferred of two files wins.
    const preferred = await expectFile("/v1/mileage/log?year=2026", "text/csv", { accept: "application/pdf;q=0.5, text/csv" })
    expect(text(preferred.bytes)).toContain("Site visit")
  })

  it("answers refusals as JSON error bodies, even when a file was asked for", async () => {
    const missing = await get("/v1/documents/999999/pdf", { accept: "application/pdf" })
    expect(missing.status).toBe(404)
    expect(missing.headers.get("content-type")).toMatch(/^application\/json/)
    expect(JSON.parse(text(missing.bytes)).error.type).toBe("not_found")
    const badDate = await get("/v1/reports/trial-balance?as_of=nope&format=csv")
    expect(badDate.status).toBe(400)
    expect(JSON.parse(text(badDate.bytes)).error.type).toBe("invalid_request")
  })

  it("pages a CSV general ledger with a Link to the next page", async () => {
    const first = await expectFile("/v1/reports/general-ledger?from=2026-01-01&to=2026-03-31&format=csv&limit=1", "text/csv")
    const link = first.headers.get("link")
    expect(link).toMatch(/^<\/v1\/reports\/general-ledger\?.*cursor=[^>]+>; rel="next"$/)
    const next = await expectFile(/^<([^>]+)>/.exec(link!)![1]!, "text/csv")
    expect(text(next.bytes)).not.toBe(text(first.bytes))
  })

  it("names a file with non-ASCII characters in filename* (RFC 6266, 5987)", () => {
    expect(File.contentDisposition("invoice-INV-0001.pdf")).toBe('attachment; filename="invoice-INV-0001.pdf"')
    expect(File.contentDisposition("Überprüfung €.pdf")).toBe(
      "attachment; filename=\"_berpr_fung _.pdf\"; filename*=UTF-8''%C3%9Cberpr%C3%BCfung%20%E2%82%AC.pdf"
    )
    // No path, no quote, no line break reaches the header.
    expect(File.contentDisposition('../"evil"\r\n.pdf')).toBe('attachment; filename="__evil___.pdf"')
    expect(File.filenameOf(File.contentDisposition("Überprüfung €.pdf"))).toBe("Überprüfung €.pdf")
  })

  it("names any filename safely: one header line, an ASCII fallback, the name back from filename*", () => {
    fc.assert(fc.property(fc.string({ unit: "binary", maxLength: 300 }), (name) => {
      const header = File.contentDisposition(name)
      expect(header).toMatch(/^attachment; filename="[A-Za-z0-9._ -]+"(; filename\*=UTF-8''[A-Za-z0-9%._~!-]+)?$/)
      const back = File.filenameOf(header)!
      expect(back).not.toMatch(/[\u0000-\u001f"\\/]/)
      if (/^[^\u0000-\u001f\u007f"\\/.\s\ud800-\udfff][^\u0000-\u001f\u007f"\\/\ud800-\udfff]{0,150}$/.test(name)) expect(back).toBe(name)
    }))
  })

  it("chooses by format first, then by Accept, and keeps the envelope only for a JSON-only client", () => {
    const files = File.files({ formats: { csv: [File.mediaTypes.csv], pdf: [File.mediaTypes.pdf] } })
    fc.assert(fc.property(
      fc.constantFrom(undefined, "json", "csv", "pdf", "base64"),
      fc.constantFrom(null, "*/*", "application/json", "text/csv", "application/pdf;q=0.4, text/csv;q=0.9", "application/json, text/csv"),
      (format, accept) => {
        const choice = File.choose(files, format, accept)
        if (format !== undefined) expect(choice.format).toBe(format === "csv" || format === "pdf" ? format : null)
        if (format === undefined) expect(choice.format).toBe(accept?.includes("text/csv") === true ? "csv" : null)
        expect(choice.inject).toBe(format === undefined ? choice.format : null)
        // The envelope only when JSON is named and the chosen file's type is not.
        const named = accept?.includes(choice.format === "csv" ? "text/csv" : "application/pdf") === true
        if (choice.format !== null) expect(choice.raw).toBe(!(accept?.includes("application/json") === true && !named))
      }
    ))
  })

  it("describes each file's media types in OpenAPI beside the JSON envelope", async () => {
    const document = (await app.call("GET", "/openapi.json")).body
    for (const operation of fileOperations) {
      const status = Object.keys(operation.responses).find((key) => operation.responses[Number(key)] === operation.success)!
      const content = document.paths[operation.path][operation.method.toLowerCase()].responses[status].content
      expect(Object.keys(content).sort(), operation.id).toEqual([...File.mediaTypesOf(operation.files!), "application/json"].sort())
    }
  })

  it("an MCP tool call answers the JSON envelope: text for a CSV, base64 for a PDF", async () => {
    const mcp = await connectMcp(app, owner)
    try {
      const csv = await mcp.callTool({ name: "get_trial_balance", arguments: { as_of: "2026-03-31", format: "csv" } })
      expect(csv.isError).toBeFalsy()
      expect(csv.structuredContent).toMatchObject({ format: "csv", filename: "trial-balance-2026-03-31.csv" })
      expect((csv.structuredContent as { content: string }).content.split("\r\n")[0]).toBe("Code,Name,Type,Debit,Credit")
      const pdf = await mcp.callTool({ name: "get_document_pdf", arguments: { id: ids.invoice } })
      expect(pdf.isError).toBeFalsy()
      const file = File.read(pdf.structuredContent)
      expect(file?.mediaType).toBe("application/pdf")
      expect(isPdf(file!.bytes)).toBe(true)
      expect(JSON.parse((pdf.content as Array<{ text: string }>)[0]!.text)).toEqual(pdf.structuredContent)
    } finally {
      await mcp.close()
    }
  })

  it("the SDK's methods answer the envelope and download answers the bytes and filename", async () => {
    const client = createClient({ baseUrl: base, token: owner, retry: false })
    const envelope = await client.getDocumentPdf({ id: ids.invoice! })
    expect(envelope.content_type).toBe("application/pdf")
    const pdf = await client.download("getDocumentPdf", { id: ids.invoice! })
    expect(pdf.contentType).toBe("application/pdf")
    expect(pdf.filename).toBe(envelope.filename)
    expect(Buffer.from(pdf.bytes).equals(Buffer.from(envelope.content_base64, "base64"))).toBe(true)
    const csv = await client.download("getTrialBalance", { as_of: "2026-03-31", format: "csv" })
    expect(csv.filename).toBe("trial-balance-2026-03-31.csv")
    expect(new TextDecoder().decode(csv.bytes).split("\r\n")[0]).toBe("Code,Name,Type,Debit,Credit")
    await expect(client.download("getDocumentPdf", { id: 999_999 })).rejects.toMatchObject({ type: "not_found" })
  })
})
