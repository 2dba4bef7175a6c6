import { Effect, Layer } from "effect"
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
  return {
    layer: Layer.succeed(InformationReturns)(service),
    service,
    submissions,
    answer: (reference, answer) => answers.set(reference, { reference, ...answer }),
    scriptTin: (tin, result) => tins.set(tin, result),
    failNext: (message = "The filing provider is unavailable.") => {
      failure = message
    }
  }
}
