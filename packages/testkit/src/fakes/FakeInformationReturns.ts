import { Effect, Layer } from "effect"
import { InformationReturnsHttp } from "@ledger/server"
import {
  FilingFailure,
  type InformationReturnAnswer,
  type InformationReturnSubmission,
  InformationReturns,
  type TinMatchResult
} from "@ledger/engine/ports"

/**
 * The information-return filing provider's fake, in memory, scripted by a test: it keeps every
 * file submitted, answers `submitted` at once, and moves a filing to the IRS answer a test sets
 * with `answer`, which `refresh` then reads. TIN matching answers `matched` unless a TIN is
 * scripted otherwise; `failNext` makes the next call fail as the provider being down.
 */
export interface FakeInformationReturns {
  readonly layer: Layer.Layer<InformationReturns>
  /**
   * The same provider over HTTP (the filing envelope of docs/taxforms.md at `baseUrl`), for the
   * real adapter: `httpLayer` is InformationReturnsHttp against `fetch`. It refuses, as a
   * transmitter would before the IRS sees it, a FIRE file that is not 750-position records in the
   * publication's order, or whose year or test indicator is not the envelope's.
   */
  readonly baseUrl: string
  readonly fetch: (request: Request) => Promise<Response>
  readonly httpLayer: Layer.Layer<InformationReturns>
  readonly service: InformationReturns["Service"]
  /** Every file received, in order. */
  readonly submissions: ReadonlyArray<InformationReturnSubmission & { readonly reference: string }>
  /** The IRS answer the next status call for `reference` gives. */
  readonly answer: (reference: string, answer: Omit<InformationReturnAnswer, "reference">) => void
  readonly scriptTin: (tin: string, result: TinMatchResult) => void
  readonly failNext: (message?: string) => void
}

export const make = (): FakeInformationReturns => {
  const submissions: Array<InformationReturnSubmission & { readonly reference: string }> = []
  const answers = new Map<string, InformationReturnAnswer>()
  const tins = new Map<string, TinMatchResult>()
  let failure: string | null = null
  let counter = 0
  const failing = Effect.suspend(() => {
    if (failure === null) return Effect.void
    const message = failure
    failure = null
    return Effect.fail(new FilingFailure({ code: "unavailable", message }))
  })
  const service = InformationReturns.of({
    configured: true,
    submit: (submission) =>
      Effect.andThen(failing, () => {
        counter += 1
        const reference = `fake-filing-${counter}`
        submissions.push({ ...submission, reference })
        const answer: InformationReturnAnswer = { reference, status: "submitted", receiptId: null, rejectedRecords: [] }
        answers.set(reference, answer)
        return Effect.succeed(answer)
      }),
    status: (reference) =>
      Effect.andThen(failing, () => {
        const answer = answers.get(reference)
        return answer === undefined
          ? Effect.fail(new FilingFailure({ code: "refused", message: `No filing ${reference}.` }))
          : Effect.succeed(answer)
      }),
    matchTin: (input) =>
      Effect.andThen(failing, () => {
        counter += 1
        return Effect.succeed({ result: tins.get(input.tin) ?? "matched", reference: `fake-tin-${counter}` })
      })
  })
  const fetch = http(service)
  return {
    layer: Layer.succeed(InformationReturns)(service),
    baseUrl,
    fetch,
    httpLayer: InformationReturnsHttp.layer(baseUrl, "fake-filing-token", fetch),
    service,
    submissions,
    answer: (reference, answer) => answers.set(reference, { reference, ...answer }),
    scriptTin: (tin, result) => tins.set(tin, result),
    failNext: (message = "The filing provider is unavailable.") => {
      failure = message
    }
  }
}

const baseUrl = "https://filing.fake/v1"
const answer = (status: number, body: unknown) => new Response(JSON.stringify(body), { status, headers: { "content-type": "application/json" } })
const refusal = (status: number, type: string, message: string) => answer(status, { error: { type, message } })
const answerOf = (found: InformationReturnAnswer) => ({ reference: found.reference, status: found.status, receipt_id: found.receiptId, rejected_records: found.rejectedRecords })

/** What a transmitter refuses in a FIRE file before it reaches the IRS (Publication 1220's framing). */
const fileRefusal = (body: Record<string, any>): string | null => {
  const content = String(body.content ?? "")
  if (body.format !== "fire") return null
  if (content.length === 0 || content.length % 750 !== 0) return `The file is ${content.length} positions, not records of 750.`
  const types = Array.from({ length: content.length / 750 }, (_, index) => content[index * 750]).join("")
  if (!/^T(AB*CK*)+F$/u.test(types)) return `The records are ${types}, not T, A B... C K..., F.`
  if (content.slice(1, 5) !== String(body.year)) return `The file's payment year ${content.slice(1, 5)} is not ${body.year}.`
  if ((content[27] === "T") !== (body.test === true)) return "The file's test indicator (position 28) does not match the submission."
  return null
}

/** The filing envelope over the in-memory provider. */
const http = (service: InformationReturns["Service"]) => async (request: Request): Promise<Response> => {
  if (!/^Bearer \S+$/u.test(request.headers.get("authorization") ?? "")) return refusal(401, "unauthorized", "A Bearer token is required.")
  const path = request.url.startsWith(baseUrl) ? request.url.slice(baseUrl.length) : ""
  const run = async <A>(effect: Effect.Effect<A, FilingFailure>, ok: (value: A) => unknown) => {
    const result = await Effect.runPromise(Effect.result(effect))
    if (result._tag === "Success") return answer(200, ok(result.success))
    return result.failure.code === "unavailable" ? refusal(503, "unavailable", result.failure.message) : refusal(404, "not_found", result.failure.message)
  }
  const status = /^\/filings\/([^/]+)$/u.exec(path)
  if (request.method === "GET" && status !== null) return run(service.status(decodeURIComponent(status[1]!)), answerOf)
  if (request.method !== "POST") return refusal(404, "not_found", "No such operation.")
  let body: Record<string, any>
  try {
    body = await request.json() as Record<string, any>
  } catch {
    return refusal(400, "invalid_request", "The body is not JSON.")
  }
  if (path === "/tin-matches") {
    if (!/^\d{9}$/u.test(String(body.tin)) || !["SSN", "EIN", "ITIN", "ATIN"].includes(body.tin_type)) return refusal(422, "invalid_request", "A TIN is nine digits with its type.")
    return run(service.matchTin({ name: String(body.name), tin: String(body.tin), tinType: body.tin_type }), (value) => value)
  }
  if (path !== "/filings") return refusal(404, "not_found", "No such operation.")
  const refused = fileRefusal(body)
  if (refused !== null) return refusal(422, "file_rejected", refused)
  return run(service.submit({
    companyId: String(body.company_id), filingId: Number(body.filing_id), provider: String(body.provider), year: Number(body.year),
    format: body.format, filename: String(body.filename), content: String(body.content), test: body.test === true
  }), answerOf)
}
