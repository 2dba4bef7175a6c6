import { createHash, randomBytes } from "node:crypto"
import { mkdir } from "node:fs/promises"
import path from "node:path"
import { type Browser, chromium, type Page } from "playwright-core"
import { SMTPServer } from "smtp-server"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { freshStore, type RunningServer, startServer, type Store } from "../support/server-process.ts"
import { artifacts, axeViolations, chromiumPath, ensureBuilt, hasChromium } from "../support/browser/chromium.ts"

/**
 * The web app in a real browser (Debian's Chromium driven by playwright-core) against a real
 * `ledger serve`: a person signs in with the code the server mailed over SMTP, approves the
 * proposal an agent made, and the entry is posted; an accountant signs in to the console by email
 * code as the firm member their address names (the same address is a company person too), sees
 * the client's state, switches into the client and rejects a proposal there; an MCP
 * client is connected through the consent screen (authorize, sign in, choose, code, token).
 * Without a Chromium binary the suite is skipped with a message (CHROMIUM_PATH overrides the path).
 */

if (!hasChromium) console.warn(`test/web/browser.test.ts skipped: no Chromium at ${chromiumPath} (apt-get install chromium, or set CHROMIUM_PATH).`)

const operatorToken = `operator-web-${Date.now()}`
const inbox: Array<{ readonly to: ReadonlyArray<string>; readonly raw: string }> = []
let smtp: SMTPServer
let store: Store
let server: RunningServer
let browser: Browser
let counter = 0
const consoleErrors: Array<string> = []

const api = async (method: "GET" | "POST", route: string, token: string, body?: unknown, headers: Record<string, string> = {}) => {
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
}

const expectOk = <A extends { status: number; body: any }>(result: A, status: number) => {
  expect(result.status, JSON.stringify(result.body)).toBe(status)
  return result.body
}

const today = () => new Date().toISOString().slice(0, 10)

/** A company, a person with a sign-in address, and an agent (threshold 100.00) with a key. */
const setUpCompany = async (name: string, email: string) => {
  const company = expectOk(await api("POST", "/v1/companies", operatorToken, { name, owner_name: "Olive Owner" }), 201)
  const owner = company.secret as string
  expectOk(await api("POST", "/v1/users", owner, { name: "Pat Person", role: "owner", email }), 201)
  const agent = expectOk(await api("POST", "/v1/agents", owner, { name: "Receipts agent", scopes: ["read", "propose"], posting_threshold_cents: 10_000 }), 201)
  const key = expectOk(await api("POST", "/v1/keys", owner, { principal_type: "agent", agent_id: agent.id, scopes: ["read", "propose"] }), 201)
  return { companyId: company.company.company_id as string, owner, agentKey: key.secret as string }
}

const propose = async (agentKey: string, cents: number, memo: string) => {
  const queued = expectOk(await api("POST", "/v1/journal-entries/propose", agentKey, {
    entry_date: today(),
    memo,
    lines: [{ account: "6070", debit_cents: cents }, { account: "2100", credit_cents: cents }]
  }, { "x-agent-model": "test-model/1.0" }), 202)
  return queued.proposal.id as number
}

/** The newest sign-in code mailed to `address` (quoted-printable decoded). */
const codeFor = async (address: string): Promise<string> => {
  const deadline = Date.now() + 60_000
  while (Date.now() < deadline) {
    const message = [...inbox].reverse().find((each) => each.to.includes(address))
    if (message !== undefined) {
      const text = message.raw.replace(/=\r?\n/gu, "").replace(/=([0-9A-F]{2})/gu, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)))
      const match = /sign-in code is (\d{6})/u.exec(text)
      if (match !== null) return match[1]!
    }
    await new Promise((resolve) => setTimeout(resolve, 200))
  }
  throw new Error(`no sign-in mail to ${address}`)
}

const newPage = async (): Promise<Page> => {
  const context = await browser.newContext({ viewport: { width: 1100, height: 900 } })
  const page = await context.newPage()
  page.on("console", (message) => {
    if (message.type() === "error") consoleErrors.push(message.text())
  })
  page.on("pageerror", (error) => consoleErrors.push(error.message))
  return page
}

/** Each screen's screenshot (a CI artifact), and no WCAG 2 A/AA violation axe-core finds on it. */
const shot = async (page: Page, name: string) => {
  await page.screenshot({ path: path.join(artifacts, `${name}.png`), fullPage: true })
  expect(await axeViolations(page), `axe-core on ${name}`).toEqual([])
}

