import { Context } from "effect"
import type { Actor } from "./Actor.ts"

/** What every handler knows about the request it serves. */
export interface RequestInfo {
  readonly actor: Actor
  /** The company acted in; handlers of company operations may rely on it being set. */
  readonly companyId: string | null
  readonly operationId: string
  readonly via: "http" | "mcp" | "engine"
  /** The request time from the Clock, as an ISO timestamp and as a date (UTC). */
  readonly now: string
  readonly today: string
  readonly agentModel: string | null
  readonly agentRunId: string | null
  readonly idempotencyKey: string | null
}

export class RequestContext extends Context.Service<RequestContext, RequestInfo>()("@ledger/engine/RequestContext") {}
