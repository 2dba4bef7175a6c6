import { Effect } from "effect"
import { SqlClient } from "effect/sql"
import { XMLParser } from "fast-xml-parser"
import { Throttle } from "../auth/index.ts"
import * as HeavyWork from "../kernel/offload/HeavyWork.ts"
import * as Row from "../kernel/Row.ts"
import * as Common from "./Common.ts"
import * as MigrationStore from "./MigrationStore.ts"
import * as Qbxml from "./Qbxml.ts"
import * as QbxmlPage from "./QbxmlPage.ts"
import * as TieoutRules from "./TieoutRules.ts"

/**
 * The desktop edition's Web Connector protocol (its SOAP service, ADR 1610): serverVersion,
 * clientVersion, authenticate, sendRequestXML, receiveResponseXML, connectionError, getLastError,
 * closeConnection. The server's endpoint (packages/server/src/http/WebConnector.ts) hands the SOAP
 * envelope here with the time, a fresh ticket and the client's network address; this answers the
 * envelope. The connector authenticates with the connection's user name (random, in its .qwc) and
 * password (5 wrong ones lock it; 10 wrong sign-ins from one address stop that address for 15
 * minutes, ADR 2110), then pulls one qbXML request after another and sends back each response:
 * records are staged as they come (a page sent again replaces its copy), progress is kept per
 * step, and a new session resumes at the start of the step it was in. The last step's response
 * builds the bundle and its tie-out.
 */

const namespace = "http://developer.intuit.com/"
// Entities off (only XML's predefined ones decoded): an envelope cannot define entities that expand.
const envelopeParser = new XMLParser({
  removeNSPrefix: true, parseTagValue: false, ignoreAttributes: true, processEntities: false, tagValueProcessor: Qbxml.decodeText, trimValues: false
})

const escape = (text: string) => text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;")

const envelope = (method: string, result: string) =>
  `<?xml version="1.0" encoding="utf-8"?><soap:Envelope xmlns:soap="http://schemas.xmlsoap.org/soap/envelope/" ` +
  `xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" xmlns:xsd="http://www.w3.org/2001/XMLSchema"><soap:Body>` +
  `<${method}Response xmlns="${namespace}"><${method}Result>${result}</${method}Result></${method}Response></soap:Body></soap:Envelope>`

/** A SOAP 1.1 fault: `Client` when the message was at fault, `Server` when the processing failed. */
export const fault = (message: string, code: "Client" | "Server" = "Client") =>
  `<?xml version="1.0" encoding="utf-8"?><soap:Envelope xmlns:soap="http://schemas.xmlsoap.org/soap/envelope/"><soap:Body>` +
  `<soap:Fault><faultcode>soap:${code}</faultcode><faultstring>${escape(message)}</faultstring></soap:Fault></soap:Body></soap:Envelope>`

/** Reads the method and its parameters from a SOAP 1.1 envelope; null when it is not one. */
export const parseEnvelope = (xml: string): { readonly method: string; readonly params: Record<string, string> } | null => {
  if (Qbxml.refusal(xml) !== null) return null
  let document: Record<string, unknown>
  try {
    document = envelopeParser.parse(xml) as Record<string, unknown>
  } catch {
    return null
  }
  const body = (document.Envelope as Record<string, unknown> | undefined)?.Body as Record<string, unknown> | undefined
  if (body === undefined || typeof body !== "object") return null
  const method = Object.keys(body).find((key) => !key.startsWith("#"))
  if (method === undefined) return null
  const raw = body[method]
  const params: Record<string, string> = {}
  if (raw !== null && typeof raw === "object") {
    for (const [key, value] of Object.entries(raw as Record<string, unknown>)) params[key] = typeof value === "string" ? value : value === null || value === undefined ? "" : String(value)
  }
  return { method, params }
}

interface Progress {
  step: number
  iterator_id: string | null
  request_seq?: number
  steps: Record<string, { fetched: number; remaining: number | null }>
}

const byTicket = Effect.fn("WebConnector.byTicket")(function*(ticket: string) {
  const sql = yield* SqlClient.SqlClient
  if (ticket === "") return null
  const rows = yield* sql<Record<string, unknown>>`SELECT * FROM migration_connections WHERE ticket_hash = ${Common.hash(ticket)}
    AND source = 'desktop' FOR UPDATE`.pipe(Effect.orDie)
  return rows[0] ?? null
})

