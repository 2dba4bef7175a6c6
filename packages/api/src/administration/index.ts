import * as ApiKeys from "./ApiKeys.ts"
import * as AuditLog from "./AuditLog.ts"
import * as Companies from "./Companies.ts"
import * as Meta from "./Meta.ts"
import * as People from "./People.ts"

export * as ApiKeys from "./ApiKeys.ts"
export * as AuditLog from "./AuditLog.ts"
export * as Companies from "./Companies.ts"
export * as Meta from "./Meta.ts"
export * as People from "./People.ts"

/** The administration area's operations (spec 4.1, 4.2), added to the catalog. */
export const operations = [
  ...Meta.operations,
  ...Companies.operations,
  ...People.operations,
  ...ApiKeys.operations,
  ...AuditLog.operations
] as const
