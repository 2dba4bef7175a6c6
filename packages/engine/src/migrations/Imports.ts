import { Effect } from "effect"
import { SqlClient } from "effect/sql"
import { ApiError, Migrations } from "@ledger/api"
import * as Handler from "../kernel/Handler.ts"
import { requireCompanyId } from "../kernel/CompanyContext.ts"
import { RequestContext } from "../kernel/RequestContext.ts"
import * as Row from "../kernel/Row.ts"
import * as Pagination from "../kernel/Pagination.ts"
import { OnlineBooks } from "../ports/OnlineBooks.ts"
import { TokenSealer } from "../ports/TokenSealer.ts"
import * as MigrationStore from "./MigrationStore.ts"

const api = Migrations.Desktop

/** Cutover (spec 3.11): needs an import whose tie-out passed; final; revokes its connection and wipes staged data. */
const cutover = Handler.make(api.cutover, ({ path }) =>
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const request = yield* RequestContext
    const company = yield* requireCompanyId
    const rows = yield* sql<Record<string, unknown>>`SELECT * FROM migration_imports WHERE company_id = ${company} AND id = ${path.id} FOR UPDATE`
      .pipe(Effect.orDie)
    const found = rows[0]
    if (found === undefined) return yield* Effect.fail(ApiError.notFound("migration"))
    if (found.status === "cut_over") return yield* Effect.fail(ApiError.fail("migration_already_cut_over", "This migration is already cut over."))
    if (found.result !== "PASS") return yield* Effect.fail(ApiError.fail("migration_not_passed", "Only an import whose tie-out passed can be cut over."))
    const connectionId = Row.int(found.connection_id)
    const connection = yield* sql<Record<string, unknown>>`SELECT * FROM migration_connections WHERE company_id = ${company}
      AND id = ${connectionId} FOR UPDATE`.pipe(Effect.orDie)
    const sealed = connection[0]?.access_token_sealed
    if (typeof sealed === "string") {
      const sealer = yield* TokenSealer
      const online = yield* OnlineBooks
      const token = yield* sealer.open(sealed, `migration:${company}:${connectionId}`)
      yield* online.revoke({ accessToken: token }).pipe(Effect.ignore)
    }
    yield* MigrationStore.wipe(company, connectionId)
    yield* sql`UPDATE migration_connections SET ${sql.update({
      status: "cut_over", password_hash: null, download_token_hash: null, ticket_hash: null, access_token_sealed: null, revoked_at: request.now,
      revoke_reason: "cut over"
    })} WHERE company_id = ${company} AND id = ${connectionId}`.pipe(Effect.orDie)
    const updated = yield* sql<Record<string, unknown>>`UPDATE migration_imports SET status = 'cut_over', cut_over_at = ${request.now}
      WHERE company_id = ${company} AND id = ${path.id} RETURNING *`.pipe(Effect.orDie)
    return { body: MigrationStore.importSummary(updated[0]!), audit: { targetType: "migration_import", targetId: path.id } }
  }))

export const handlers = [
  Handler.make(api.listImports, ({ query }) =>
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      const company = yield* requireCompanyId
      const select = (after: number | null, limitPlusOne: number) =>
        sql<Record<string, unknown>>`SELECT * FROM migration_imports WHERE company_id = ${company}
        ${after === null ? sql`` : sql`AND id < ${after}`} ORDER BY id DESC LIMIT ${limitPlusOne}`.pipe(Effect.orDie)
      return { body: yield* Pagination.listPage(query, select, (row) => Row.int(row.id), MigrationStore.importSummary) }
    })),
  cutover
]
