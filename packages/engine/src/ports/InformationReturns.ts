import { Context, Data, Effect, Layer } from "effect"

/**
 * The information-return (1099) filing provider, as a port: submitting a filing's file (a
 * Publication 1220 FIRE file, or the CSV of the IRS's upload portal), asking for the IRS's answer,
 * and TIN matching (the IRS's name and TIN check, which filing providers offer). A deployment
 * without a provider gives `InformationReturns.layerUnconfigured`: the filing and TIN-match
 * operations then answer 503 `tax_filing_not_configured`. Tests use the testkit's
 * `FakeInformationReturns`; the HTTP adapter is packages/server/src/adapters/InformationReturnsHttp.ts.
 */

export type IrsStatus = "submitted" | "accepted" | "partially_accepted" | "rejected_by_irs"

export interface Submission {
  readonly companyId: string
  readonly filingId: number
  readonly provider: string
  readonly year: number
  readonly format: "fire" | "csv"
  readonly filename: string
  /** The whole file, with full TINs. */
  readonly content: string
  readonly test: boolean
}

export interface Answer {
  readonly reference: string
  readonly status: IrsStatus
  readonly receiptId: string | null
  readonly rejectedRecords: ReadonlyArray<number>
}

export type TinMatchResult = "matched" | "mismatched" | "not_issued" | "invalid" | "pending"

export class FilingFailure extends Data.TaggedError("FilingFailure")<{
  readonly code: "unavailable" | "refused" | "error" | "not_configured"
  readonly message: string
}> {}

export class InformationReturns extends Context.Service<InformationReturns, {
  /** False only for `layerUnconfigured`: the operations check it before any call. */
  readonly configured: boolean
  readonly submit: (submission: Submission) => Effect.Effect<Answer, FilingFailure>
  readonly status: (reference: string) => Effect.Effect<Answer, FilingFailure>
  readonly matchTin: (input: {
    readonly name: string
    readonly tin: string
    readonly tinType: "SSN" | "EIN" | "ITIN" | "ATIN"
  }) => Effect.Effect<{ readonly result: TinMatchResult; readonly reference: string }, FilingFailure>
}>()("@ledger/engine/InformationReturns") {
  static readonly layerUnconfigured: Layer.Layer<InformationReturns> = Layer.sync(InformationReturns)(() => {
    const notConfigured = Effect.fail(new FilingFailure({
      code: "not_configured",
      message: "No information-return filing provider is configured (LEDGER_TAX_FILING_URL)."
    }))
    return InformationReturns.of({ configured: false, submit: () => notConfigured, status: () => notConfigured, matchTin: () => notConfigured })
  })
}
