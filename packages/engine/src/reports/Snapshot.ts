import { Effect } from "effect"
import { SqlClient } from "effect/sql"
import * as ReadReplica from "../store/ReadReplica.ts"

/**
 * Runs a report's reads in one REPEATABLE READ, READ ONLY transaction: the chart, the sums and the
 * lines all come from the same snapshot, so a posting that commits while a report is being read
 * is either wholly in it or wholly out (a trial balance cannot catch half an entry). Read-only
 * transactions never fail to serialize, and hold no locks that would slow postings down. With a
 * read replica configured, the transaction runs there while the replica is fresh for `companyId`
 * (store/ReadReplica.ts, ADR 2410); a hot standby runs REPEATABLE READ as the primary does.
 */
export const consistent = <A, E, R>(companyId: string, effect: Effect.Effect<A, E, R>) =>
  ReadReplica.onReplica(companyId, Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    return yield* sql.withTransaction(Effect.gen(function*() {
      yield* sql`SET TRANSACTION ISOLATION LEVEL REPEATABLE READ, READ ONLY`.pipe(Effect.orDie)
      return yield* effect
    })).pipe(Effect.catchTag("SqlError", (error) => Effect.die(error)))
  }))
