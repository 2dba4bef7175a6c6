import type { Handler } from "../Handler.ts"

/** The ledger area's handlers, by operation id. */
export const handlers: ReadonlyArray<readonly [string, Handler]> = []
