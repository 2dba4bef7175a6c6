import { Effect } from "effect"
import { RelyingParty } from "../ports/RelyingParty.ts"
import { EngineInfo } from "./EngineInfo.ts"

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
