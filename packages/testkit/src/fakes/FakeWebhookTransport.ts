import { Effect, Layer } from "effect"
import {
  addressProblem,
  type WebhookRequest,
  type WebhookResponse,
  WebhookSendFailure,
  WebhookTransport
} from "@ledger/engine/ports"

/**
 * The webhook transport's fake: nothing leaves the process. Every request is kept in `sent`; the
 * receiver answers 200 unless `answerNext` scripts answers (a status, or a failure such as a
 * timeout) for the next requests. Addresses follow the real rules (https, public), with no DNS:
 * `allowPrivate` (default true) admits http and private addresses as LEDGER_WEBHOOK_ALLOW_PRIVATE does.
 */
export interface FakeWebhookTransport {
  readonly sent: Array<WebhookRequest>
  readonly answerNext: (...answers: ReadonlyArray<number | { readonly fail: WebhookSendFailure["code"]; readonly message?: string }>) => void
  readonly service: WebhookTransport["Service"]
  readonly layer: Layer.Layer<WebhookTransport>
}

export const make = (options: { readonly allowPrivate?: boolean } = {}): FakeWebhookTransport => {
  const allowPrivate = options.allowPrivate ?? true
  const sent: Array<WebhookRequest> = []
  const answers: Array<number | { readonly fail: WebhookSendFailure["code"]; readonly message?: string }> = []
  const refusal = (url: string) => {
    const problem = addressProblem(url, allowPrivate)
    return problem === null ? null : new WebhookSendFailure({ code: "refused", message: problem })
  }
  const service = WebhookTransport.of({
    configured: true,
    allowPrivate,
    vet: (url) => Effect.suspend(() => {
      const refused = refusal(url)
      return refused === null ? Effect.void : Effect.fail(refused)
    }),
    send: (request) =>
      Effect.suspend(() => {
        const refused = refusal(request.url)
        if (refused !== null) return Effect.fail(refused)
        sent.push(request)
        const answer = answers.shift() ?? 200
        if (typeof answer === "number") return Effect.succeed<WebhookResponse>({ status: answer, body: "", durationMs: 1 })
        return Effect.fail(new WebhookSendFailure({ code: answer.fail, message: answer.message ?? `Scripted failure: ${answer.fail}` }))
      })
  })
  return {
    sent,
    answerNext: (...next) => {
      answers.push(...next)
    },
    service,
    layer: Layer.succeed(WebhookTransport)(service)
  }
}
