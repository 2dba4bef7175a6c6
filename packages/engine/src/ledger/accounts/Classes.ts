import { Effect } from "effect"
import { SqlClient } from "effect/sql"
import { ApiError, Ledger, Limits } from "@ledger/api"
import { requireCompanyId } from "../../kernel/CompanyContext.ts"
import * as Cursor from "../../kernel/Cursor.ts"
import * as Handler from "../../kernel/Handler.ts"
import { RequestContext } from "../../kernel/RequestContext.ts"
import * as Row from "../../kernel/Row.ts"

/** Classes: the names a line may carry to report by (East, West, a project), at most a limit per company. */

const operations = Ledger.Accounts

export const handlers = [
  Handler.make(operations.createClass, ({ body }) =>
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      const request = yield* RequestContext
      const companyId = yield* requireCompanyId
      yield* sql`SELECT pg_advisory_xact_lock(hashtext(${`${companyId}:classes`}))`.pipe(Effect.orDie)
      const count = yield* sql<{ count: unknown }>`SELECT count(*) AS count FROM classes WHERE company_id = ${companyId}`
        .pipe(Effect.orDie)
      if (Row.int(count[0]!.count) >= Limits.classesPerCompanyMax) {
        return yield* Effect.fail(ApiError.validationFailed(`A company has at most ${Limits.classesPerCompanyMax} classes.`))
      }
      const rows = yield* sql<Record<string, unknown>>`INSERT INTO classes ${sql.insert({
        company_id: companyId,
        name: body.name,
        created_at: request.now
      })} ON CONFLICT (company_id, name) DO NOTHING RETURNING *`.pipe(Effect.orDie)
      if (rows[0] === undefined) return yield* Effect.fail(ApiError.fail("conflict", `Class ${body.name} already exists.`, { name: body.name }))
      const created = { id: Row.int(rows[0].id), name: String(rows[0].name), created_at: Row.iso(rows[0].created_at) }
      return { body: created, audit: { targetType: "class", targetId: created.id } }
    })),

  Handler.make(operations.listClasses, ({ query }) =>
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      const companyId = yield* requireCompanyId
      const limit = Math.min(query.limit ?? Limits.pageSizeDefault, Limits.pageSizeMax)
      const after = yield* Cursor.decode(query.cursor)
      const rows = yield* sql<Record<string, unknown>>`SELECT * FROM classes WHERE company_id = ${companyId}
        ${after === null ? sql`` : sql`AND name COLLATE "C" > ${after}`} ORDER BY name COLLATE "C" LIMIT ${limit + 1}`.pipe(Effect.orDie)
      const data = rows.slice(0, limit).map((row) => ({ id: Row.int(row.id), name: String(row.name), created_at: Row.iso(row.created_at) }))
      const hasMore = rows.length > limit
      return { body: { data, has_more: hasMore, next_cursor: hasMore ? Cursor.encode(data[data.length - 1]!.name) : null } }
    }))
] as const
