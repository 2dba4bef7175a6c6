import { Effect } from "effect"
import { ApiError, Firms as FirmsApi } from "@ledger/api"
import * as Cursor from "../kernel/Cursor.ts"
import * as Handler from "../kernel/Handler.ts"
import * as Pagination from "../kernel/Pagination.ts"
import { RequestContext } from "../kernel/RequestContext.ts"
import * as FirmAudit from "./audit/FirmAudit.ts"
import * as FirmContext from "./FirmContext.ts"

/** The firm's audit log and its verifier (docs/decisions/0901-firm-audit-hash-chain.md). */

const api = FirmsApi.Audit

export const handlers = [
  Handler.make(api.verifyFirmAudit, ({ query }) =>
    Effect.gen(function*() {
      const caller = yield* FirmContext.caller(api.verifyFirmAudit)
      const seq = query.anchor_seq ?? null
      const hash = query.anchor_hash ?? null
      if ((seq === null) !== (hash === null)) {
        const missing = seq === null ? "anchor_seq" : "anchor_hash"
        return yield* Effect.fail(ApiError.invalidRequest([{ path: ["query", missing], message: "anchor_seq and anchor_hash go together" }]))
      }
      return { body: yield* FirmAudit.verifyChain(caller.firmId, seq === null || hash === null ? null : { seq, hash }) }
    })),

  Handler.make(api.getFirmAuditHead, ({ path }) =>
    Effect.gen(function*() {
      const request = yield* RequestContext
      const head = yield* FirmAudit.head(path.id)
      if (head === null) return yield* Effect.fail(ApiError.notFound("firm"))
      return { body: { ...head, as_of: request.now } }
    })),

  Handler.make(api.listFirmAuditEvents, ({ query }) =>
    Effect.gen(function*() {
      const caller = yield* FirmContext.caller(api.listFirmAuditEvents)
      const fromCursor = yield* Cursor.decode(query.cursor)
      if (fromCursor !== null && !/^\d{1,15}$/.test(fromCursor)) {
        return yield* Effect.fail(ApiError.invalidRequest([{ path: ["query", "cursor"], message: "Not a cursor this server issued" }]))
      }
      const beforeSeq = fromCursor === null ? query.before_seq ?? null : Number(fromCursor)
      const page = yield* FirmAudit.list(caller.firmId, beforeSeq, Pagination.limitOf(query))
      return { body: { ...page, next_cursor: page.next_before_seq === null ? null : Cursor.encode(String(page.next_before_seq)) } }
    }))
] as const
