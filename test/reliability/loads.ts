import { randomBytes } from "node:crypto"
import { request as httpRequest } from "node:http"
import { connect } from "node:net"
import { Effect, Fiber, Layer } from "effect"
import { Config, Server } from "@ledger/server"
import { Template } from "@ledger/testkit"
import { freePort, withStore } from "../support/server-process.ts"
import { long } from "./scale.ts"

/**
 * The loads of issue 41's table, as permanent scenarios (test/reliability/stalls-*.test.ts): the
 * same `Server.serverLayer` as `ledger serve`, in this process on a real port (sockets, the body
 * deadline, the address bound and the inbox's SMTP listener are all real), on a clone of the
 * migrated PGlite template, or on a fresh PostgreSQL schema when DATABASE_URL is set. Each scenario
 * asserts answers and what is stored, never how long anything took (bench/stalls.ts measures that).
 */

/** Short in CI; `pnpm test:reliability --long` runs the issue's own sizes. */
export const loads = long
  ? { loris: 1_500, registrations: 1_000, wrongKeys: 1_000, mails: 12, mailBytes: 25 * 1024 * 1024, bombs: 3, importLines: 100_000 }
  : { loris: 48, registrations: 30, wrongKeys: 70, mails: 6, mailBytes: 256 * 1024, bombs: 3, importLines: 2_000 }

export interface Answer {
  readonly status: number
  readonly headers: Headers
  readonly body: any
}

export interface LoadServer {
  readonly url: string
  readonly port: number
  /** The inbox's SMTP listener, when the server was started with one. */
  readonly smtpPort: number | null
  readonly call: (method: "GET" | "POST", path: string, options?: { token?: string; body?: unknown; address?: string }) => Promise<Answer>
  readonly createCompany: (name: string) => Promise<{ readonly companyId: string; readonly ownerKey: string }>
  readonly stop: () => Promise<void>
}

let keys = 0

/** Starts the server with `environment` over the defaults here (trusted proxy: a test names each request's address). */
export const startLoadServer = async (environment: Record<string, string> = {}, options: { readonly smtp?: boolean } = {}): Promise<LoadServer> => {
  const port = await freePort()
  const smtpPort = options.smtp === true ? await freePort() : null
  const operatorToken = `operator-loads-${Math.random().toString(36).slice(2)}`
  const databaseUrl = process.env.DATABASE_URL === "" ? undefined : process.env.DATABASE_URL
  const searchPath = databaseUrl === undefined ? undefined : `loads_${Date.now().toString(36)}_${Math.random().toString(36).slice(2, 8)}`
  // The job workers are not what these loads are about, and would poll the store meanwhile.
  process.env.LEDGER_WORKERS = "off"
  const config = Config.fromEnvironment({
    PORT: String(port),
    HOST: "127.0.0.1",
    LEDGER_OPERATOR_TOKEN: operatorToken,
    LEDGER_TRUST_PROXY: "1",
    LEDGER_ACCESS_LOG: "off",
    LEDGER_SHUTDOWN_TIMEOUT_MS: "0",
    LEDGER_DATA_DIR: "memory",
    // Receipts are stored sealed: on PostgreSQL nothing else provides a key (PGlite's folder would).
    LEDGER_MASTER_KEY: randomBytes(32).toString("base64"),
    ...(databaseUrl === undefined ? {} : { DATABASE_URL: databaseUrl }),
    ...(smtpPort === null ? {} : { LEDGER_INBOUND_SMTP_PORT: String(smtpPort), LEDGER_INBOUND_AUTHSERV_ID: "mx.ledger.test" }),
    ...environment
  })
  const pglite = databaseUrl === undefined ? await Template.clone() : undefined
  const fiber = Effect.runFork(Layer.launch(Server.serverLayer(config, pglite === undefined ? { searchPath, maxConnections: 10 } : { pglite })))
  const url = `http://127.0.0.1:${port}`
  for (let tries = 0; ; tries++) {
    const healthy = await fetch(`${url}/health`).then((response) => response.status === 200, () => false)
    if (healthy) break
    if (tries > 1_200) throw new Error("the server did not answer /health within 120 s")
    await new Promise((resolve) => setTimeout(resolve, 100))
  }
  const call: LoadServer["call"] = (method, path, { token, body, address } = {}) =>
    send(port, method, path, {
      ...(token === undefined ? {} : { authorization: `Bearer ${token}` }),
      ...(method === "POST" ? { "content-type": "application/json", "idempotency-key": `loads-${process.pid}-${keys++}` } : {}),
      ...(address === undefined ? {} : { "x-forwarded-for": address })
    }, body === undefined ? undefined : JSON.stringify(body))
  const createCompany: LoadServer["createCompany"] = async (name) => {
    const made = await call("POST", "/v1/companies", { token: operatorToken, body: { name, owner_name: "Owner", plan: "owned" } })
    if (made.status !== 201) throw new Error(`company creation failed: ${made.status} ${JSON.stringify(made.body)}`)
    return { companyId: made.body.company.company_id, ownerKey: made.body.secret }
  }
  const stop = async () => {
    await Effect.runPromise(Fiber.interrupt(fiber))
    await pglite?.close()
    if (searchPath !== undefined) {
      await withStore({ databaseUrl }, (sql) => sql.unsafe(`DROP SCHEMA IF EXISTS ${searchPath} CASCADE`)).catch(() => undefined)
    }
  }
  return { url, port, smtpPort, call, createCompany, stop }
}

