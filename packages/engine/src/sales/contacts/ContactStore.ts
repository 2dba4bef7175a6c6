import { Effect } from "effect"
import { SqlClient } from "effect/sql"
import * as Row from "../../kernel/Row.ts"
import type { ContactLookup } from "../../pipeline/Area.ts"

/**
 * The sales area's answer to "which of these ids are this company's contacts", registered as its
 * `contactLookups` (kernel/Registry.ts) so the ledger and mileage check the contacts their lines
 * and trips name without reading `contacts`. Inactive contacts count: a line may still name one.
 */
export const knownContacts: ContactLookup = (companyId, ids) =>
  Effect.gen(function*() {
    if (ids.length === 0) return []
    const sql = yield* SqlClient.SqlClient
    const rows = yield* sql<{ id: unknown }>`SELECT id FROM contacts WHERE company_id = ${companyId} AND id IN ${sql.in(ids)}`
      .pipe(Effect.orDie)
    return rows.map((row) => Row.int(row.id))
  })