beforeAll(async () => {
  if (!hasChromium) return
  const built = await ensureBuilt()
  if (built > 0) console.info(`built the web app in ${built} ms`)
  await mkdir(artifacts, { recursive: true })
  smtp = new SMTPServer({
    authOptional: true,
    disabledCommands: ["STARTTLS"],
    logger: false,
    onData(stream, session, callback) {
      const chunks: Array<Buffer> = []
      stream.on("data", (chunk: Buffer) => chunks.push(chunk))
      stream.on("end", () => {
        inbox.push({ to: session.envelope.rcptTo.map((recipient) => recipient.address), raw: Buffer.concat(chunks).toString("utf8") })
        callback()
      })
    }
  })
  await new Promise<void>((resolve) => smtp.listen(0, "127.0.0.1", () => resolve()))
  const smtpPort = (smtp.server.address() as { port: number }).port
  store = await freshStore()
  server = await startServer(store, {
    ...(store.kind === "pglite" ? { LEDGER_DATA_DIR: "memory" } : {}),
    LEDGER_OPERATOR_TOKEN: operatorToken,
    LEDGER_SMTP_URL: `smtp://127.0.0.1:${smtpPort}`,
    LEDGER_MAIL_FROM: "sign-in@ledger.test"
  })
  browser = await chromium.launch({ executablePath: chromiumPath, args: ["--no-sandbox"] })
}, 300_000)

afterAll(async () => {
  await browser?.close()
  await server?.stop()
  await store?.remove()
  if (smtp !== undefined) await new Promise<void>((resolve) => smtp.close(() => resolve()))
})

