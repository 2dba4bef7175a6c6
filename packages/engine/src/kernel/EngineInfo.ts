import { Context } from "effect"

/** Facts about this deployment that operations report (health). */
export class EngineInfo extends Context.Service<EngineInfo, {
  readonly storage: "postgresql" | "pglite"
  readonly version: string
  /**
   * Whether requests record Effect spans (for an OpenTelemetry exporter the embedder provides).
   * Off unless asked for: a span per request, per function and per statement was a tenth of a
   * request's CPU with nothing reading them (docs/performance.md).
   */
  readonly tracing: boolean
  /**
   * Where clients reach this deployment's API (LEDGER_BASE_URL), for files that name it to another
   * program (the Web Connector's .qwc); null when the embedder did not say.
   */
  readonly publicBaseUrl?: string | null | undefined
}>()("@ledger/engine/EngineInfo") {}

export const version = "0.1.0"
