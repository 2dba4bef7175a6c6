import { Context, Layer } from "effect"

/**
 * The WebAuthn relying party (DECISIONS.md): the web app's origin, `LEDGER_APP_URL` (default the
 * server's base URL), and its host name as the RP ID. The server provides it with its ports
 * (server/src/adapters/Ports.ts); a deployment without it answers passkey operations with 503
 * `passkeys_not_configured`. The engine reads it with `Effect.serviceOption`, so it is no
 * requirement of the engine's layer.
 */
export interface RelyingPartyConfig {
  /** e.g. `https://app.ledger.example` */
  readonly origin: string
  /** The RP ID: the origin's host name. */
  readonly id: string
  /** Shown by authenticators. */
  readonly name: string
  /**
   * The web app's whole address, its path kept (`https://example.com/books`, no trailing slash):
   * where absolute links to the app's pages are built (the processor's return URLs). Absent: the origin.
   */
  readonly url?: string | undefined
}

export class RelyingParty extends Context.Service<RelyingParty, RelyingPartyConfig>()("@ledger/engine/RelyingParty") {
  /** The relying party of an app URL. */
  static readonly fromUrl = (appUrl: string, name = "Ledger"): RelyingPartyConfig => {
    const url = new URL(appUrl)
    return { origin: url.origin, id: url.hostname, name, url: `${url.origin}${url.pathname.replace(/\/+$/u, "")}` }
  }

  static readonly layer = (appUrl: string, name = "Ledger"): Layer.Layer<RelyingParty> =>
    Layer.succeed(RelyingParty)(RelyingParty.fromUrl(appUrl, name))
}
