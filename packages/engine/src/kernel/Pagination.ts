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

/** Reads the rows after the cursor; `limitPlusOne` rows, the one past the page telling whether there is more. */
export type Fetch<Row, E, R> = (after: number | null, limitPlusOne: number) => Effect.Effect<ReadonlyArray<Row>, E, R>

const fetchPage = <Row, E, R>(request: PageRequest, fetch: Fetch<Row, E, R>) => {
  const limit = limitOf(request)
  return Effect.map(Effect.flatMap(afterId(request), (after) => fetch(after, limit + 1)), (rows) => ({ rows, limit }))
}

/** A list handler's page: the cursor is read before `fetch` runs, so a bad cursor is refused before any query. */
export const listPage = <Row, Item, E, R>(
  request: PageRequest,
  fetch: Fetch<Row, E, R>,
  idOf: (row: Row) => number,
  toItem: (row: Row) => Item
) => Effect.map(fetchPage(request, fetch), ({ limit, rows }) => page(rows, limit, idOf, toItem))

/**
 * As listPage, for items that need more read about the rows shown: `load` gets only those
 * (never the extra row) and answers their items in the same order.
 */
export const listPageLoaded = <Row, Item, E, R, E2, R2>(
  request: PageRequest,
  fetch: Fetch<Row, E, R>,
  idOf: (row: Row) => number,
  load: (shown: ReadonlyArray<Row>) => Effect.Effect<ReadonlyArray<Item>, E2, R2>
) =>
  Effect.flatMap(fetchPage(request, fetch), ({ limit, rows }) => {
    const { data, ...rest } = page(rows, limit, idOf, (row) => row)
    return Effect.map(load(data), (items) => ({ data: items, ...rest }))
  })