/**
 * A request on a connection of its own (no keep-alive: the server and these clients share one event
 * loop, and a socket the server closes as idle while a load holds the loop would be reused and
 * reset). The answer is taken even when it comes, and the connection closes, before the whole body
 * was sent (a refusal made while reading).
 */
const send = (port: number, method: string, path: string, headers: Record<string, string>, body?: string): Promise<Answer> =>
  new Promise((resolve, reject) => {
    let answered = false
    const outgoing = httpRequest({
      host: "127.0.0.1",
      port,
      path,
      method,
      agent: false,
      headers: { ...headers, ...(body === undefined ? {} : { "content-length": String(Buffer.byteLength(body)) }) }
    }, (response) => {
      answered = true
      const chunks: Array<Buffer> = []
      const done = () => {
        const text = Buffer.concat(chunks).toString()
        const answerHeaders = new Headers()
        for (const [name, value] of Object.entries(response.headers)) if (typeof value === "string") answerHeaders.set(name, value)
        resolve({ status: response.statusCode ?? 0, headers: answerHeaders, body: text === "" ? null : JSON.parse(text) })
      }
      response.on("data", (chunk: Buffer) => chunks.push(chunk))
      response.on("end", done)
      response.on("error", done)
    })
    outgoing.on("error", (error) => {
      if (!answered) reject(error)
    })
    outgoing.end(body)
  })

/** A POST with a body already in JSON, as `call` sends it. */
export const postText = (port: number, path: string, token: string, body: string): Promise<Answer> =>
  send(port, "POST", path, { authorization: `Bearer ${token}`, "content-type": "application/json", "idempotency-key": `loads-${process.pid}-${keys++}` }, body)

/** A raw HTTP request whose head (and `body`, if any) is sent and never finished; `answer` is what the server wrote before it closed. */
export const heldRequest = (port: number, head: string, body = "") => {
  const socket = connect(port, "127.0.0.1")
  let text = ""
  socket.on("data", (data) => (text += data.toString()))
  socket.on("error", () => undefined)
  const answer = new Promise<string>((done) => socket.on("close", () => done(text)))
  socket.write(head + body)
  return { socket, answer }
}

/** Resolves once `count` of `promises` have settled, with their values in the order they settled. */
export const firstSettled = <A>(promises: ReadonlyArray<Promise<A>>, count: number): Promise<Array<A>> =>
  new Promise((resolve) => {
    const settled: Array<A> = []
    if (count === 0) resolve(settled)
    for (const promise of promises) {
      void promise.then((value) => {
        settled.push(value)
        if (settled.length === count) resolve([...settled])
      })
    }
  })
