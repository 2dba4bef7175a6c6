import { Effect } from "effect"
import { SqlClient } from "effect/sql"
import { ApiError, Crypto } from "@ledger/api"
import { requireCompanyId } from "../kernel/CompanyContext.ts"
import * as Handler from "../kernel/Handler.ts"
import * as Pagination from "../kernel/Pagination.ts"
import { RequestContext } from "../kernel/RequestContext.ts"
import * as Row from "../kernel/Row.ts"
import * as Actor from "../kernel/Actor.ts"
import * as StepUp from "../kernel/StepUp.ts"
import { TokenSealer } from "../ports/TokenSealer.ts"
import { AccountStore } from "../ledger/index.ts"
import * as Access from "./Access.ts"
import * as Keys from "./keys/Keys.ts"
import * as Rows from "./core/Rows.ts"
import { assetOfRail } from "./core/UnitRules.ts"
import * as WalletStore from "./WalletStore.ts"

/** Watch-only wallets: added (anything that can spend refused), listed, read with open lots, archived. */

const describeOrRefuse = (body: Keys.KeyInput) =>
  Effect.try({
    try: () => Keys.describe(body),
    catch: (error) =>
      error instanceof Keys.SecretRefused
        ? ApiError.fail("crypto_secret_refused", error.message, { field: error.field, recognised_as: error.what })
        : ApiError.fail("crypto_key_invalid", error instanceof Error ? error.message : "The key is not valid.")
  })

const ledgerAccountOf = Effect.fn("Wallets.ledgerAccountOf")(function*(company: string, code: string) {
  const account = (yield* AccountStore.accountsByCode(company, [code])).get(code)
  const issue = { path: ["body", "ledger_account"], message: `Account ${code} must be an active asset account.` }
  if (account === undefined) return yield* Effect.fail(ApiError.fail("unknown_account", `No account ${code}.`, { issues: [issue] }))
  if (!account.active || account.type !== "asset") return yield* Effect.fail(ApiError.fail("inactive_account", issue.message, { issues: [issue] }))
  return code
})

const create = Handler.make(Crypto.Wallets.createCryptoWallet, ({ body }) =>
  Effect.gen(function*() {
    yield* Access.requireOwnerOrCpa
    // Crypto wallets are a sensitive change (spec 5.5): a browser session needs a recent step-up (ADR 1507).
    yield* StepUp.requireStepUp
    const { company, settings } = yield* Access.requireEnabled
    const described = yield* describeOrRefuse(body)
    const sealer = yield* TokenSealer
    if (!sealer.configured) {
      return yield* Effect.fail(ApiError.fail("crypto_sealer_not_configured", "No master key is configured (LEDGER_MASTER_KEY): wallet keys cannot be sealed at rest."))
    }
    const sql = yield* SqlClient.SqlClient
    const request = yield* RequestContext
    const count = yield* sql<{ count: unknown }>`SELECT count(*) AS count FROM crypto_wallets WHERE company_id = ${company}`.pipe(Effect.orDie)
    if (Row.int(count[0]!.count) >= Crypto.Limits.walletsMax) {
      return yield* Effect.fail(ApiError.validationFailed(`A company may hold at most ${Crypto.Limits.walletsMax} wallets.`))
    }
    const duplicate = yield* sql`SELECT id FROM crypto_wallets WHERE company_id = ${company} AND rail = ${body.rail}
      AND key_fingerprint = ${described.fingerprint} AND NOT archived`.pipe(Effect.orDie)
    if (duplicate.length > 0) return yield* Effect.fail(ApiError.fail("conflict", "This wallet is already watched.", { wallet_id: Row.int(duplicate[0]!.id) }))
    const ledgerAccount = yield* ledgerAccountOf(company, body.ledger_account ?? settings.settlementAccount)
    const id = Row.int((yield* sql<{ id: unknown }>`SELECT nextval('ledger_ids') AS id`.pipe(Effect.orDie))[0]!.id)
    const sealed = yield* sealer.seal(JSON.stringify(described.material), WalletStore.boundTo(company, id))
    const rows = yield* sql<Record<string, unknown>>`INSERT INTO crypto_wallets ${sql.insert({
      company_id: company,
      id,
      rail: body.rail,
      asset: assetOfRail(body.rail),
      name: body.name,
      key_kind: described.keyKind,
      script_type: described.scriptType,
      network: described.network,
      sealed_key: sealed,
      key_fingerprint: described.fingerprint,
      address: described.firstAddress,
      restore_height: body.restore_height ?? null,
      lot_method: body.lot_method ?? "fifo",
      gap_limit: body.gap_limit ?? Crypto.Limits.gapLimitDefault,
      ledger_account: ledgerAccount,
      created_by: Actor.reference(request.actor),
      created_at: request.now
    })} RETURNING *`.pipe(Effect.orDie)
    return {
      body: Rows.wallet(rows[0]!, 0n),
      audit: { targetType: "crypto_wallet", targetId: id, details: { rail: body.rail, key_kind: described.keyKind, key_fingerprint: described.fingerprint } }
    }
  }))

