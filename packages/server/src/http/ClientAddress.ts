import type { HttpServerRequest } from "effect/http"

/**
 * The client's network address: the first `X-Forwarded-For` hop behind a trusted proxy
 * (LEDGER_TRUST_PROXY=1, docs/operations.md), else the socket's peer; null when neither tells.
 * Shared by the API's routes (Http.ts) and the Web Connector's endpoint (WebConnector.ts), whose
 * wrong sign-ins are limited per address.
 */
export const of = (request: HttpServerRequest.HttpServerRequest, trustProxy: boolean): string | null => {
  const value = trustProxy ? request.headers["x-forwarded-for"] : undefined
  const forwarded = typeof value === "string" ? value.split(",")[0]?.trim() : undefined
  if (forwarded !== undefined && forwarded !== "") return forwarded.slice(0, 100)
  return request.remoteAddress._tag === "Some" ? request.remoteAddress.value : null
}
