import * as Administration from "./administration/index.ts"
import * as Banking from "./banking/index.ts"
import * as Firms from "./firms/index.ts"
import * as Ledger from "./ledger/index.ts"
import * as Reports from "./reports/index.ts"
import * as Sales from "./sales/index.ts"
import type * as Operation from "./Operation.ts"

/**
 * Every operation Ledger serves, declared once. HTTP routes, the OpenAPI document, MCP tools, the
 * SDK and the conformance tests are all derived from this list. An area adds ONE line here.
 */
export const operations = [
  ...Administration.operations,
  ...Ledger.operations,
  ...Sales.operations,
  ...Banking.operations,
  ...Reports.operations,
  ...Firms.operations
] as const

export type Operations = typeof operations[number]
export type OperationId = Operations["id"]

const byId = new Map<string, Operation.Any>(operations.map((operation) => [operation.id, operation as Operation.Any]))

export const get = (id: string): Operation.Any | undefined => byId.get(id)
