import { useEffect, useState } from "react"
import { type Item, ledger, messageOf } from "../api.ts"
import { ErrorMessage, useAction } from "../useAction.tsx"

/**
 * Where the books' data comes from (issue 30): the integration connections with their last sync,
 * next scheduled sync and last error, and the desktop-edition migrations with their progress per
 * extraction step. While a sync or an extraction runs, the screen reads them again every few
 * seconds (at most `pollsMax` times), so progress shows without reloading.
 */

type Connection = Item<"listIntegrationConnections">
type Migration = Item<"listDesktopMigrationConnections">

const pollMs = 3_000
const pollsMax = 200
const listLimit = 25

const running = (connections: ReadonlyArray<Connection>, migrations: ReadonlyArray<Migration>) =>
  connections.some((connection) => connection.last_sync?.status === "queued" || connection.last_sync?.status === "running") ||
  migrations.some((migration) => migration.status === "extracting")

const label = (step: string) => step.replace(/_/g, " ")

/** Both lists, read on load and again every few seconds while something runs; "Sync now" queues a sync. */
const useSources = () => {
  const [connections, setConnections] = useState<ReadonlyArray<Connection> | null>(null)
  const [migrations, setMigrations] = useState<ReadonlyArray<Migration> | null>(null)
  const [error, setError] = useState<string | null>(null)
  const [polls, setPolls] = useState(0)
  const [status, setStatus] = useState<string | null>(null)
  const { busy, error: actionError, run } = useAction()

  const load = async () => {
    try {
      const [integrations, desktop] = await Promise.all([
        ledger.listIntegrationConnections({ limit: listLimit }),
        ledger.listDesktopMigrationConnections({ limit: listLimit })
      ])
      setConnections(integrations.data)
      setMigrations(desktop.data)
      setError(null)
    } catch (failure) {
      setError(messageOf(failure))
    }
  }

  useEffect(() => void load(), [])
  useEffect(() => {
    if (connections === null || migrations === null || !running(connections, migrations) || polls >= pollsMax) return
    const timer = setTimeout(() => {
      setPolls((count) => count + 1)
      void load()
    }, pollMs)
    return () => clearTimeout(timer)
  }, [connections, migrations, polls])

  const syncNow = (connection: Connection) =>
    void run(async () => {
      await ledger.syncIntegrationConnection({ id: connection.id })
      setStatus(`A sync of ${connection.account_name ?? connection.provider} is queued.`)
      setPolls(0)
      await load()
    })
  return { connections, migrations, error, status, busy, actionError, syncNow }
}

const Connections = (props: { readonly connections: ReadonlyArray<Connection>; readonly busy: boolean; readonly syncNow: (connection: Connection) => void }) => (
  <table>
    <caption>Integration connections</caption>
    <thead><tr><th scope="col">Connection</th><th scope="col">Health</th><th scope="col">Last sync</th><th scope="col">Next sync</th><th scope="col">Waiting</th><th scope="col">Sync</th></tr></thead>
    <tbody>
      {props.connections.map((connection) => (
        <tr key={connection.id}>
          <th scope="row">{connection.account_name ?? connection.provider} ({connection.status})</th>
          <td>{connection.health}{connection.last_error === null ? "" : `: ${connection.last_error}`}</td>
          <td>{connection.last_sync === null ? "never" : `${connection.last_sync.status}${connection.last_sync.finished_at === null ? "" : ` ${connection.last_sync.finished_at}`}`}</td>
          <td>{connection.next_sync_at ?? ""}</td>
          <td>{connection.proposals_waiting}</td>
          <td>{connection.status === "connected"
            ? <button type="button" disabled={props.busy} onClick={() => props.syncNow(connection)}>Sync now</button>
            : null}</td>
        </tr>
      ))}
    </tbody>
  </table>
)

const MigrationTable = ({ migration }: { readonly migration: Migration }) => (
  <table>
    <caption>Migration {migration.id} as of {migration.as_of}: {migration.status}</caption>
    <thead><tr><th scope="col">Step</th><th scope="col">State</th><th scope="col">Read</th><th scope="col">Left</th></tr></thead>
    <tbody>
      {migration.steps.map((step) => (
        <tr key={step.step}>
          <th scope="row">{label(step.step)}</th>
          <td>{step.status}</td>
          <td>{step.fetched}</td>
          <td>{step.remaining ?? ""}</td>
        </tr>
      ))}
    </tbody>
  </table>
)

export const Sources = () => {
  const { connections, migrations, error, status, busy, actionError, syncNow } = useSources()
  return (
    <section aria-labelledby="sources-title">
      <h1 id="sources-title">Integrations and migrations</h1>
      <p className="meta">Sales flowing in from connected providers, and books brought over from another package.</p>
      {status === null ? null : <p role="status">{status}</p>}
      {error === null ? null : <p role="alert" className="error">{error}</p>}
      <ErrorMessage error={actionError} />
      <h2>Connections</h2>
      {connections === null ? (error === null ? <p role="status">Loading…</p> : null) : connections.length === 0 ? <p>No provider is connected.</p> : (
        <Connections connections={connections} busy={busy} syncNow={syncNow} />
      )}
      <h2>Desktop-edition migrations</h2>
      {migrations === null ? null : migrations.length === 0 ? <p>No migration is under way.</p> : migrations.map((migration) => (
        <MigrationTable key={migration.id} migration={migration} />
      ))}
    </section>
  )
}
