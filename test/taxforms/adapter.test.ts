import { createServer, type Server } from "node:http"
import { Effect } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { Ports } from "@ledger/engine"
import { InformationReturnsHttp } from "@ledger/server/adapters"

/** The filing provider's HTTP adapter against a provider on loopback. */

let server: Server
let base = ""
const received: Array<{ method: string; url: string; auth: string | undefined; body: any }> = []

beforeAll(async () => {
  server = createServer((request, response) => {
    const chunks: Array<Buffer> = []
    request.on("data", (chunk: Buffer) => chunks.push(chunk))
    request.on("end", () => {
      const body = chunks.length === 0 ? null : JSON.parse(Buffer.concat(chunks).toString())
      received.push({ method: request.method!, url: request.url!, auth: request.headers.authorization, body })
      const send = (status: number, value: unknown) => {
        response.writeHead(status, { "content-type": "application/json" })
        response.end(JSON.stringify(value))
      }
      if (request.url === "/irs/filings" && request.method === "POST") return send(200, { reference: "ref-1", status: "submitted" })
      if (request.url === "/irs/filings/ref-1") return send(200, { reference: "ref-1", status: "partially_accepted", receipt_id: "R-9", rejected_records: [3] })
      if (request.url === "/irs/tin-matches") return send(200, { result: "not_issued", reference: "tm-1" })
      if (request.url === "/irs/filings/down") return send(503, { error: "maintenance" })
      send(404, { error: "no such thing" })
    })
  })
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", () => resolve()))
  base = `http://127.0.0.1:${(server.address() as { port: number }).port}/irs`
})
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())))

const withFiler = <A, E>(use: (filer: Ports.InformationReturns["Service"]) => Effect.Effect<A, E>) =>
  Effect.gen(function*() {
    return yield* use(yield* Ports.InformationReturns)
  })

const run = <A, E>(effect: Effect.Effect<A, E, Ports.InformationReturns>) =>
  Effect.runPromise(Effect.result(effect.pipe(Effect.provide(InformationReturnsHttp.fromEnvironment({ LEDGER_TAX_FILING_URL: base, LEDGER_TAX_FILING_TOKEN: "secret-token" })!))))

describe("InformationReturnsHttp", () => {
  it("is configured only by LEDGER_TAX_FILING_URL", () => {
    expect(InformationReturnsHttp.fromEnvironment({})).toBeNull()
  })

  it("submits a file, reads the answer and matches a TIN", async () => {
    const submitted = await run(withFiler((filer) => filer.submit({
      companyId: "c", filingId: 7, provider: "partner_live", year: 2026, format: "fire", filename: "f.txt", content: "T2026", test: false
    })))
    expect(submitted).toMatchObject({ _tag: "Success", success: { reference: "ref-1", status: "submitted" } })
    expect(received.at(-1)).toMatchObject({ method: "POST", url: "/irs/filings", auth: "Bearer secret-token", body: { filing_id: 7, content: "T2026" } })
    const answer = await run(withFiler((filer) => filer.status("ref-1")))
    expect(answer).toMatchObject({ _tag: "Success", success: { status: "partially_accepted", receiptId: "R-9", rejectedRecords: [3] } })
    const match = await run(withFiler((filer) => filer.matchTin({ name: "A", tin: "123456789", tinType: "SSN" })))
    expect(match).toMatchObject({ _tag: "Success", success: { result: "not_issued" } })
  })

  it("a provider that is down is `unavailable`; a refusal is `refused`", async () => {
    const down = await run(withFiler((filer) => filer.status("down")))
    expect(down).toMatchObject({ _tag: "Failure", failure: { code: "unavailable" } })
    const unknown = await run(withFiler((filer) => filer.status("nope")))
    expect(unknown).toMatchObject({ _tag: "Failure", failure: { code: "refused" } })
  })
})
