import type { Input, ListOperationId, OperationOf } from "@ledger/client"
import { useCallback, useEffect, useState } from "react"
import { type Client, type Item, messageOf } from "../api.ts"

/**
 * One paged list of the API (`data`, `has_more`, `next_cursor`): the first page on load, the next
 * one appended by "Show more". Pages are at most `limit` items, so a screen never asks for an
 * unbounded list.
 */
interface PageOf<A> {
  readonly data: ReadonlyArray<A>
  readonly has_more: boolean
  readonly next_cursor: string | null
}

/** The pages of list operation `id` called with `input` (its filters): read again when they change. */
export const usePaged = <Id extends ListOperationId>(client: Client, id: Id, input: Input<OperationOf<Id>>, limit = 25) => {
  const [items, setItems] = useState<ReadonlyArray<Item<Id>> | null>(null)
  const [cursor, setCursor] = useState<string | null>(null)
  const [error, setError] = useState<string | null>(null)
  const [busy, setBusy] = useState(false)
  // The filters by value: a screen passes a fresh object on every render.
  const filters = JSON.stringify(input)
  const load = useCallback(async (after: string | null) => {
    setBusy(true)
    try {
      const answer = await client.request(id, { ...input, limit, ...(after === null ? {} : { cursor: after }) })
      // Every list operation answers a page (ListOperationId); TypeScript cannot see it through `Id`.
      const page = answer.body as PageOf<Item<Id>>
      setItems((before) => (after === null ? page.data : [...(before ?? []), ...page.data]))
      setCursor(page.has_more ? page.next_cursor : null)
      setError(null)
    } catch (failure) {
      setError(messageOf(failure))
    } finally {
      setBusy(false)
    }
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [client, id, filters, limit])
  useEffect(() => void load(null), [load])
  return { items, error, busy, more: cursor === null ? null : () => void load(cursor), reload: () => void load(null) }
}

/** The "Show more" button of a paged list, or nothing on the last page. */
export const More = (props: { readonly more: (() => void) | null; readonly busy: boolean; readonly what: string }) =>
  props.more === null ? null : <button type="button" className="secondary" disabled={props.busy} onClick={props.more}>Show more {props.what}</button>

/** Loading, the API's error, or the empty state of a list. */
export const ListState = (props: { readonly items: ReadonlyArray<unknown> | null; readonly error: string | null; readonly empty: string }) => (
  <>
    {props.error === null ? null : <p role="alert" className="error">{props.error}</p>}
    {props.items === null && props.error === null ? <p role="status">Loading…</p> : null}
    {props.items !== null && props.items.length === 0 ? <p>{props.empty}</p> : null}
  </>
)