const save = Effect.fn("WebConnector.save")(function*(row: Record<string, unknown>, fields: Record<string, unknown>) {
  const sql = yield* SqlClient.SqlClient
  yield* sql`UPDATE migration_connections SET ${sql.update(fields)} WHERE company_id = ${String(row.company_id)}
    AND id = ${Row.int(row.id)}`.pipe(Effect.orDie)
})

/** One SOAP call's circumstances, from the server: its time, a fresh ticket, the client's network address (null when unknown). */
export interface Call {
  readonly now: string
  readonly ticket: string
  readonly client: string | null
}

/** Wrong sign-ins are counted per client address, in the sign-in throttle's table (shared by every server process). */
const failureBuckets = (client: string | null): ReadonlyArray<Throttle.Bucket> => {
  const address = Throttle.clientOf({ clientAddress: client })
  return address === null ? [] : [{ name: `qbwc-client:${address}`, max: Common.connectorFailuresPerClient }]
}

const authenticate = Effect.fn("WebConnector.authenticate")(function*(params: Record<string, string>, call: Call) {
  const sql = yield* SqlClient.SqlClient
  const refuse = "<string></string><string>nvu</string>"
  const buckets = failureBuckets(call.client)
  // An address past its wrong sign-ins is refused before any look-up: whatever it sends then,
  // no connection's failed-attempt counter moves (ADR 2110). The same "nvu" as any refusal, so
  // the limit tells a guesser nothing.
  if (!(yield* Throttle.peek(buckets, call.now)).allowed) return refuse
  const wrong = Effect.as(Throttle.count(buckets, call.now), refuse)
  const userName = params.strUserName ?? ""
  if (!Common.userNamePattern.test(userName)) return yield* wrong
  const rows = yield* sql<Record<string, unknown>>`SELECT * FROM migration_connections WHERE user_name = ${userName}
    AND source = 'desktop' FOR UPDATE`.pipe(Effect.orDie)
  const row = rows[0]
  if (row === undefined) return yield* wrong
  // Not counted: a locked or finished connection's own connector keeps calling on its schedule,
  // and no password is checked, so nothing is being guessed.
  if (MigrationStore.isClosed(row, call.now) || row.status === "locked" || row.password_hash === null) return refuse
  if (row.password_hash !== Common.hash(params.strPassword ?? "")) {
    const attempts = Row.int(row.failed_password_attempts) + 1
    yield* save(row, { failed_password_attempts: attempts, ...(attempts >= Common.passwordAttemptsMax ? { status: "locked" } : {}) })
    return yield* wrong
  }
  const progress = Row.json<Progress>(row.progress)
  // A new session resumes at the start of the step it was in: iterators do not outlive a session.
  const current = Qbxml.steps[progress.step]
  if (current !== undefined) delete progress.steps[current.step]
  yield* save(row, {
    failed_password_attempts: 0,
    ticket_hash: Common.hash(call.ticket),
    status: row.status === "created" ? "extracting" : row.status,
    progress: JSON.stringify({ ...progress, iterator_id: null }),
    last_error: null
  })
  const done = row.status === "extracted"
  return `<string>${escape(call.ticket)}</string><string>${done ? "none" : ""}</string>`
})

const sendRequest = Effect.fn("WebConnector.sendRequest")(function*(params: Record<string, string>) {
  const row = yield* byTicket(params.ticket ?? "")
  if (row === null || row.status !== "extracting") return ""
  const progress = Row.json<Progress>(row.progress)
  const step = Qbxml.steps[progress.step]
  if (step === undefined) return ""
  if (row.company_file === null && (params.strCompanyFileName ?? "") !== "") yield* save(row, { company_file: params.strCompanyFileName })
  const sequence = (progress.request_seq ?? 0) + 1
  yield* save(row, { progress: JSON.stringify({ ...progress, request_seq: sequence }) })
  return escape(Qbxml.request(step, { requestId: String(sequence), iteratorId: progress.iterator_id, asOf: Row.date(row.as_of) }))
})

