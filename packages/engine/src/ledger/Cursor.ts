import { Effect } from "effect"
import { ApiError } from "@ledger/api"

/**
 * Cursors of lists that page by a natural key (account code, class name, period start): opaque to
 * clients, base64url of the last key shown. Keys compare in byte order (COLLATE "C") so pages are
 * the same on every database.
 */

const toBase64Url = (bytes: Uint8Array): string =>
  btoa(String.fromCharCode(...bytes)).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "")

export const encode = (key: string): string => toBase64Url(new TextEncoder().encode(key))

export const decode = (cursor: string | undefined): Effect.Effect<string | null, ApiError.LedgerError> => {
  if (cursor === undefined) return Effect.succeed(null)
  try {
    const binary = atob(cursor.replace(/-/g, "+").replace(/_/g, "/"))
    const key = new TextDecoder("utf-8", { fatal: true }).decode(Uint8Array.from(binary, (character) => character.charCodeAt(0)))
    if (key !== "") return Effect.succeed(key)
  } catch {
    // Falls through to the refusal.
  }
  return Effect.fail(ApiError.invalidRequest([{ path: ["query", "cursor"], message: "Not a cursor this server issued" }]))
}
