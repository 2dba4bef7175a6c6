/**
 * Room in a bounded memory (a Map or Set kept between requests or batches): the oldest entries,
 * in insertion order, are dropped until one more fits under `entriesMax`, so the memory does not
 * grow with traffic (BatchCharts.ts, CredentialMemory.ts).
 */
export const makeRoom = (
  entries: { readonly size: number; keys(): IterableIterator<string>; delete(key: string): boolean },
  entriesMax: number
): void => {
  while (entries.size >= entriesMax) {
    const oldest = entries.keys().next()
    if (oldest.done === true) return
    entries.delete(oldest.value)
  }
}
