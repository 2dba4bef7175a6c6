/**
 * The loads of issue 41's table, as bench/stalls.ts drives them against a real server process: each
 * a function that runs its load to the end and answers a line on what the server said. Sizes are
 * the issue's at BENCH_TIME_SCALE=1 (Options.count scales them down for a quick run).
 */
import { readFileSync } from "node:fs"
import { createRequire } from "node:module"
import { connect } from "node:net"
import { deflateSync } from "node:zlib"
import * as Client from "./HttpClient.ts"
import * as Options from "./Options.ts"
import * as Remote from "./Remote.ts"
import type { RunningServer } from "./ServerProcess.ts"
import { statement } from "./Statement.ts"
import { pdfOfObjects } from "../../test/support/files.ts"

const nodemailer = createRequire(new URL("../../packages/server/package.json", import.meta.url))("nodemailer") as {
  createTransport: (options: Record<string, unknown>) => { sendMail: (message: Record<string, unknown>) => Promise<unknown>; close: () => void }
}
const pdf = readFileSync(new URL("../../test/fixtures/pdf/invoice2data_AmazonWebServices.pdf", import.meta.url))
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

export interface Target {
  readonly server: RunningServer
  readonly smtpPort: number
  /** The loading company's owner key, its bank account and its inbox address. */
  readonly ownerKey: string
  readonly bankAccountId: number
  readonly inbox: string
}

/** Sends `count` requests from `spec(index)`, `concurrency` at a time; answers the count of each status. */
const flood = async (server: RunningServer, count: number, concurrency: number, spec: (index: number) => Client.RequestSpec) => {
  const statuses = new Map<number, number>()
  let next = 0
  await Promise.all(Array.from({ length: concurrency }, async () => {
    while (next < count) {
      const index = next++
      const status = await Client.request(server.baseUrl, spec(index)).then((response) => response.status, () => 0)
      statuses.set(status, (statuses.get(status) ?? 0) + 1)
    }
  }))
  return [...statuses.entries()].sort().map(([status, times]) => `${times}x ${status}`).join(", ")
}

const mails = async (target: Target): Promise<string> => {
  const count = Options.count(12, 4)
  const bytes = Options.count(25 * 1024 * 1024, 1024 * 1024)
  const padding = "p".repeat(Math.floor(bytes * 0.72))
  const connections = Array.from({ length: 4 }, () =>
    nodemailer.createTransport({ host: Options.loopback, port: target.smtpPort, secure: false, ignoreTLS: true, name: "bench.test", connectionTimeout: 120_000 }))
  const outcomes: Array<string> = []
  await Promise.all(connections.map(async (connection, lane) => {
    for (let index = lane; index < count; index += 4) {
      const content = Buffer.concat([pdf, Buffer.from(`\n% ${Date.now()} ${index} ${padding}\n`)])
      outcomes.push(await connection.sendMail({
        from: "ap@vendor.example",
        to: target.inbox,
        subject: `Invoice ${index}`,
        text: "Attached.",
        headers: { "Authentication-Results": "mx.bench.test; spf=pass smtp.mailfrom=ap@vendor.example; dkim=pass; dmarc=pass" },
        attachments: [{ filename: `invoice-${index}.pdf`, content, contentType: "application/pdf" }]
      }).then(() => "250", (error: { responseCode?: number }) => String(error.responseCode ?? "error")))
    }
  }))
  for (const connection of connections) connection.close()
  return `${count} mails of ${Math.round(bytes / 1024 / 1024)} MB over 4 connections: ${outcomes.sort().join(" ")}`
}

/**
 * The deflated 100 MB of spaces, made once before the load starts (`prepare`): deflating it is
 * about half a second of this process's own thread, which the probes running here would count
 * as the server's (the first runs measured 1.9 s "p99" that was mostly this).
 */
let deflated: Buffer | null = null
const deflatedSpaces = (): Buffer => (deflated ??= deflateSync(new Uint8Array(100_000_000).fill(0x20)))

/** One deflated stream of 100 MB of spaces shown on 50 pages (test/reliability/stalls-inbox.test.ts builds the same). */
const bomb = (seed: number): Buffer => {
  const shared = deflatedSpaces()
  const bodies: Array<Buffer> = [
    Buffer.from("<< /Type /Catalog /Pages 2 0 R >>"),
    Buffer.from(`<< /Type /Pages /Kids [${Array.from({ length: 50 }, (_, index) => `${index + 4} 0 R`).join(" ")}] /Count 50 >>`),
    Buffer.concat([Buffer.from(`<< /Length ${shared.length} /Filter /FlateDecode >>\nstream\n`), shared, Buffer.from("\nendstream")]),
    ...Array.from({ length: 50 }, () => Buffer.from("<< /Type /Page /Parent 2 0 R /MediaBox [0 0 200 200] /Contents 3 0 R >>"))
  ]
  return Buffer.from(pdfOfObjects(bodies, `${seed}`))
}

let bombBodies: Array<string> = []
const prepareBombs = async () => {
  const stamp = Date.now()
  bombBodies = [0, 1, 2].map((index) => JSON.stringify({ file_name: `bomb-${index}.pdf`, content_base64: bomb(stamp + index).toString("base64") }))
}

