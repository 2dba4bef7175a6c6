/**
 * An answer of the AI apps' authorization server in the OAuth wire format (`error`,
 * `error_description`), not Ledger's error body: what OAuth.ts and Registration.ts hand the
 * server's http/OAuth.ts.
 */
export interface Answer {
  readonly status: number
  readonly body: unknown
  readonly headers?: Readonly<Record<string, string>>
}

/** An OAuth error answer, never cached. */
export const oauthError = (status: number, error: string, description: string): Answer => ({
  status,
  body: { error, error_description: description },
  headers: { "cache-control": "no-store" }
})
