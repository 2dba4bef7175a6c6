import { Crypto } from "@ledger/api"
import * as Area from "../pipeline/Area.ts"
import * as Lots from "./Lots.ts"
import * as Quotes from "./Quotes.ts"
import * as Receipts from "./Receipts.ts"
import * as Settings from "./Settings.ts"
import * as Remeasurements from "./Remeasurements.ts"
import * as Valuations from "./Valuations.ts"
import * as Wallets from "./Wallets.ts"
import * as Watch from "./Watch.ts"

/**
 * Crypto receipts (spec 3-endpoints-b 4.11): watch-only wallets, quotes customers pay on chain,
 * receipts the chain watcher sees, lots and realized gains, valuations and fair-value
 * remeasurement. Everything that posts goes through the ledger's governed path. docs/crypto.md.
 */
export const area = Area.make({
  name: "crypto",
  operations: Crypto.operations,
  handlers: [
    ...Settings.handlers,
    ...Wallets.handlers,
    ...Lots.handlers,
    ...Quotes.handlers,
    ...Receipts.handlers,
    ...Valuations.handlers,
    ...Remeasurements.handlers
  ],
  jobKinds: { [Watch.jobKind]: { run: () => Watch.run(), periodic: true } },
  events: Crypto.events
})

/** The chain watcher's run, for a server's workers, an embedder or a test (`Watch.scanCompany`). */
export * as Watch from "./Watch.ts"