const archive = Handler.make(Crypto.Wallets.archiveCryptoWallet, ({ path, body }) =>
  Effect.gen(function*() {
    yield* Access.requireOwnerOrCpa
    // Crypto wallets are a sensitive change (spec 5.5): a browser session needs a recent step-up (ADR 1507).
    yield* StepUp.requireStepUp
    const sql = yield* SqlClient.SqlClient
    const request = yield* RequestContext
    const company = yield* requireCompanyId
    yield* WalletStore.requireActive(yield* WalletStore.loadRow(company, path.id, true))
    const cancelled = yield* sql`UPDATE crypto_quotes SET status = 'cancelled' WHERE company_id = ${company} AND wallet_id = ${path.id}
      AND status = 'open' RETURNING id`.pipe(Effect.orDie)
    const rows = yield* sql<Record<string, unknown>>`UPDATE crypto_wallets SET archived = true, archive_reason = ${body.reason},
      archived_at = ${request.now} WHERE company_id = ${company} AND id = ${path.id} RETURNING *`.pipe(Effect.orDie)
    return {
      body: yield* WalletStore.show(company, rows[0]!),
      audit: { targetType: "crypto_wallet", targetId: path.id, reason: body.reason, details: { quotes_cancelled: cancelled.length } }
    }
  }))

const lotMethod = Handler.make(Crypto.Wallets.setCryptoLotMethod, ({ path, body }) =>
  Effect.gen(function*() {
    yield* Access.requireOwnerOrCpa
    // Crypto wallets are a sensitive change (spec 5.5): a browser session needs a recent step-up (ADR 1507).
    yield* StepUp.requireStepUp
    const sql = yield* SqlClient.SqlClient
    const company = yield* requireCompanyId
    yield* WalletStore.requireActive(yield* WalletStore.loadRow(company, path.id, true))
    const rows = yield* sql<Record<string, unknown>>`UPDATE crypto_wallets SET lot_method = ${body.lot_method}
      WHERE company_id = ${company} AND id = ${path.id} RETURNING *`.pipe(Effect.orDie)
    return { body: yield* WalletStore.show(company, rows[0]!), audit: { targetType: "crypto_wallet", targetId: path.id, details: { lot_method: body.lot_method } } }
  }))

export const handlers = [
  create,
  archive,
  lotMethod,
  Handler.make(Crypto.Wallets.listCryptoWallets, ({ query }) =>
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      const company = yield* requireCompanyId
      const limit = Pagination.limitOf(query)
      const after = yield* Pagination.afterId(query)
      const rows = yield* sql<Record<string, unknown>>`SELECT * FROM crypto_wallets WHERE company_id = ${company}
        ${query.include_archived === true ? sql`` : sql`AND NOT archived`} ${after === null ? sql`` : sql`AND id < ${after}`}
        ORDER BY id DESC LIMIT ${limit + 1}`.pipe(Effect.orDie)
      const balances = yield* WalletStore.balances(company, rows.map((row) => Row.int(row.id)))
      return { body: Pagination.page(rows, limit, (row) => Row.int(row.id), (row) => Rows.wallet(row, balances.get(Row.int(row.id)) ?? 0n)) }
    })),
  Handler.make(Crypto.Wallets.getCryptoWallet, ({ path }) =>
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      const company = yield* requireCompanyId
      const row = yield* WalletStore.loadRow(company, path.id)
      const lots = yield* sql<Record<string, unknown>>`SELECT * FROM crypto_lots WHERE company_id = ${company} AND wallet_id = ${path.id}
        AND remaining_units > 0 ORDER BY acquired_at, id`.pipe(Effect.orDie)
      return { body: { ...(yield* WalletStore.show(company, row)), open_lots: lots.map(Rows.lot) } }
    }))
]