describe.skipIf(!hasChromium)("the web app in Chromium", () => {
  it("signs in by an emailed code, shows the agent's proposal with its entry, approves it and the entry posts", async () => {
    const email = `pat-${Date.now()}@example.test`
    const company = await setUpCompany("Corner Bakery", email)
    const proposalId = await propose(company.agentKey, 12_345, "Printer paper")

    const page = await newPage()
    await page.goto(`${server.url}/app/`)
    await page.getByLabel("Email address").fill(email)
    await shot(page, "1-sign-in")
    await page.getByRole("button", { name: "Email me a code" }).click()
    await page.getByLabel("Sign-in code").waitFor()
    const code = await codeFor(email)
    // A wrong code says how many tries are left, as the API's answer does (issue 38 item 16).
    const wrong = code.replace(/\d/gu, (digit) => String((Number(digit) + 1) % 10))
    await page.getByLabel("Sign-in code").fill(wrong)
    await page.getByRole("button", { name: "Sign in", exact: true }).click()
    await expect.poll(async () => page.getByRole("alert").textContent().catch(() => null), { timeout: 10_000 }).toMatch(/\d tries left\./u)
    await page.getByLabel("Sign-in code").fill(code)
    await page.getByRole("button", { name: "Sign in", exact: true }).click()

    await page.getByRole("heading", { name: "Approval inbox" }).waitFor()
    const card = page.getByRole("article").filter({ hasText: "Printer paper" })
    await card.waitFor()
    expect(await card.textContent()).toContain("123.45")
    // The kind in words, not the API's `journal_entry`.
    expect(await card.textContent()).toContain("Journal entry")
    expect(await card.textContent()).not.toContain("journal_entry")
    expect(await card.getByRole("table").textContent()).toContain("6070")
    expect(await card.getByRole("list", { name: "Reasons" }).textContent()).toMatch(/threshold/i)
    await shot(page, "2-inbox")
    // On a phone the inbox fits the screen's width: nothing to scroll sideways.
    await page.setViewportSize({ width: 390, height: 844 })
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390)
    await shot(page, "2-inbox-phone")
    await page.setViewportSize({ width: 1100, height: 900 })

    // A refusal shows the API's own message: rejecting needs a reason.
    await card.getByRole("button", { name: "Reject" }).click()
    await expect.poll(async () => card.getByRole("alert").textContent().catch(() => null), { timeout: 10_000 }).toBeTruthy()
    // ...with the field it is about, not only "The request is not valid." (issue 38 item 16).
    expect(await card.getByRole("alert").textContent()).toMatch(/reason/iu)

    await card.getByRole("button", { name: "Approve" }).click()
    await page.getByRole("status").filter({ hasText: `Approved proposal ${proposalId}` }).waitFor()
    await shot(page, "3-approved")

    const decided = expectOk(await api("GET", `/v1/proposals/${proposalId}`, company.owner), 200)
    expect(decided.status).toBe("approved")
    const entry = expectOk(await api("GET", `/v1/journal-entries/${decided.entry_id}`, company.owner), 200)
    expect(JSON.stringify(entry)).toContain("12345")

    await page.getByRole("button", { name: "Sign out" }).click()
    await page.getByLabel("Email address").waitFor()
    expect(consoleErrors.filter((text) => /Content Security Policy/i.test(text))).toEqual([])
  }, 120_000)

  it("signs an accountant in to the console by email code, shows the clients' state, and rejects in a client", async () => {
    // Ada keeps her own books with the same address she signs in to her firm with.
    const ada = `ada-${Date.now()}@example.test`
    const company = await setUpCompany("Harbor Cafe", `harbor-${Date.now()}@example.test`)
    await setUpCompany("Ada's own books", ada)
    const proposalId = await propose(company.agentKey, 25_000, "Espresso machine service")
    const firm = expectOk(await api("POST", "/v1/firms", operatorToken, { name: "Baker & Ames CPAs", admin_name: "Ada Ames", admin_email: ada }), 201)
    expectOk(await api("POST", "/v1/firm-access", company.owner, { firm_id: firm.firm.id, scopes: ["read", "propose", "approve"], billing: "client", reason: "Our accountants" }), 201)

    const page = await newPage()
    await page.goto(`${server.url}/app/console`)
    await page.getByRole("heading", { name: "Sign in to the accountant console" }).waitFor()
    await page.getByLabel("Email address").fill(ada)
    await page.getByRole("button", { name: "Email me a code" }).click()
    await page.getByLabel("Sign-in code").fill(await codeFor(ada))
    await shot(page, "4-console-sign-in")
    await page.getByRole("button", { name: "Sign in", exact: true }).click()
    await page.getByRole("heading", { name: "Accountant console", exact: true }).waitFor()
    // The session is the HttpOnly cookie, a firm session: no token is within the page's reach.
    const cookies = await page.context().cookies()
    expect(cookies.find((cookie) => cookie.name === "ledger_session")).toMatchObject({ httpOnly: true, sameSite: "Lax" })
    expect(cookies.find((cookie) => cookie.name === "ledger_session")?.value).toMatch(/^ldgf_/u)
    expect(await page.evaluate(() => document.cookie)).not.toContain("ldgf_")
    const row = page.getByRole("row").filter({ hasText: "Harbor Cafe" })
    await row.waitFor()
    expect(await row.textContent()).toContain("250.00")
    await shot(page, "4-console")

    await row.getByRole("button", { name: "Work in Harbor Cafe" }).click()
    const card = page.getByRole("article").filter({ hasText: "Espresso machine service" })
    await card.waitFor()
    await card.getByLabel("Reason (required to reject)").fill("Not ours: the landlord pays for it")
    await card.getByRole("button", { name: "Reject" }).click()
    await page.getByRole("status").filter({ hasText: `Rejected proposal ${proposalId}` }).waitFor()
    await shot(page, "5-console-rejected")

    const decided = expectOk(await api("GET", `/v1/proposals/${proposalId}`, company.owner), 200)
    expect(decided.status).toBe("rejected")
    expect(decided.decided_by.type).toBe("firm_member")

    await page.getByRole("button", { name: "Sign out of the console" }).click()
    await page.getByRole("heading", { name: "Sign in to the accountant console" }).waitFor()
  }, 120_000)

  it("connects an MCP client through the consent screen: authorize, sign in, choose, and the app gets its code", async () => {
    const email = `consent-${Date.now()}@example.test`
    await setUpCompany("Dockside Books", email)
    const callback = "http://127.0.0.1:9/oauth/callback"
    const registered = await fetch(`${server.url}/oauth/register`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ client_name: "Desk Assistant", redirect_uris: [callback], token_endpoint_auth_method: "none" })
    })
    expect(registered.status).toBe(201)
    const client = (await registered.json()) as { client_id: string }
    const verifier = randomBytes(32).toString("base64url")
    const authorize = new URL(`${server.url}/oauth/authorize`)
    for (const [name, value] of Object.entries({
      response_type: "code", client_id: client.client_id, redirect_uri: callback, state: "xyz",
      code_challenge: createHash("sha256").update(verifier).digest("base64url"), code_challenge_method: "S256"
    })) authorize.searchParams.set(name, value)

    const page = await newPage()
    const returned = new Promise<URL>((resolve) => {
      void page.route(`${callback}**`, (route) => {
        resolve(new URL(route.request().url()))
        void route.fulfill({ status: 200, contentType: "text/plain", body: "back in the app" })
      })
    })
    await page.goto(authorize.toString())
    await page.getByLabel("Email address").fill(email)
    await page.getByRole("button", { name: "Email me a code" }).click()
    await page.getByLabel("Sign-in code").fill(await codeFor(email))
    await page.getByRole("button", { name: "Sign in", exact: true }).click()
    await page.getByRole("heading", { name: "Connect Desk Assistant" }).waitFor()
    await page.getByLabel("Read only").check()
    await shot(page, "6-connect")
    await page.getByRole("button", { name: "Connect" }).click()
    const back = await returned
    expect(back.searchParams.get("state")).toBe("xyz")
    const tokens = await fetch(`${server.url}/oauth/token`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ grant_type: "authorization_code", code: back.searchParams.get("code")!, code_verifier: verifier, client_id: client.client_id, redirect_uri: callback }).toString()
    })
    expect(tokens.status).toBe(200)
    expect(((await tokens.json()) as { access_token?: string }).access_token).toBeTruthy()
  }, 120_000)
})
