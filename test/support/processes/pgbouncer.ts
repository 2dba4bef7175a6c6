import { type ChildProcess, execFileSync, spawn } from "node:child_process"
import { existsSync } from "node:fs"
import { chmod, mkdtemp, rm, writeFile } from "node:fs/promises"
import { connect } from "node:net"
import { tmpdir } from "node:os"
import path from "node:path"
import { freePort } from "../server-process.ts"

/**
 * Debian's PgBouncer (`apt-get install pgbouncer`; .ci/run installs it where it can), started by a
 * test in front of the PostgreSQL of DATABASE_URL, in transaction pooling: a server connection is
 * a client's for one transaction only. The pool is kept smaller than the server's own (20
 * connections), so consecutive statements of one client connection do land on different server
 * connections, as they would in production.
 */

const binaryCandidates = ["/usr/sbin/pgbouncer", "/usr/bin/pgbouncer"]

/** The pgbouncer binary, or null when it is not installed. */
export const binary = (): string | null => binaryCandidates.find((candidate) => existsSync(candidate)) ?? null

export interface PgBouncer {
  /** DATABASE_URL with its host and port replaced by PgBouncer's. */
  readonly url: (databaseUrl: string) => string
  readonly log: () => string
  readonly stop: () => Promise<void>
}

const portAnswers = (port: number) =>
  new Promise<boolean>((resolve) => {
    const socket = connect(port, "127.0.0.1")
    socket.once("connect", () => {
      socket.end()
      resolve(true)
    })
    socket.once("error", () => resolve(false))
  })

/** PgBouncer refuses to run as root: started as root, it switches to `postgres` itself (`-u`). */
const asUser = (): ReadonlyArray<string> => process.getuid?.() === 0 ? ["-u", "postgres"] : []

export const start = async (databaseUrl: string, poolSize = 4): Promise<PgBouncer> => {
  const pgbouncer = binary()
  if (pgbouncer === null) throw new Error("pgbouncer is not installed")
  const upstream = new URL(databaseUrl)
  const folder = await mkdtemp(path.join(tmpdir(), "ledger-pgbouncer-"))
  await chmod(folder, 0o777)
  const port = await freePort()
  const user = decodeURIComponent(upstream.username || "postgres")
  await writeFile(path.join(folder, "userlist.txt"), `"${user}" ""\n`)
  await writeFile(path.join(folder, "pgbouncer.ini"), [
    "[databases]",
    `* = host=${upstream.hostname} port=${upstream.port || "5432"}`,
    "[pgbouncer]",
    "listen_addr = 127.0.0.1",
    `listen_port = ${port}`,
    "unix_socket_dir =",
    "auth_type = trust",
    `auth_file = ${path.join(folder, "userlist.txt")}`,
    "pool_mode = transaction",
    `default_pool_size = ${poolSize}`,
    "max_client_conn = 200",
    ""
  ].join("\n"))
  if (process.getuid?.() === 0) execFileSync("chown", ["-R", "postgres", folder])
  const child: ChildProcess = spawn(pgbouncer, [...asUser(), path.join(folder, "pgbouncer.ini")], { stdio: ["ignore", "pipe", "pipe"] })
  let log = ""
  child.stdout!.on("data", (chunk: Buffer) => (log += chunk.toString()))
  child.stderr!.on("data", (chunk: Buffer) => (log += chunk.toString()))
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()))
  const deadline = Date.now() + 20_000
  while (!(await portAnswers(port))) {
    if (child.exitCode !== null || Date.now() > deadline) {
      child.kill("SIGKILL")
      await rm(folder, { recursive: true, force: true })
      throw new Error(`pgbouncer did not start:\n${log}`)
    }
    await new Promise((resolve) => setTimeout(resolve, 100))
  }
  return {
    url: (url) => {
      const through = new URL(url)
      through.hostname = "127.0.0.1"
      through.port = String(port)
      return through.toString()
    },
    log: () => log,
    stop: async () => {
      // SIGINT is PgBouncer's fast shutdown; SIGTERM's would wait for every client to leave.
      if (child.exitCode === null) child.kill("SIGINT")
      await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, 5_000))])
      if (child.exitCode === null) child.kill("SIGKILL")
      await rm(folder, { recursive: true, force: true })
    }
  }
}
