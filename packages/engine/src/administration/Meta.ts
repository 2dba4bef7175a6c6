import { Effect } from "effect"
import { SqlClient } from "effect/sql"
import { Meta } from "@ledger/api"
import { EngineInfo } from "../kernel/EngineInfo.ts"
import * as Handler from "../kernel/Handler.ts"
import { RequestContext } from "../kernel/RequestContext.ts"

export const handlers = [
  Handler.make(Meta.getHealth, () =>
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      const info = yield* EngineInfo
      const request = yield* RequestContext
      const database = yield* sql`SELECT 1 AS ok`.pipe(
        Effect.as("ok" as const),
        Effect.catch(() => Effect.succeed("unreachable" as const))
      )
      return {
        status: database === "ok" ? 200 : 503,
        body: {
          status: database === "ok" ? "ok" as const : "degraded" as const,
          version: info.version,
          storage: info.storage,
          database,
          time: request.now
        }
      }
    }))
] as const
