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
  /**
   * The company's kill switch suspends agents' writes (spec 5.4). The pipeline refuses them before
   * their handler, except a governed dry run, which previews the refusal (spec 3.1: a dry run
   * always answers 200): the governed path reads this to say so.
   */
  readonly killSwitchSuspended?: boolean | undefined
  /** Where the request came from, when known (pipeline `Invocation.clientAddress`). */
  readonly clientAddress?: string | null | undefined
  /** The exact body and headers, for operations that declare `rawBody` (HTTP only). */
  readonly raw?: { readonly body: string; readonly headers: Readonly<Record<string, string>> } | undefined
}

export class RequestContext extends Context.Service<RequestContext, RequestInfo>()("@ledger/engine/RequestContext") {}
