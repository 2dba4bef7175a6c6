import * as Access from "./Access.ts"
import * as Agents from "./Agents.ts"
import * as Audit from "./Audit.ts"
import * as Clients from "./Clients.ts"
import * as Firms from "./Firms.ts"
import * as Keys from "./Keys.ts"
import * as Work from "./Work.ts"

/**
 * Firms (spec 4.3): accounting firms that keep the books of many companies: the firm, its people,
 * keys, sessions and agents, its clients and the work across them, its hash-chained audit log, and
 * the clients' grants of access (`/v1/firm-access`, company operations).
 */
export const operations = [
  ...Firms.operations,
  ...Keys.operations,
  ...Agents.operations,
  ...Clients.operations,
  ...Work.operations,
  ...Audit.operations,
  ...Access.operations
] as const

export * as Access from "./Access.ts"
export * as Agents from "./Agents.ts"
export * as Audit from "./Audit.ts"
export * as Clients from "./Clients.ts"
export * as FirmLimits from "./FirmLimits.ts"
export * as Firms from "./Firms.ts"
export * as Keys from "./Keys.ts"
export * as Records from "./Records.ts"
export * as Work from "./Work.ts"
