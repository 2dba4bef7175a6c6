import * as Desktop from "./Desktop.ts"
import * as Online from "./Online.ts"

export * as Desktop from "./Desktop.ts"
export * as Online from "./Online.ts"

/** Migrations (spec 3-endpoints-b 4.16): whole books from the desktop and online editions of the market leader. */
export const operations = [...Desktop.operations, ...Online.operations] as const
