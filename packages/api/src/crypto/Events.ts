import * as Event from "../Event.ts"

/** Crypto receipts' events (ADR 2010: beyond spec 6.1's list, subscribable like them). */
export const events = Event.declare({
  "crypto.receipt_seen": { emittedBy: "The chain watcher seeing a payment to a watched wallet (its periodic job)." },
  "crypto.receipt_confirmed": { emittedBy: "The chain watcher, when a receipt reaches the confirmations the crypto settings ask." },
  "crypto.receipt_assigned": { emittedBy: "assignCryptoReceipt assigning a confirmed receipt to an invoice or an account (not ignoring it)." },
  "crypto.disposal_recorded": { emittedBy: "recordCryptoDisposal: a sale, a fee, a spend or a transfer between wallets." },
  "crypto.remeasured": { emittedBy: "createCryptoRemeasurement: the fair-value adjustment at a period end and its reversal the next day." }
})
