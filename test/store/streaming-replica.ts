import { execFile } from "node:child_process"
import { existsSync, readdirSync } from "node:fs"
import { appendFile, chmod, chown, mkdtemp, readFile, rm } from "node:fs/promises"
import { createServer } from "node:net"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { promisify } from "node:util"

/**
 * A PostgreSQL primary and a streaming replica of it, made with PostgreSQL's own tools for a test
 * (issue 43 item 6): `initdb` a primary in a temporary folder on a free port (WAL for replicas,
 * trust for local connections and replication), `pg_basebackup -R` a standby from it, and start
 * both with `pg_ctl`. PostgreSQL refuses to run as root: as root the tools run as `postgres`
 * (runuser) over folders it owns. `stop` ends both and deletes their folders.
 */

const run = promisify(execFile)

export interface StreamingReplica {
  readonly primaryUrl: string
  readonly standbyUrl: string
  /** Runs SQL on the standby through psql, as the test's own window onto it. */
  readonly onStandby: (statement: string) => Promise<string>
  /** The standby's log: it logs every statement with the connection's application name. */
  readonly standbyLog: () => Promise<string>
  readonly stop: () => Promise<void>
}

/** The folder of PostgreSQL's server binaries (the newest under /usr/lib/postgresql), or why there is none. */
export const binaries = (): { readonly dir: string } | { readonly missing: string } => {
  const given = process.env.LEDGER_PG_BIN
  if (given !== undefined && given !== "") return existsSync(join(given, "initdb")) ? { dir: given } : { missing: `no initdb in LEDGER_PG_BIN=${given}` }
  const root = "/usr/lib/postgresql"
  const versions = existsSync(root) ? readdirSync(root).filter((name) => /^\d+$/.test(name)).sort((a, b) => Number(b) - Number(a)) : []
  for (const version of versions) {
    const dir = join(root, version, "bin")
    if (["initdb", "pg_ctl", "pg_basebackup", "postgres", "psql"].every((tool) => existsSync(join(dir, tool)))) return { dir }
  }
  return { missing: "no PostgreSQL server binaries (initdb, pg_ctl, pg_basebackup) under /usr/lib/postgresql; set LEDGER_PG_BIN" }
}

const freePort = () =>
  new Promise<number>((resolve, reject) => {
    const server = createServer()
    server.once("error", reject)
    server.listen(0, "127.0.0.1", () => {
      const address = server.address()
      server.close(() => typeof address === "object" && address !== null ? resolve(address.port) : reject(new Error("no port")))
    })
  })

const asRoot = process.getuid?.() === 0

/** The postgres user's ids, to hand it the folders when we are root. */
const postgresIds = async () => {
  const [uid, gid] = await Promise.all([run("id", ["-u", "postgres"]), run("id", ["-g", "postgres"])])
  return { uid: Number(uid.stdout.trim()), gid: Number(gid.stdout.trim()) }
}

export const start = async (): Promise<StreamingReplica> => {
  const found = binaries()
  if ("missing" in found) throw new Error(found.missing)
  const tool = (name: string, args: ReadonlyArray<string>) =>
    asRoot ? run("runuser", ["-u", "postgres", "--", join(found.dir, name), ...args]) : run(join(found.dir, name), [...args])
  const base = await mkdtemp(join(tmpdir(), "ledger-replica-"))
  const primaryDir = join(base, "primary")
  const standbyDir = join(base, "standby")
  let started: Array<string> = []
  const stop = async () => {
    for (const dir of [...started].reverse()) await tool("pg_ctl", ["-D", dir, "-m", "immediate", "-w", "stop"]).catch(() => undefined)
    started = []
    await rm(base, { recursive: true, force: true })
  }
  try {
    if (asRoot) {
      const ids = await postgresIds()
      await chown(base, ids.uid, ids.gid)
    }
    await chmod(base, 0o700)
    const [primaryPort, standbyPort] = [await freePort(), await freePort()]
    await tool("initdb", ["-D", primaryDir, "-U", "postgres", "--auth=trust", "--no-sync", "-E", "UTF8", "--no-instructions"])
    // Sockets in the test's folder; fsync off (a test's database need not survive a crash).
    const settings = [
      `port = ${primaryPort}`,
      "listen_addresses = '127.0.0.1'",
      `unix_socket_directories = '${base}'`,
      "wal_level = replica",
      "max_wal_senders = 4",
      "fsync = off",
      "shared_buffers = 16MB",
      "max_connections = 40"
    ]
    await appendFile(join(primaryDir, "postgresql.conf"), `\n${settings.join("\n")}\n`)
    await tool("pg_ctl", ["-D", primaryDir, "-l", join(base, "primary.log"), "-w", "-t", "60", "start"])
    started.push(primaryDir)
    await tool("pg_basebackup", ["-h", "127.0.0.1", "-p", String(primaryPort), "-U", "postgres", "-D", standbyDir, "-R", "-X", "stream", "-c", "fast"])
    // Every statement the standby runs is logged with its application name: what proves a report read it.
    await appendFile(join(standbyDir, "postgresql.conf"), `\nport = ${standbyPort}\nhot_standby = on\nlog_statement = 'all'\nlog_line_prefix = '[%a] '\n`)
    await tool("pg_ctl", ["-D", standbyDir, "-l", join(base, "standby.log"), "-w", "-t", "60", "start"])
    started.push(standbyDir)
    const onStandby = async (statement: string) =>
      (await tool("psql", ["-h", "127.0.0.1", "-p", String(standbyPort), "-U", "postgres", "-d", "postgres", "-At", "-c", statement])).stdout.trim()
    return {
      primaryUrl: `postgres://postgres@127.0.0.1:${primaryPort}/postgres`,
      standbyUrl: `postgres://postgres@127.0.0.1:${standbyPort}/postgres`,
      onStandby,
      standbyLog: () => readFile(join(base, "standby.log"), "utf8"),
      stop
    }
  } catch (error) {
    await stop()
    throw error
  }
}
