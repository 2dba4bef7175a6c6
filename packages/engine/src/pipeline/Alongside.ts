import type { SqlClient, Statement } from "effect/sql"

/**
 * Several writes in one statement: each of `alongside` (an INSERT, UPDATE or DELETE) runs as a
 * data-modifying `WITH` query of `main`. PostgreSQL runs every one of them to completion, against
 * the same snapshot, whatever `main` reads of them. Used where a request's closing writes (its
 * audit event, its outbox events, its idempotency result) need not each cost a round trip: the
 * pipeline's round trips are most of a write's cost (docs/performance.md).
 */
export const statement = <A extends object>(
  sql: SqlClient.SqlClient,
  alongside: ReadonlyArray<Statement.Fragment>,
  main: Statement.Statement<A>
): Statement.Statement<A> =>
  alongside.length === 0 ? main : sql<A>`WITH ${
    sql.join(", ", false)(alongside.map((fragment, index) => sql`${sql.literal(`alongside_${index}`)} AS (${fragment})`))
  } ${main}`
