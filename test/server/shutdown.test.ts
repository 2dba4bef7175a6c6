import { connect, type Socket } from "node:net"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { Config } from "@ledger/server"
import { freshStore, type RunningServer, startServer, type Store } from "../support/server-process.ts"

/**
 * `ledger serve` stops promptly and cleanly (docs/operations.md, Stopping): a socket that never
 * sends a whole request holds the stop only for LEDGER_SHUTDOWN_TIMEOUT_MS, not the HTTP
 * platform's 20 s; the stop we asked for exits 0; a second signal exits at once; a request in
 * flight is still answered. The deadlines below are generous bounds well under the old 20 s wait,
 * not timings.
 */

let store: Store
const sockets: Array<Socket> = []

beforeAll(async () => {
  store = await freshStore()
}, 300_000)

afterAll(async () => {
  for (const socket of sockets) socket.destroy()
  await store.remove()
})

const openSocket = (url: string) =>
  new Promise<Socket>((resolve, reject) => {
    const { hostname, port } = new URL(url)
    const socket = connect(Number(port), hostname, () => resolve(socket))
    socket.once("error", reject)
    sockets.push(socket)
  })

/** The exit code, or a failure if the process is still running after `ms`. */
const exitWithin = (server: RunningServer, ms: number) =>
  new Promise<number | null>((resolve, reject) => {
    if (server.process.exitCode !== null) return resolve(server.process.exitCode)
    const timer = setTimeout(() => reject(new Error(`ledger serve still running ${ms} ms after the signal:\n${server.output()}`)), ms)
    server.process.once("exit", (code) => {
      clearTimeout(timer)
      resolve(code)
    })
  })

const untilOutput = async (server: RunningServer, text: string) => {
  while (!server.output().includes(text)) await new Promise((resolve) => setTimeout(resolve, 20))
}

describe("ledger serve stopping", () => {
  it("refuses a malformed LEDGER_SHUTDOWN_TIMEOUT_MS and defaults to 5000", () => {
    for (const text of ["abc", "-1", "1.5", "600001"]) {
      expect(() => Config.fromEnvironment({ LEDGER_SHUTDOWN_TIMEOUT_MS: text }, 8 * 2 ** 30)).toThrow(/LEDGER_SHUTDOWN_TIMEOUT_MS/)
    }
    expect(Config.fromEnvironment({}, 8 * 2 ** 30).shutdownTimeoutMs).toBe(5_000)
    expect(Config.fromEnvironment({ LEDGER_SHUTDOWN_TIMEOUT_MS: "0" }, 8 * 2 ** 30).shutdownTimeoutMs).toBe(0)
  })

  it("answers a request in flight when SIGTERM arrives", async () => {
    const server = await startServer(store, { LEDGER_SHUTDOWN_TIMEOUT_MS: "30000" })
    try {
      const socket = await openSocket(server.url)
      let answer = ""
      socket.on("data", (chunk: Buffer) => (answer += chunk.toString()))
      const closed = new Promise<void>((resolve) => socket.once("close", () => resolve()))
      socket.write("GET /health HTTP/1.1\r\nHost: ledger\r\n")
      server.process.kill("SIGTERM")
      await untilOutput(server, "Stopping (SIGTERM)")
      socket.write("\r\n")
      await closed
      expect(answer).toMatch(/^HTTP\/1\.1 200 /)
      expect(await exitWithin(server, 60_000)).toBe(0)
      expect(server.output()).toContain("Ledger stopped.")
    } finally {
      await server.kill()
    }
  }, 300_000)

  it("closes a silent socket after LEDGER_SHUTDOWN_TIMEOUT_MS and exits 0", async () => {
    const server = await startServer(store, { LEDGER_SHUTDOWN_TIMEOUT_MS: "500" })
    try {
      const silent = await openSocket(server.url)
      const halfHeader = await openSocket(server.url)
      halfHeader.write("GET /health HTTP/1.1\r\nHost: led")
      const closed = Promise.all([silent, halfHeader].map((socket) => new Promise<void>((resolve) => socket.once("close", () => resolve()))))
      server.process.kill("SIGTERM")
      // The old wait was 20 s for the silent socket: 10 s can only pass with the bound.
      expect(await exitWithin(server, 10_000)).toBe(0)
      await closed
      expect(server.output()).toContain("Ledger stopped.")
    } finally {
      await server.kill()
    }
  }, 300_000)

  it("exits at once, 130, on a second signal while a socket holds the stop", async () => {
    const server = await startServer(store, { LEDGER_SHUTDOWN_TIMEOUT_MS: "600000" })
    try {
      const held = await openSocket(server.url)
      held.write("GET /health HTTP/1.1\r\n")
      server.process.kill("SIGTERM")
      await untilOutput(server, "Stopping (SIGTERM)")
      server.process.kill("SIGTERM")
      expect(await exitWithin(server, 10_000)).toBe(130)
      expect(server.output()).toContain("SIGTERM again")
    } finally {
      await server.kill()
    }
  }, 300_000)
})
