import { Effect } from "effect"
import { SqlClient } from "effect/sql"
import { ApiError, Migrations } from "@ledger/api"
import * as Handler from "../kernel/Handler.ts"
import { EngineInfo } from "../kernel/EngineInfo.ts"
import { requireCompanyId } from "../kernel/CompanyContext.ts"
import { RequestContext } from "../kernel/RequestContext.ts"
import * as Actor from "../kernel/Actor.ts"
import * as Row from "../kernel/Row.ts"
import * as Common from "./Common.ts"
import * as Import from "./Import.ts"
import * as MigrationStore from "./MigrationStore.ts"
import * as TieoutRules from "./TieoutRules.ts"

const api = Migrations.Desktop

/** A GUID the Web Connector keeps per application, derived from the connection. */
const guid = (seed: string) => {
  const hex = Common.hash(seed)
  return `{${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20, 32)}}`.toUpperCase()
}

const xmlText = (text: string) => text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;")

const localHosts = new Set(["localhost", "127.0.0.1", "[::1]"])

/**
 * Where the Web Connector reaches the SOAP endpoint, from the deployment's public base URL
 * (LEDGER_BASE_URL): the Web Connector refuses an AppURL that is not https unless its host is
 * the machine itself, so any other http base is refused here rather than written into a file
 * that cannot work (ADR 1615).
 */
export const connectorUrls = (publicBaseUrl: string | null | undefined):
  | { readonly _tag: "Usable"; readonly appUrl: string; readonly supportUrl: string }
  | { readonly _tag: "Unusable"; readonly reason: string } => {
  if (publicBaseUrl === null || publicBaseUrl === undefined || publicBaseUrl === "") {
    return { _tag: "Unusable", reason: "This deployment does not know its public URL: set LEDGER_BASE_URL." }
  }
  let url: URL
  try {
    url = new URL(publicBaseUrl)
  } catch {
    return { _tag: "Unusable", reason: `LEDGER_BASE_URL (${publicBaseUrl.slice(0, 100)}) is not a URL.` }
  }
  const local = localHosts.has(url.hostname) || url.hostname.endsWith(".localhost")
  if (url.protocol !== "https:" && !(url.protocol === "http:" && local)) {
    return { _tag: "Unusable", reason: `The Web Connector needs https for ${url.hostname}: set LEDGER_BASE_URL to the https address of this deployment.` }
  }
  const base = `${url.origin}${url.pathname.replace(/\/+$/, "")}`
  return { _tag: "Usable", appUrl: `${base}${Common.soapPath}`, supportUrl: `${base}/` }
}

/** The connector file (.qwc): read-only, every 5 minutes, the connection's own (random) user name. */
export const qwc = (id: number, company: string, userName: string, urls: { readonly appUrl: string; readonly supportUrl: string }) => `<?xml version="1.0"?>
<QBWCXML>
  <AppName>Ledger migration ${id}</AppName>
  <AppID></AppID>
  <AppURL>${xmlText(urls.appUrl)}</AppURL>
  <AppDescription>Copies this company file's lists, transactions and balances into Ledger (read only).</AppDescription>
  <AppSupport>${xmlText(urls.supportUrl)}</AppSupport>
  <UserName>${xmlText(userName)}</UserName>
  <OwnerID>${guid(`owner:${company}`)}</OwnerID>
  <FileID>${guid(`file:${company}:${id}`)}</FileID>
  <QBType>QBFS</QBType>
  <Scheduler><RunEveryNMinutes>5</RunEveryNMinutes></Scheduler>
  <IsReadOnly>true</IsReadOnly>
</QBWCXML>
`

const wire = Effect.fn("Desktop.wire")(function*(company: string, row: Record<string, unknown>) {
  const request = yield* RequestContext
  return yield* MigrationStore.desktopWire(company, row, request.now)
})

const create = Handler.make(api.createDesktop, ({ body }) =>
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const request = yield* RequestContext
    const company = yield* requireCompanyId
    const password = yield* Common.randomToken(18)
    const downloadToken = yield* Common.randomToken(24)
    const userName = yield* Common.newUserName
    const rows = yield* sql<Record<string, unknown>>`INSERT INTO migration_connections ${sql.insert({
      company_id: company,
      source: "desktop",
      status: "created",
      as_of: body.as_of,
      include_tax_ids: body.include_tax_ids ?? false,
      user_name: userName,
      password_hash: Common.hash(password),
      download_token_hash: Common.hash(downloadToken),
      progress: JSON.stringify({ step: 0, iterator_id: null, steps: {} }),
      expires_at: Common.plusMinutes(request.now, Common.connectionDays * 24 * 60),
      created_by: Actor.reference(request.actor),
      created_at: request.now
    })} RETURNING *`.pipe(Effect.orDie)
    const connection = yield* wire(company, rows[0]!)
    return {
      body: { connection, user_name: userName, password, download_token: downloadToken, soap_url: Common.soapPath },
      audit: { targetType: "migration_connection", targetId: connection.id, details: { source: "desktop", as_of: body.as_of } }
    }
  }))

