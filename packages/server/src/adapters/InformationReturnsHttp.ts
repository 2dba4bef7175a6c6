import { Effect, Layer } from "effect"
import { Ports } from "@ledger/engine"

/**
 * The information-return filing provider over HTTP (`LEDGER_TAX_FILING_URL`, bearer
 * `LEDGER_TAX_FILING_TOKEN`): `POST /filings` takes a file and answers `{reference, status,
 * receipt_id, rejected_records}`, `GET /filings/{reference}` answers the same, `POST /tin-matches`
 * takes `{name, tin, tin_type}` and answers `{result, reference}`. Unset: the unconfigured layer,
 * and the filing operations answer 503 `tax_filing_not_configured`.
 *
 * The IRS's FIRE system has no API (a transmitter uploads files through its web pages with its
 * Transmitter Control Code), so this envelope is the project's own contract with a filing partner
 * (ADR 2127, docs/taxforms.md "The filing provider"); what it carries is the IRS's: a Publication
 * 1220 file, checked against the publication's record layout in the contract test
 * (test/fixtures/providers/irs-fire). A base URL's path is kept.
 */

type Answer = Ports.InformationReturnAnswer

const failure = (code: "unavailable" | "refused" | "error", message: string) => new Ports.FilingFailure({ code, message })

type Send = (request: Request) => Promise<Response>

/** `path` under the base URL, its own path kept (`https://host/v1` + `filings` -> `https://host/v1/filings`). */
export const endpoint = (base: string, path: string): URL => new URL(`${base.replace(/\/+$/u, "")}/${path.replace(/^\/+/u, "")}`)

const request = (send: Send, base: string, token: string | undefined, method: "GET" | "POST", path: string, body?: unknown) =>
  Effect.tryPromise({
    try: async () => {
      const response = await send(new Request(endpoint(base, path), {
        method,
        headers: {
          "content-type": "application/json",
          ...(token === undefined ? {} : { authorization: `Bearer ${token}` })
        },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
        signal: AbortSignal.timeout(30_000)
      }))
      const text = await response.text()
      if (response.status >= 500) throw failure("unavailable", `The filing provider answered ${response.status}.`)
      if (!response.ok) throw failure("refused", `The filing provider refused: ${response.status} ${text.slice(0, 200)}`)
      return JSON.parse(text) as Record<string, unknown>
    },
    catch: (error) => error instanceof Ports.FilingFailure ? error : failure("unavailable", String(error))
  })

const answerOf = (body: Record<string, unknown>): Answer => ({
  reference: String(body.reference),
  status: (body.status as Answer["status"]) ?? "submitted",
  receiptId: typeof body.receipt_id === "string" ? body.receipt_id : null,
  rejectedRecords: Array.isArray(body.rejected_records) ? body.rejected_records.map(Number) : []
})

export const layer = (base: string, token: string | undefined, send: Send = (sent) => globalThis.fetch(sent)): Layer.Layer<Ports.InformationReturns> =>
  Layer.succeed(Ports.InformationReturns)(Ports.InformationReturns.of({
    configured: true,
    submit: (submission) =>
      Effect.map(request(send, base, token, "POST", "filings", {
        company_id: submission.companyId,
        filing_id: submission.filingId,
        provider: submission.provider,
        year: submission.year,
        format: submission.format,
        filename: submission.filename,
        content: submission.content,
        test: submission.test
      }), answerOf),
    status: (reference) => Effect.map(request(send, base, token, "GET", `filings/${encodeURIComponent(reference)}`), answerOf),
    matchTin: (input) =>
      Effect.map(request(send, base, token, "POST", "tin-matches", { name: input.name, tin: input.tin, tin_type: input.tinType }), (body) => ({
        result: body.result as Ports.TinMatchResult,
        reference: String(body.reference)
      }))
  }))

/** The adapter when `LEDGER_TAX_FILING_URL` is set, else null. */
export const fromEnvironment = (environment: Readonly<Record<string, string | undefined>>): Layer.Layer<Ports.InformationReturns> | null => {
  const base = environment.LEDGER_TAX_FILING_URL ?? ""
  if (base === "") return null
  const token = environment.LEDGER_TAX_FILING_TOKEN
  return layer(base.endsWith("/") ? base : `${base}/`, token === "" ? undefined : token)
}
