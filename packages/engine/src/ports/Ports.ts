import { Layer } from "effect"
import { Aggregator } from "./Aggregator.ts"
import { Mail } from "./Mail.ts"
import { TokenSealer } from "./TokenSealer.ts"

/**
 * Every outside dependency is a port: a `Context.Service` the engine (or its workers) requires and
 * a deployment provides, with a real adapter in @ledger/server, a fake in @ledger/testkit, and an
 * explicit unconfigured layer for a deployment that has none (its operations answer a 503 whose
 * type says what to configure). Randomness (`Entropy`) and time (Effect's `Clock`) are ports too,
 * but the engine layer provides them itself: every deployment has them.
 */

/** The ports the engine's handlers use: `Ledger.layer` requires them, so its type names them. */
export type Engine = Aggregator | TokenSealer

/** Every port a server provides: the engine's, and the mail its workers deliver with. */
export type All = Engine | Mail

/** Nothing configured: bank feeds answer 503 `bank_feeds_not_configured`, emails wait for SMTP. */
export const layerUnconfigured: Layer.Layer<All> = Layer.mergeAll(
  Aggregator.layerUnconfigured,
  TokenSealer.layerUnconfigured,
  Mail.layerUnconfigured
)
