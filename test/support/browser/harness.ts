import { mkdir } from "node:fs/promises"
import path from "node:path"
import { type Browser, chromium, type Page } from "playwright-core"
import { SMTPServer } from "smtp-server"
import { expect } from "vitest"
import { freshStore, type RunningServer, startServer, type Store } from "../server-process.ts"
import { artifacts, axeViolations, chromiumPath, ensureBuilt } from "./chromium.ts"

/**
 * What a browser test file of the web app starts (each file its own): the built app, an SMTP
 * receiver for sign-in codes, a real `ledger serve` and Chromium; then signing a person in with
 * the mailed code, calls to the API, screenshots and the axe-core check of each screen.
 */
export interface WebHarness {
  readonly url: string
  readonly operatorToken: string
  readonly browser: Browser
  readonly api: (method: "GET" | "POST", route: string, token: string, body?: unknown, headers?: Record<string, string>) => Promise<{ status: number; body: any }>
  /**
   * The code of the newest sign-in mail to `address` among those after the first `since` mails
   * (codes are mailed by a worker job, so a second request's mail may not have arrived yet).
   */
  readonly codeFor: (address: string, since?: number) => Promise<string>
  /** How many mails have arrived so far (for `codeFor`'s `since`). */
  readonly mailCount: () => number
  /** The first match of `pattern` (its first group) in the newest mail to `address` that has one, quoted-printable decoded. */
  readonly mailed: (address: string, pattern: RegExp) => Promise<string>
  readonly stop: () => Promise<void>
}

export const expectOk = (result: { status: number; body: any }, status: number) => {
  expect(result.status, JSON.stringify(result.body)).toBe(status)
  return result.body
}

/**
 * The first group of `pattern` (or its whole match) in the newest mail to `address` after the first
 * `since` mails that has one, waiting up to a minute for it to arrive.
 */
const mailMatching = async (
  mails: ReadonlyArray<{ readonly to: ReadonlyArray<string>; readonly raw: string }>,
  address: string,
  pattern: RegExp,
  since: number
): Promise<string> => {
  const deadline = Date.now() + 60_000
  while (Date.now() < deadline) {
    for (const message of mails.slice(since).reverse().filter((each) => each.to.includes(address))) {
      const match = pattern.exec(quotedPrintableDecoded(message.raw))
      if (match !== null) return match[1] ?? match[0]
    }
    await new Promise((resolve) => setTimeout(resolve, 200))
  }
  throw new Error(`no mail to ${address} matching ${pattern}`)
}

/** A mail's text with quoted-printable soft breaks and escapes undone. */
const quotedPrintableDecoded = (raw: string): string =>
  raw.replace(/=\r?\n/gu, "").replace(/=([0-9A-F]{2})/gu, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)))

/** `env` adds server settings (e.g. LEDGER_MASTER_KEY, which a PostgreSQL store needs to seal secrets). */
export const startHarness = async (env: Readonly<Record<string, string>> = {}): Promise<WebHarness> => {
  await ensureBuilt()
  await mkdir(artifacts, { recursive: true })
  const operatorToken = `operator-web-${Date.now()}`
  const mails: Array<{ readonly to: ReadonlyArray<string>; readonly raw: string }> = []
  const smtp = new SMTPServer({
    authOptional: true,
    disabledCommands: ["STARTTLS"],
    logger: false,
    onData(stream, session, callback) {
      const chunks: Array<Buffer> = []
      stream.on("data", (chunk: Buffer) => chunks.push(chunk))
      stream.on("end", () => {
        mails.push({ to: session.envelope.rcptTo.map((recipient) => recipient.address), raw: Buffer.concat(chunks).toString("utf8") })
        callback()
      })
    }
  })
  await new Promise<void>((resolve) => smtp.listen(0, "127.0.0.1", () => resolve()))
  const store: Store = await freshStore()
  const server: RunningServer = await startServer(store, {
    ...(store.kind === "pglite" ? { LEDGER_DATA_DIR: "memory" } : {}),
    LEDGER_OPERATOR_TOKEN: operatorToken,
    LEDGER_SMTP_URL: `smtp://127.0.0.1:${(smtp.server.address() as { port: number }).port}`,
    LEDGER_MAIL_FROM: "sign-in@ledger.test",
    ...env
  })
  const browser = await chromium.launch({ executablePath: chromiumPath, args: ["--no-sandbox"] })
  let counter = 0
  return {
    url: server.url,
    operatorToken,
    browser,
    api: async (method, route, token, body, headers = {}) => {
      const response = await fetch(`${server.url}${route}`, {
        method,
        headers: {
          authorization: `Bearer ${token}`,
          ...headers,
          ...(method === "POST" ? { "content-type": "application/json", "idempotency-key": `web-${Date.now()}-${counter++}` } : {})
        },
        ...(method === "POST" ? { body: JSON.stringify(body ?? {}) } : {})
      })
      return { status: response.status, body: await response.json() as any }
    },
    mailed: (address, pattern) => mailMatching(mails, address, pattern, 0),
    mailCount: () => mails.length,
    codeFor: (address, since = 0) => mailMatching(mails, address, /sign-in code is (\d{6})/u, since),
    stop: async () => {
      await browser.close()
      await server.stop()
      await store.remove()
      await new Promise<void>((resolve) => smtp.close(() => resolve()))
    }
  }
}

/** A company and an owner person who signs in with `email`; `owner` is the company's owner key. */
export const setUpCompany = async (harness: WebHarness, name: string, email: string) => {
  const company = expectOk(await harness.api("POST", "/v1/companies", harness.operatorToken, { name, owner_name: "Olive Owner" }), 201)
  const owner = company.secret as string
  expectOk(await harness.api("POST", "/v1/users", owner, { name: "Pat Person", role: "owner", email }), 201)
  return { companyId: company.company.company_id as string, owner }
}

/** A new browser page (its own cookies) signed in as `email` by the mailed code, at `/app/<to>`. */
export const signedInPage = async (harness: WebHarness, email: string, to: string): Promise<Page> => {
  const context = await harness.browser.newContext({ viewport: { width: 1100, height: 900 } })
  const page = await context.newPage()
  await page.goto(`${harness.url}/app/${to}`)
  await page.getByLabel("Email address").fill(email)
  const since = harness.mailCount()
  await page.getByRole("button", { name: "Email me a code" }).click()
  await page.getByLabel("Sign-in code").fill(await harness.codeFor(email, since))
  await page.getByRole("button", { name: "Sign in", exact: true }).click()
  return page
}

/** The screen's screenshot (a CI artifact) and no WCAG 2 A/AA violation on it. */
export const checkScreen = async (page: Page, name: string) => {
  await page.screenshot({ path: path.join(artifacts, `${name}.png`), fullPage: true })
  expect(await axeViolations(page), `axe-core on ${name}`).toEqual([])
}
