/** Receipts and the receipt inbox (spec 3-endpoints-b 4.1). */
import * as Inbox from "./Inbox.ts"
import * as Receipts from "./Receipts.ts"

export * as Inbox from "./Inbox.ts"
export * as Records from "./Receipts.ts"
export * as Shared from "./Shared.ts"

export const operations = [...Inbox.operations, ...Receipts.operations] as const
