import { Effect } from "effect"
import { ApiError, Limits } from "@ledger/api"

/**
 * Lists page by keyset on the record id (newest first), so a page is one indexed range scan
 * however deep the caller goes. The cursor is opaque to clients: base64url of the last id.
 */
export interface PageRequest {
  readonly limit?: number | undefined
  readonly cursor?: string | undefined
}

export const limitOf = (request: PageRequest): number =>
  Math.min(request.limit ?? Limits.pageSizeDefault, Limits.pageSizeMax)

/** The id below which the next page starts, or null for the first page. */
export const afterId = (request: PageRequest): Effect.Effect<number | null, ApiError.LedgerError> => {
  if (request.cursor === undefined) return Effect.succeed(null)
  try {
    const id = Number(atob(request.cursor.replace(/-/g, "+").replace(/_/g, "/")))
    if (Number.isSafeInteger(id) && id > 0) return Effect.succeed(id)
  } catch {
    // Falls through to the refusal below.
  }
  return Effect.fail(ApiError.invalidRequest([{ path: ["query", "cursor"], message: "Not a cursor this server issued" }]))
}

const encode = (id: number): string => btoa(String(id)).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "")

/** Rows were fetched with `limit + 1` to learn whether there is more. */
export const page = <Row, Item>(
  rows: ReadonlyArray<Row>,
  limit: number,
  idOf: (row: Row) => number,
  toItem: (row: Row) => Item
) => {
  const hasMore = rows.length > limit
  const shown = hasMore ? rows.slice(0, limit) : rows
  const last = shown[shown.length - 1]
  return {
    data: shown.map(toItem),
    has_more: hasMore,
    next_cursor: hasMore && last !== undefined ? encode(idOf(last)) : null
  }
}
