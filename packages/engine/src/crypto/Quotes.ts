import { Effect } from "effect"
import { SqlClient } from "effect/sql"
import { ApiError, Crypto } from "@ledger/api"
import * as Actor from "../kernel/Actor.ts"
import { requireCompanyId } from "../kernel/CompanyContext.ts"
import * as Handler from "../kernel/Handler.ts"
import { RequestContext } from "../kernel/RequestContext.ts"
import * as Access from "./Access.ts"
import * as ReceiptStore from "./ReceiptStore.ts"
import { type Asset, unitsFor } from "./core/UnitRules.ts"
import * as Prices from "./core/Prices.ts"
import * as WalletStore from "./WalletStore.ts"

/**
 * Quotes (the two operations spec 4.11 leaves "not shown", docs/decisions/1501): an open invoice
 * priced in an asset, at a fresh address of the wallet, valid `quote_minutes`. The amount is
 * rounded up to the smallest unit so that paying it pays the invoice.
 */

const create = Handler.make(Crypto.Receipts.createCryptoQuote, ({ body }) =>
  Effect.gen(function*() {
    const { company, settings } = yield* Access.requireEnabled
    const sql = yield* SqlClient.SqlClient
    const request = yield* RequestContext
    const invoice = yield* ReceiptStore.invoice(company, body.document_id, ["body", "document_id"])
    if (invoice.openCents <= 0) return yield* Effect.fail(ApiError.fail("crypto_quote_state", `Invoice ${invoice.number} has nothing left to pay.`))
    const amount = body.amount_cents ?? invoice.openCents
    if (amount > invoice.openCents) {
      return yield* Effect.fail(ApiError.validationFailed("More than the invoice's open balance.", [{ path: ["body", "amount_cents"], message: `At most ${invoice.openCents}.` }]))
    }
    const wallet = yield* WalletStore.requireActive(yield* WalletStore.loadRow(company, body.wallet_id, true))
    if (wallet.key_kind === "address") {
      const open = yield* sql`SELECT id FROM crypto_quotes WHERE company_id = ${company} AND wallet_id = ${body.wallet_id}
        AND status = 'open' AND expires_at > ${request.now}`.pipe(Effect.orDie)
      if (open.length > 0) {
        return yield* Effect.fail(ApiError.fail("crypto_quote_state", "This wallet watches one address and has an open quote; payments to it could not be told apart.", {
          quote_id: Number(open[0]!.id)
        }))
      }
    }
    const asset = wallet.asset as Asset
    const { price } = yield* Prices.priceAt(asset, request.now)
    const units = unitsFor(amount, price, asset)
    if (units === null || units === 0n) return yield* Effect.fail(ApiError.fail("crypto_price_unavailable", `The price of ${asset} is zero.`))
    const { address, index } = yield* WalletStore.nextAddress(company, wallet)
    const expiresAt = new Date(Date.parse(request.now) + settings.quoteMinutes * 60_000).toISOString()
    const rows = yield* sql<Record<string, unknown>>`INSERT INTO crypto_quotes ${sql.insert({
      company_id: company, wallet_id: body.wallet_id, document_id: invoice.id, asset, address, address_index: index, amount_cents: amount, price,
      amount_units: units.toString(), expires_at: expiresAt, status: "open", created_by: Actor.reference(request.actor), created_at: request.now
    })} RETURNING *`.pipe(Effect.orDie)
    const quote = ReceiptStore.quoteOf(rows[0]!, request.now)
    return { body: quote, audit: { targetType: "crypto_quote", targetId: quote.id, details: { document_id: invoice.id, amount_cents: amount, price } } }
  }))

export const handlers = [
  create,
  Handler.make(Crypto.Receipts.getCryptoQuote, ({ path }) =>
    Effect.gen(function*() {
      const company = yield* requireCompanyId
      const request = yield* RequestContext
      return { body: ReceiptStore.quoteOf(yield* ReceiptStore.loadQuote(company, path.id), request.now) }
    }))
]
