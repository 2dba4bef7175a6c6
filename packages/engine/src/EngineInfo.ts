import { Context } from "effect"

/** Facts about this deployment that operations report (health). */
export class EngineInfo extends Context.Service<EngineInfo, {
  readonly storage: "postgresql" | "pglite"
  readonly version: string
}>()("@ledger/engine/EngineInfo") {}

export const version = "0.1.0"
