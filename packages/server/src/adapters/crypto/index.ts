/**
 * The crypto rails' real adapters and their wiring (docs/crypto.md, ADR 1506):
 *
 * - Bitcoin: an Esplora HTTP API (`LEDGER_ESPLORA_URL`, e.g. a self-hosted electrs/esplora), every
 *   page of an address's transactions up to a bound.
 * - Monero: a `monero-wallet-rpc` (`LEDGER_MONERO_WALLET_RPC_URL`, HTTP digest login
 *   `LEDGER_MONERO_WALLET_RPC_LOGIN=user:password` when it runs with `--rpc-login`): a view-only
 *   wallet made from the primary address and view key, its incoming transfers by subaddress index.
 * - Tokens: ERC-20 `Transfer` logs over EVM JSON-RPC (`eth_getLogs`, `eth_blockNumber`), for
 *   `usdc_ethereum`/`usdt_ethereum` (`LEDGER_ETHEREUM_RPC_URL`), `usdc_base` (`LEDGER_BASE_RPC_URL`)
 *   and `usdt_tron` (`LEDGER_TRON_RPC_URL`, TRON's Ethereum-compatible JSON-RPC, TRC-20 being
 *   ERC-20 logs); `usdc_solana` through Solana's JSON-RPC token balances (`LEDGER_SOLANA_RPC_URL`).
 * - Prices: `GET <LEDGER_CRYPTO_PRICES_URL>/price?asset=BTC&at=<ISO>` answering `{"price": "64250.12"}`.
 *
 * A rail left unset is not watched; no price source answers 503 `crypto_price_unavailable`.
 */

export { esplora, esploraPageSize, esploraPagesMax } from "./Esplora.ts"
export { contracts, type EvmOptions, evmCallsMax, evmTokens, type TokenRail, transferTopic, tronToHex } from "./Evm.ts"
export { addressesMax } from "./Http.ts"
export { digestAuthorization } from "./JsonRpc.ts"
export { moneroWalletRpc } from "./MoneroWalletRpc.ts"
export { httpPrices } from "./Prices.ts"
export { solanaAccountsMax, solanaSignaturesMax, solanaUsdc, solanaUsdcMint } from "./Solana.ts"
export { chainOf, combine, type Options, wire } from "./Wiring.ts"
