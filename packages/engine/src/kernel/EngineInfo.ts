import { Context, Effect } from "effect"
import { RelyingParty } from "../ports/RelyingParty.ts"

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

/**
 * The web app's absolute address, for links handed to another service that sends a person back
 * (the card processor's onboarding, checkout and portal return URLs, which it refuses relative):
 * LEDGER_APP_URL (the RelyingParty port the server provides, default its LEDGER_BASE_URL), else
 * the API's public base URL; null when the deployment names neither. A path prefix is kept
 * (`https://example.com/books` + `/settings` -> `https://example.com/books/settings`).
 */
export const appUrl: Effect.Effect<string | null> = Effect.gen(function*() {
  const rp = yield* Effect.serviceOption(RelyingParty)
  if (rp._tag === "Some") return (rp.value.url ?? rp.value.origin).replace(/\/+$/u, "")
  const info = yield* Effect.serviceOption(EngineInfo)
  const base = info._tag === "Some" ? info.value.publicBaseUrl ?? null : null
  if (base === null || base === "" || !URL.canParse(base)) return null
  return base.replace(/\/+$/u, "")
})

/** `path` (starting with `/`) under `base`, as text: placeholders such as `{CHECKOUT_SESSION_ID}` stay as written. */
export const under = (base: string, path: string): string => `${base.replace(/\/+$/u, "")}/${path.replace(/^\/+/u, "")}`