const bombs = async (target: Target): Promise<string> => {
  const answers = await Promise.all(bombBodies.map((body) => Client.request(target.server.baseUrl, {
    method: "POST",
    path: "/v1/receipts",
    headers: Client.bearer(target.ownerKey, { "idempotency-key": Remote.newKey("bomb") }),
    body
  }, { timeoutMs: 600_000 })))
  return `3 deflate-bomb PDFs: ${answers.map((answer) => answer.status).join(", ")}`
}

const importCsv = (lines: number) => async (target: Target): Promise<string> => {
  const answer = await Client.request(target.server.baseUrl, {
    method: "POST",
    path: `/v1/bank-accounts/${target.bankAccountId}/imports`,
    headers: Client.bearer(target.ownerKey, { "idempotency-key": Remote.newKey("import") }),
    body: JSON.stringify({ format: "csv", content: statement("csv", lines), filename: `bench-${lines}.csv` })
  }, { timeoutMs: 600_000, agent: Client.agent(1) }).catch((error: Error) => ({ status: 0, text: error.message }))
  return `${lines.toLocaleString("en-US")}-line CSV: ${answer.status} ${answer.status >= 400 ? answer.text.slice(0, 80) : ""}`
}

/** Half the sockets with no credential, half with a token's form, each trickling its body a byte a second for `seconds`. */
const trickles = async (target: Target): Promise<string> => {
  const count = Options.count(1_500, 100)
  const seconds = Options.seconds(20, 5)
  const answers = new Map<string, number>()
  const sockets = Array.from({ length: count }, (_, index) => {
    const socket = connect(target.server.port, Options.loopback)
    let first = ""
    socket.on("data", (data) => (first ||= data.toString().slice(0, 12)))
    socket.on("error", () => undefined)
    socket.on("close", () => answers.set(first || "closed", (answers.get(first || "closed") ?? 0) + 1))
    socket.write(`POST /v1/accounts HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 400\r\n` +
      `${index % 2 === 0 ? "" : `Authorization: Bearer ldg_${"x".repeat(43)}\r\n`}\r\n`)
    return socket
  })
  for (let second = 0; second < seconds; second++) {
    await sleep(1_000)
    for (const socket of sockets) if (!socket.destroyed) socket.write("a")
  }
  const held = sockets.filter((socket) => !socket.destroyed).length
  for (const socket of sockets) socket.destroy()
  await sleep(200)
  return `${count} trickling sockets for ${seconds} s: ${held} still held at the end; answered ${[...answers.entries()].map(([line, times]) => `${times}x ${line.trim() || line}`).join(", ")}`
}

const registrations = async (target: Target): Promise<string> => {
  const count = Options.count(1_000, 100)
  return `${count} OAuth registrations from one address: ${await flood(target.server, count, 16, (index) => ({
    method: "POST",
    path: "/oauth/register",
    body: JSON.stringify({ client_name: `Flood ${index}`, redirect_uris: ["http://127.0.0.1:33418/callback"] })
  }))}`
}

const wrongKeys = async (target: Target): Promise<string> => {
  const count = Options.count(1_000, 100)
  return `${count} wrong keys from one address: ${await flood(target.server, count, 16, (index) => ({
    method: "GET",
    path: "/v1/accounts",
    headers: { authorization: `Bearer ldg_${String(index).padStart(43, "q")}` }
  }))}`
}

/** In the order of the issue's table, then the doors; `key` is what BENCH_LOADS names (bench/stalls.ts). */
export interface Load {
  readonly key: string
  readonly name: string
  /** Made before the probes start: what the load sends, when making it would hold this process. */
  readonly prepare?: () => Promise<void>
  readonly run: (target: Target) => Promise<string>
}

export const all: ReadonlyArray<Load> = [
  { key: "mail", name: "mail flood to a receipt inbox", run: mails },
  { key: "bombs", name: "deflate-bomb receipt PDFs", prepare: prepareBombs, run: bombs },
  { key: "csv-over-cap", name: "a CSV import one line over the cap", run: importCsv(200_001) },
  { key: "csv", name: "a big CSV import", run: importCsv(Options.count(100_000, 1_000)) },
  { key: "trickles", name: "sockets trickling bodies", run: trickles },
  { key: "registrations", name: "OAuth registration flood", run: registrations },
  { key: "wrong-keys", name: "wrong-key flood", run: wrongKeys }
]

/**
 * The loads BENCH_LOADS names (comma-separated keys of `all`, e.g. `mail,bombs`), in `all`'s
 * order; every load when it is unset. An unknown key is refused, so a typo never measures nothing.
 */
export const selected = (listed: string | undefined): typeof all => {
  const keys = (listed ?? "").split(",").map((key) => key.trim()).filter((key) => key !== "")
  if (keys.length === 0) return all
  const unknown = keys.filter((key) => !all.some((load) => load.key === key))
  if (unknown.length > 0) throw new Error(`BENCH_LOADS: unknown load ${unknown.join(", ")}; known: ${all.map((load) => load.key).join(", ")}`)
  return all.filter((load) => keys.includes(load.key))
}
