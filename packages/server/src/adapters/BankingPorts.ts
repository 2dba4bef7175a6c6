import { Layer } from "effect"
import { BankingPorts } from "@ledger/engine"
import * as MasterKey from "./MasterKey.ts"

/**
 * The banking ports a server provides to the engine: the token sealer over the master key. No
 * aggregator adapter can run offline, so a server has none unless one is given (`aggregator`, e.g.
 * the testkit's fake): bank-feed operations then answer 503 bank_feeds_not_configured while
 * everything else in banking works.
 */
export const layer = (
  options: MasterKey.Options & { readonly aggregator?: Layer.Layer<BankingPorts.Aggregator.Aggregator> | undefined }
) => {
  const sealer = BankingPorts.TokenSealer.layerFromKey(MasterKey.load(options).key)
  return options.aggregator === undefined ? sealer : Layer.merge(sealer, options.aggregator)
}
