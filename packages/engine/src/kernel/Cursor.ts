import { Effect, Result } from "effect"
import { Base64Url } from "effect/encoding"
import { ApiError } from "@ledger/api"

/**
 * Cursors of lists that page by a natural key (account code, class name, period start): opaque to
 * clients, base64url of the last key shown. Keys compare in byte order (COLLATE "C") so pages are
 * the same on every database.
 */

export const encode = (key: string): string => Base64Url.encode(key)

export const decode = (cursor: string | undefined): Effect.Effect<string | null, ApiError.LedgerError> => {
  if (cursor === undefined) return Effect.succeed(null)
  try {
    const key = new TextDecoder("utf-8", { fatal: true }).decode(Result.getOrThrow(Base64Url.decode(cursor)))
    if (key !== "") return Effect.succeed(key)
  } catch {
    // Falls through to the refusal.
  }
  return Effect.fail(ApiError.invalidRequest([{ path: ["query", "cursor"], message: "Not a cursor this server issued" }]))
}