const downloadQwc = Handler.make(api.downloadQwc, ({ path, body }) =>
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const request = yield* RequestContext
    const company = yield* requireCompanyId
    const row = yield* MigrationStore.load(company, path.id, "desktop", true)
    yield* MigrationStore.requireOpen(row, request.now)
    if (row.download_token_hash === null || row.download_token_hash !== Common.hash(body.download_token)) {
      return yield* Effect.fail(ApiError.fail("download_token_invalid", "This download token is wrong or already used."))
    }
    // Checked before the single-use token is spent: a deployment to fix should not cost a new connection.
    const urls = connectorUrls((yield* EngineInfo).publicBaseUrl)
    if (urls._tag === "Unusable") return yield* Effect.fail(ApiError.fail("migration_connector_url_unusable", urls.reason))
    yield* sql`UPDATE migration_connections SET download_token_hash = NULL WHERE company_id = ${company} AND id = ${path.id}`.pipe(Effect.orDie)
    return {
      body: { file_name: `ledger-migration-${path.id}.qwc`, content_type: "application/xml", qwc: qwc(path.id, company, String(row.user_name), urls) },
      audit: { targetType: "migration_connection", targetId: path.id }
    }
  }))

const revoke = Handler.make(api.revokeDesktop, ({ path, body }) =>
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const request = yield* RequestContext
    const company = yield* requireCompanyId
    const row = yield* MigrationStore.load(company, path.id, "desktop", true)
    if (row.status === "revoked") return yield* Effect.fail(ApiError.fail("migration_connection_revoked", "This connection is already revoked."))
    yield* MigrationStore.wipe(company, path.id)
    const rows = yield* sql<Record<string, unknown>>`UPDATE migration_connections SET ${sql.update({
      status: "revoked", password_hash: null, download_token_hash: null, ticket_hash: null, revoked_at: request.now, revoke_reason: body.reason
    })} WHERE company_id = ${company} AND id = ${path.id} RETURNING *`.pipe(Effect.orDie)
    return { body: yield* wire(company, rows[0]!), audit: { targetType: "migration_connection", targetId: path.id, reason: body.reason } }
  }))

const unlock = Handler.make(api.unlockDesktop, ({ path }) =>
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const request = yield* RequestContext
    const company = yield* requireCompanyId
    const row = yield* MigrationStore.load(company, path.id, "desktop", true)
    yield* MigrationStore.requireOpen(row, request.now)
    if (row.status !== "locked") return yield* Effect.fail(ApiError.fail("migration_connection_not_locked", "This connection is not locked."))
    const rows = yield* sql<Record<string, unknown>>`UPDATE migration_connections SET status = CASE WHEN extracted IS NULL THEN 'created' ELSE 'extracted' END,
      failed_password_attempts = 0 WHERE company_id = ${company} AND id = ${path.id} RETURNING *`.pipe(Effect.orDie)
    return { body: yield* wire(company, rows[0]!), audit: { targetType: "migration_connection", targetId: path.id } }
  }))

export const tieoutBody = (row: Record<string, unknown>) => {
  if (row.tieout === null) return Effect.fail(ApiError.fail("bundle_not_ready", "The extraction has not finished: there is no bundle to tie out yet."))
  const tieout = Row.json<TieoutRules.Tieout>(row.tieout)
  return Effect.succeed({ connection_id: Row.int(row.id), ...tieout, markdown: TieoutRules.markdown(tieout) })
}

export const handlers = [
  create,
  Handler.make(api.listDesktop, ({ query }) =>
    Effect.gen(function*() {
      const company = yield* requireCompanyId
      const page = yield* MigrationStore.page(company, "desktop", query)
      return { body: { ...page, data: yield* Effect.forEach(page.data, (row) => wire(company, row)) } }
    })),
  Handler.make(api.getDesktop, ({ path }) =>
    Effect.gen(function*() {
      const company = yield* requireCompanyId
      return { body: yield* wire(company, yield* MigrationStore.load(company, path.id, "desktop")) }
    })),
  downloadQwc,
  Handler.make(api.desktopTieout, ({ path }) =>
    Effect.gen(function*() {
      const company = yield* requireCompanyId
      const row = yield* MigrationStore.load(company, path.id, "desktop")
      const { unresolved: _unresolved, balances: _balances, open_documents: _open, ...body } = yield* tieoutBody(row)
      return { body }
    })),
  revoke,
  unlock,
  Handler.make(api.importDesktop, ({ path }) =>
    Effect.gen(function*() {
      const request = yield* RequestContext
      const company = yield* requireCompanyId
      const row = yield* MigrationStore.load(company, path.id, "desktop", true)
      yield* MigrationStore.requireOpen(row, request.now)
      return yield* Import.run(company, row, "the desktop edition")
    }))
]
