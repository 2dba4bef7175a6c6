import { job } from "../kernel/offload/HeavyWork.ts"
import * as Qbxml from "./Qbxml.ts"
import * as Staging from "./Staging.ts"

/**
 * One qbXML page the Web Connector sends back, parsed and staged in one job
 * (kernel/offload/HeavyWork.ts, ADR 2320): a worker thread when the server has a pool, so a page
 * of thousands of records does not hold the event loop. All or nothing: a page with one bad record
 * is refused naming the record, and nothing of it is staged. The answer is plain data.
 */

export type Page =
  | { readonly ok: true; readonly response: Qbxml.Response; readonly staged: ReadonlyArray<Staging.Staged> }
  | { readonly ok: false; readonly message: string }

export interface Input {
  readonly xml: string
  /** The step stages open items (a credit's open balance) beside its records (Qbxml.steps' `open`). */
  readonly openStep: boolean
}

export const read = (input: Input): Page => {
  try {
    const response = Qbxml.parseResponse(input.xml)
    const staged = response.records.flatMap((record) => {
      try {
        return Staging.stagedOf(record.kind, record.node, input.openStep)
      } catch (error) {
        throw new Error(`${record.kind} ${String(record.node.TxnID ?? record.node.ListID ?? "")}: ${(error as Error).message}`)
      }
    })
    return { ok: true, response, staged }
  } catch (error) {
    return { ok: false, message: error instanceof Error ? error.message : String(error) }
  }
}

export const readPage = job("qbxml.page", read)
