import { createHash } from "node:crypto"
import { Layer } from "effect"
import { type All, TokenSealer } from "@ledger/engine/ports"
import * as FakeAggregator from "./fakes/FakeAggregator.ts"
import * as MemoryMail from "./fakes/MemoryMail.ts"

/**
 * The outside world of a test ledger: every provider Ledger talks to is a fake a test can script
 * and inspect, so nothing leaves the process and every run behaves the same.
 *
 * - `aggregator`: the bank-feed aggregator. Connect an institution, add, change, post and remove
 *   transactions, require a login, make the next call fail.
 * - `mail`: the mailbox emails are delivered to (by `ledger.runJobs()`): `sent` holds them;
 *   `failNext` scripts a failed delivery.
 *
 * Access tokens are sealed with a master key derived from the seed, so sealed values repeat too.
 */
export interface TestProviders {
  readonly aggregator: FakeAggregator.FakeAggregator
  readonly mail: MemoryMail.MemoryMail
  /** Every port, as one layer for the engine and its workers. */
  readonly layer: Layer.Layer<All>
}

/** 32 bytes from the seed: a master key that is the same on every run and never a real one. */
export const masterKeyOf = (seed: number): Uint8Array =>
  new Uint8Array(createHash("sha256").update(`ledger-testkit-master-key:${seed}`).digest())

export const make = (seed: number): TestProviders => {
  const aggregator = FakeAggregator.make()
  const mail = MemoryMail.make()
  return {
    aggregator,
    mail,
    layer: Layer.mergeAll(aggregator.layer, mail.layer, TokenSealer.layerFromKey(masterKeyOf(seed)))
  }
}
