import * as Event from "../Event.ts"

/** The ledger's events (spec 6.1): what the books, proposals and periods tell a webhook endpoint. */
export const events = Event.declare({
  "entry.posted": {
    emittedBy: "Every journal entry posted: postJournalEntry, an approved proposal, and the entry behind a posted invoice, bill, credit, receipt, refund, payment or any other area's posting."
  },
  "entry.reversed": {
    emittedBy: "reverseJournalEntry, and voids that reverse a document's or payment's entry (with entry.posted of the reversing entry)."
  },
  "proposal.created": { emittedBy: "A write that becomes a proposal: an agent's suggest-level write, or one over its thresholds." },
  "proposal.decided": { emittedBy: "approveProposal and rejectProposal." },
  "period.status_changed": { emittedBy: "Closing, soft-locking, hard-locking or reopening a period." }
})
