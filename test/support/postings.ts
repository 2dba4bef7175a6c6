import { newKey, type TestApp } from "./app.ts"

/** Journal entries as the tests post them: two-line bodies and the governed posting call. */

/** Two lines: debit one account, credit another. */
export const simpleLines = (debit: string, credit: string, cents: number) => [
  { account: debit, debit_cents: cents },
  { account: credit, credit_cents: cents }
]

export const propose = (
  app: TestApp,
  token: string,
  body: Record<string, unknown>,
  options: { readonly headers?: Record<string, string>; readonly key?: string | null } = {}
) =>
  app.call("POST", "/v1/journal-entries/propose", {
    token,
    body,
    ...(options.key === null ? {} : { key: options.key ?? newKey() }),
    ...(options.headers === undefined ? {} : { headers: options.headers })
  })
