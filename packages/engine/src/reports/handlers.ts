import type { Handler } from "../Handler.ts"

/** The reports' handlers, by operation id. */
export const handlers: ReadonlyArray<readonly [string, Handler]> = []