/** The last step is in: the bundle, its tie-out, and the connection `extracted`. */
const finish = Effect.fn("WebConnector.finish")(function*(row: Record<string, unknown>, progress: Progress) {
  const company = String(row.company_id)
  const bundle = yield* MigrationStore.bundle(company, Row.int(row.id))
  const { resolved: _resolved, ...tieout } = TieoutRules.tieout(bundle, Row.date(row.as_of), { openDocuments: true })
  yield* save(row, {
    status: "extracted",
    progress: JSON.stringify(progress),
    extracted: JSON.stringify({ accounts: bundle.accounts.length, transactions: bundle.txns.length, open_documents: bundle.open?.length ?? 0 }),
    tieout: JSON.stringify(tieout)
  })
})

const receiveResponse = Effect.fn("WebConnector.receiveResponse")(function*(params: Record<string, string>) {
  const row = yield* byTicket(params.ticket ?? "")
  if (row === null || row.status !== "extracting") return -1
  if ((params.hresult ?? "") !== "") {
    yield* save(row, { last_error: `${params.hresult}: ${params.message ?? ""}`.slice(0, 1000) })
    return -101
  }
  const progress = Row.json<Progress>(row.progress)
  // Parsed and staged in one job, off the request's thread when the server has a pool (ADR 2320); a
  // page past the job's time or memory is refused as an unreadable one is.
  const page = yield* HeavyWork.run(QbxmlPage.readPage, { xml: params.response ?? "", openStep: Qbxml.steps[progress.step]?.open === true }).pipe(
    Effect.catchTag("HeavyWorkRefused", (refused) => Effect.succeed({ ok: false as const, message: refused.message }))
  )
  if (!page.ok) {
    yield* save(row, { last_error: `The response could not be read: ${page.message}`.slice(0, 1000) })
    return -1
  }
  const { response, staged } = page
  // 1: nothing matched (an empty list); 500-range: warnings. Anything else stops the extraction.
  if (response.statusCode !== 0 && response.statusCode !== 1 && response.statusCode < 500) {
    yield* save(row, { last_error: `${response.statusCode}: ${response.statusMessage}`.slice(0, 1000) })
    return -1
  }
  const step = Qbxml.steps[progress.step]!
  yield* MigrationStore.stage(String(row.company_id), Row.int(row.id), staged)
  const counted = progress.steps[step.step] ?? { fetched: 0, remaining: null }
  // A step counts its own records: a credit's open item staged beside its history is not fetched twice.
  const fetched = staged.filter((record) => (record.entity === "open") === (step.open === true)).length
  progress.steps[step.step] = { fetched: counted.fetched + fetched, remaining: step.iterator ? response.remaining : 0 }
  if (step.iterator && response.remaining > 0 && response.iteratorId !== null) {
    progress.iterator_id = response.iteratorId
  } else {
    progress.step++
    progress.iterator_id = null
  }
  if (progress.step >= Qbxml.steps.length) {
    yield* finish(row, progress)
    return 100
  }
  yield* save(row, { progress: JSON.stringify(progress) })
  return Math.min(99, Math.floor((progress.step / Qbxml.steps.length) * 100))
})

/** Answers one SOAP call. `call.ticket` is a fresh random ticket, used if this is a successful authenticate. */
export const handle = Effect.fn("WebConnector.handle")(function*(xml: string, call: Call) {
  const parsed = parseEnvelope(xml)
  if (parsed === null) return { status: 500, body: fault("Not a SOAP envelope.") }
  const { method, params } = parsed
  const sql = yield* SqlClient.SqlClient
  const result = yield* sql.withTransaction(Effect.gen(function*() {
    switch (method) {
      case "serverVersion": return "Ledger 0.1.0"
      case "clientVersion": return ""
      case "authenticate": return yield* authenticate(params, call)
      case "sendRequestXML": return yield* sendRequest(params)
      case "receiveResponseXML": return String(yield* receiveResponse(params))
      case "connectionError": {
        const row = yield* byTicket(params.ticket ?? "")
        if (row !== null) yield* save(row, { last_error: `${params.hresult ?? ""}: ${params.message ?? ""}`.slice(0, 1000) })
        return "done"
      }
      case "getLastError": {
        const row = yield* byTicket(params.ticket ?? "")
        return escape(String(row?.last_error ?? ""))
      }
      case "closeConnection": {
        const row = yield* byTicket(params.ticket ?? "")
        if (row !== null) yield* save(row, { ticket_hash: null })
        return "OK"
      }
      default: return null
    }
  })).pipe(Effect.orDie)
  if (result === null) return { status: 500, body: fault(`Unknown method ${method}.`) }
  return { status: 200, body: envelope(method, result) }
})
