import { Effect, Layer } from "effect"
import { Ports } from "@ledger/engine"

/**
 * A receipt reader over HTTP (`LEDGER_RECEIPT_READER_URL`): `POST {base}/v1/receipts/read` with
 * `{media_type, content_base64, text}` answers `{vendor, date, total_cents, tax_cents,
 * subtotal_cents, payment_method}` (any may be null). The testkit's FakeReceiptReader speaks the
 * same shape in process. Timeouts and non-2xx answers become `ReaderFailure`; the receipt then
 * keeps what Ledger read itself and says `failed`.
 */
const timeoutMilliseconds = 30_000

const fieldsOf = (body: unknown): Ports.ReaderFields => {
  const value = (body ?? {}) as Record<string, unknown>
  const text = (name: string) => typeof value[name] === "string" ? value[name] as string : null
  const cents = (name: string) => Number.isSafeInteger(value[name]) && (value[name] as number) >= 0 ? value[name] as number : null
  const method = text("payment_method")
  return {
    vendor: text("vendor"),
    date: /^\d{4}-\d{2}-\d{2}$/u.test(text("date") ?? "") ? text("date") : null,
    total_cents: cents("total_cents"),
    tax_cents: cents("tax_cents"),
    subtotal_cents: cents("subtotal_cents"),
    payment_method: method === "cash" || method === "card" || method === "other" ? method : null
  }
}

export const layer = (baseUrl: string): Layer.Layer<Ports.ReceiptReader> =>
  Layer.succeed(Ports.ReceiptReader)(Ports.ReceiptReader.of({
    configured: true,
    name: new URL(baseUrl).host,
    read: (input) =>
      Effect.tryPromise({
        try: async () => {
          const response = await fetch(new URL("/v1/receipts/read", baseUrl), {
            method: "POST",
            headers: { "content-type": "application/json" },
            body: JSON.stringify({ media_type: input.mediaType, content_base64: Buffer.from(input.bytes).toString("base64"), text: input.text }),
            signal: AbortSignal.timeout(timeoutMilliseconds)
          })
          if (!response.ok) throw new Error(`the receipt reader answered ${response.status}`)
          return fieldsOf(await response.json())
        },
        catch: (error) => new Ports.ReaderFailure({ message: error instanceof Error ? error.message : String(error) })
      })
  }))

export const fromEnvironment = (environment: Readonly<Record<string, string | undefined>>): Layer.Layer<Ports.ReceiptReader> | null => {
  const url = environment.LEDGER_RECEIPT_READER_URL ?? ""
  return url === "" ? null : layer(url)
}
