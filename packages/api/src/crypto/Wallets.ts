import { Schema } from "effect"
import { Id, Name, Page, PageQuery, Reason, Timestamp } from "../Common.ts"
import * as Operation from "../Operation.ts"
import * as Limits from "./Limits.ts"
import { Lot } from "./Lots.ts"
import { AccountCode, area, Asset, errors, IdPath, LotMethod, Rail, Units } from "./Shared.ts"

export const KeyKind = Schema.Literals(["extended_public_key", "descriptor", "address", "view_key"])
export const ScriptType = Schema.Literals(["p2pkh", "p2sh_p2wpkh", "p2wpkh", "p2tr", "monero", "token"])

export const Wallet = Schema.Struct({
  id: Id,
  rail: Rail,
  asset: Asset,
  name: Schema.String,
  key_kind: KeyKind,
  script_type: ScriptType,
  network: Schema.Literals(["mainnet", "testnet", "stagenet"]),
  key_fingerprint: Schema.String.annotate({ description: "The first 16 hex digits of SHA-256 of the key as given; the key itself is sealed and never shown." }),
  address: Schema.NullOr(Schema.String).annotate({ description: "The wallet's fixed address, or its first derived (receive) address." }),
  restore_height: Schema.NullOr(Schema.Int),
  lot_method: LotMethod,
  gap_limit: Schema.Int,
  next_index: Schema.Int.annotate({ description: "The next receive address index a quote takes." }),
  ledger_account: Schema.String,
  balance_units: Units,
  archived: Schema.Boolean,
  archive_reason: Schema.NullOr(Schema.String),
  archived_at: Schema.NullOr(Timestamp),
  created_at: Timestamp
}).annotate({ identifier: "CryptoWallet" })
export type Wallet = typeof Wallet.Type

export const WalletWithLots = Schema.Struct({ ...Wallet.fields, open_lots: Schema.Array(Lot) })
  .annotate({ identifier: "CryptoWalletWithLots" })

const secretErrors = [...errors, "crypto_secret_refused", "crypto_key_invalid", "crypto_sealer_not_configured"] as const

export const createCryptoWallet = Operation.make({
  id: "createCryptoWallet",
  method: "POST",
  path: "/v1/crypto/wallets",
  area,
  summary: "Add a watch-only wallet: an extended public key or output descriptor (btc), an address and view key (xmr), or an address (tokens).",
  description: "Seeds, private keys, extended private keys and spend keys are refused (crypto_secret_refused) by their form. " +
    "The key is sealed at rest. For the company's own owner or CPA; not an MCP tool.",
  scope: "admin",
  mode: "K",
  peopleOnly: true,
  signedIn: true,
  mcpTool: false,
  body: Schema.Struct({
    rail: Rail,
    name: Name,
    key: Schema.optionalKey(Schema.String.check(Schema.isMinLength(1), Schema.isMaxLength(Limits.keyLengthMax))),
    address: Schema.optionalKey(Schema.String.check(Schema.isMinLength(1), Schema.isMaxLength(Limits.keyLengthMax))),
    view_key: Schema.optionalKey(Schema.String.check(Schema.isMinLength(1), Schema.isMaxLength(Limits.keyLengthMax))),
    restore_height: Schema.optionalKey(Schema.Int.check(Schema.isBetween({ minimum: 0, maximum: Limits.restoreHeightMax }))),
    lot_method: Schema.optionalKey(LotMethod),
    gap_limit: Schema.optionalKey(Schema.Int.check(Schema.isBetween({ minimum: Limits.gapLimitMin, maximum: Limits.gapLimitMax }))),
    ledger_account: Schema.optionalKey(AccountCode)
  }),
  success: Wallet,
  errors: [...secretErrors, "unknown_account", "inactive_account", "step_up_required"]
})

export const listCryptoWallets = Operation.make({
  id: "listCryptoWallets",
  method: "GET",
  path: "/v1/crypto/wallets",
  area,
  summary: "Watch-only wallets.",
  scope: "read",
  mode: "R",
  query: Schema.Struct({ include_archived: Schema.optionalKey(Schema.Boolean), ...PageQuery }),
  errors: [...errors],
  success: Page(Wallet)
})

export const getCryptoWallet = Operation.make({
  id: "getCryptoWallet",
  method: "GET",
  path: "/v1/crypto/wallets/{id}",
  area,
  summary: "One wallet, with its open lots.",
  scope: "read",
  mode: "R",
  pathParams: IdPath,
  errors: [...errors],
  success: WalletWithLots
})

export const archiveCryptoWallet = Operation.make({
  id: "archiveCryptoWallet",
  method: "POST",
  path: "/v1/crypto/wallets/{id}/archive",
  area,
  summary: "Archive a wallet: no new quotes; its open quotes are cancelled. Its lots and history stay.",
  scope: "admin",
  mode: "K",
  status: 200,
  peopleOnly: true,
  signedIn: true,
  mcpTool: false,
  pathParams: IdPath,
  body: Schema.Struct({ reason: Reason }),
  success: Wallet,
  errors: [...errors, "crypto_wallet_archived", "step_up_required"]
})

export const setCryptoLotMethod = Operation.make({
  id: "setCryptoLotMethod",
  method: "POST",
  path: "/v1/crypto/wallets/{id}/lot-method",
  area,
  summary: "How disposals from this wallet pick lots: first in, first out, or specific identification.",
  scope: "admin",
  mode: "-",
  peopleOnly: true,
  signedIn: true,
  mcpTool: false,
  pathParams: IdPath,
  body: Schema.Struct({ lot_method: LotMethod }),
  success: Wallet,
  errors: [...errors, "crypto_wallet_archived", "step_up_required"]
})

export const operations = [
  listCryptoWallets,
  createCryptoWallet,
  getCryptoWallet,
  archiveCryptoWallet,
  setCryptoLotMethod
] as const
