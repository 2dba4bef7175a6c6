import { Effect } from "effect"
import { SMTPServer } from "smtp-server"
import { extractText, getDocumentProxy } from "unpdf"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { Sales } from "@ledger/engine"
import { MemoryMail } from "@ledger/testkit"
import * as Worker from "@ledger/server/workers"
import { SmtpMail } from "@ledger/server/adapters"
import { makeTestApp, type TestApp } from "../support/index.ts"
import { accountantOf, agentOf, mimeParts, salesCompany } from "./support.ts"

interface Received {
  readonly from: string
  readonly to: ReadonlyArray<string>
  readonly raw: string
}

let app: TestApp
let smtp: SMTPServer
let smtpPort = 0
const inbox: Array<Received> = []
const workerOptions: Worker.WorkerOptions = { id: "test-worker", ...Worker.defaults }

beforeAll(async () => {
  app = await makeTestApp()
  smtp = new SMTPServer({
    authOptional: true,
    disabledCommands: ["STARTTLS"],
    logger: false,
    onRcptTo(address, _session, callback) {
      // A mailbox that does not exist: a hard bounce.
      if (address.address.startsWith("nobody@")) return callback(Object.assign(new Error("No such user"), { responseCode: 550 }))
      callback()
    },
    onData(stream, session, callback) {
      const chunks: Array<Buffer> = []
      stream.on("data", (chunk: Buffer) => chunks.push(chunk))
      stream.on("end", () => {
        inbox.push({
          from: session.envelope.mailFrom === false ? "" : session.envelope.mailFrom.address,
          to: session.envelope.rcptTo.map((recipient) => recipient.address),
          raw: Buffer.concat(chunks).toString("latin1")
        })
        callback()
      })
    }
  })
  await new Promise<void>((resolve) => smtp.listen(0, "127.0.0.1", () => resolve()))
  smtpPort = (smtp.server.address() as { port: number }).port
})
afterAll(async () => {
  await new Promise<void>((resolve) => smtp.close(() => resolve()))
  await app.close()
})

const drainWithSmtp = () =>
  app.runtime.runPromise(Worker.drain(workerOptions).pipe(
    Effect.provide(SmtpMail.layer({ host: "127.0.0.1", port: smtpPort, secure: false, from: "billing@ledger.test" }))
  ))

const pdfText = async (bytes: Uint8Array) => (await extractText(await getDocumentProxy(bytes), { mergePages: true })).text

describe("email outbox", () => {
  it("delivers a person's email to the customer's address over SMTP with the PDF attached", async () => {
    const company = await salesCompany(app, "Mail Co")
    const invoice = (await company.post("/v1/invoices", {
      contact_id: company.customerId,
      doc_date: "2026-07-01",
      tax_rate_id: company.combinedRateId,
      lines: [{ description: "Consulting", quantity: "4", unit_price_cents: 15_000, taxable: true }]
    })).body
    const preview = await company.post(`/v1/documents/${invoice.id}/email`, { dry_run: true })
    expect(preview.status).toBe(200)
    expect(preview.body.status).toBe("queued")
    const queued = await company.post(`/v1/documents/${invoice.id}/email`, { message: "Thank you for your business." })
    expect(queued.status).toBe(201)
    expect(queued.body).toMatchObject({ status: "queued", to: "ap@acme.test", policy: { verdict: "send" } })

    const before = inbox.length
    expect(await drainWithSmtp()).toBeGreaterThanOrEqual(1)
    const message = inbox.slice(before).find((received) => received.to.includes("ap@acme.test"))!
    expect(message).toBeDefined()
    expect(message.from).toBe("billing@ledger.test")
    const mime = mimeParts(message.raw)
    expect(mime.headers).toMatch(new RegExp(`Subject: Invoice ${invoice.number} from Mail Co`))
    const pdf = mime.parts.find((part) => /application\/pdf/i.test(part.headers))!
    expect(pdf.headers).toMatch(new RegExp(`${invoice.number}\\.pdf`))
    const text = await pdfText(pdf.body)
    expect(text).toContain(invoice.number)
    expect(text).toContain("Acme Ltd")
    expect(text).toContain("County (1.5%)")
    expect(text).toContain((invoice.total_cents / 100).toFixed(2))

    const sent = await company.get(`/v1/email/outbox/${queued.body.id}`)
    expect(sent.body).toMatchObject({ status: "sent", attempts: 1 })
    expect(sent.body.provider_message_id).toBeTruthy()
  })

  it("holds an agent's email to another address for a person, never the requester", async () => {
    const company = await salesCompany(app, "Agent Mail Co")
    const agent = await agentOf(company, { threshold: 10_000_000 })
    const invoice = (await company.post("/v1/invoices", { contact_id: company.customerId, doc_date: "2026-07-02", lines: [{ amount_cents: 12_000 }] })).body
    const toFile = await company.post(`/v1/documents/${invoice.id}/email`, {}, agent.token, agent.headers)
    expect(toFile.status).toBe(201)
    expect(toFile.body.status).toBe("queued")
    const elsewhere = await company.post(`/v1/documents/${invoice.id}/email`, { to: "someone@elsewhere.test" }, agent.token, agent.headers)
    expect(elsewhere.status).toBe(201)
    expect(elsewhere.body).toMatchObject({ status: "pending_approval", policy: { verdict: "approve", reasons: ["non_default_recipient"] } })
    const selfApproval = await company.post(`/v1/email/outbox/${elsewhere.body.id}/approve`, {}, agent.token, agent.headers)
    expect(selfApproval.status).toBe(403)
    expect((await company.get(`/v1/email/outbox?status=pending_approval`)).body.data.map((email: any) => email.id)).toEqual([elsewhere.body.id])

    const lowAgent = await agentOf(company, { threshold: 5_000, name: "Cautious agent" })
    const overThreshold = await company.post(`/v1/documents/${invoice.id}/email`, {}, lowAgent.token, lowAgent.headers)
    expect(overThreshold.body).toMatchObject({ status: "pending_approval", policy: { reasons: ["over_threshold"] } })

    const accountant = await accountantOf(company)
    const approved = await company.post(`/v1/email/outbox/${elsewhere.body.id}/approve`, { reason: "Their new AP address" }, accountant.token)
    expect(approved.status).toBe(200)
    expect(approved.body).toMatchObject({ status: "queued", decision_reason: "Their new AP address" })
    const again = await company.post(`/v1/email/outbox/${elsewhere.body.id}/approve`, {}, accountant.token)
    expect(again.body.error.type).toBe("invalid_transition")

    const another = await company.post(`/v1/documents/${invoice.id}/email`, { to: "x@elsewhere.test" }, agent.token, agent.headers)
    const rejected = await company.post(`/v1/email/outbox/${another.body.id}/reject`, { reason: "Unknown address" }, accountant.token)
    expect(rejected.body.status).toBe("rejected")
    const cancelled = await company.post(`/v1/email/outbox/${toFile.body.id}/cancel`, { reason: "Sent by hand" }, agent.token, agent.headers)
    expect(cancelled.body.status).toBe("cancelled")
  })

  it("lets another approve-scoped agent decide a waiting email, never the requester (spec 3.8, 4.10)", async () => {
    const company = await salesCompany(app, "Agent Approver Co")
    const invoice = (await company.post("/v1/invoices", { contact_id: company.customerId, doc_date: "2026-07-02", lines: [{ amount_cents: 9_000 }] })).body
    const requester = await agentOf(company, { threshold: 10_000_000, scopes: ["read", "propose", "approve"], name: "Requesting agent" })
    const reviewer = await agentOf(company, { threshold: 10_000_000, scopes: ["read", "propose", "approve"], name: "Reviewing agent" })
    const waiting = await company.post(`/v1/documents/${invoice.id}/email`, { to: "new-ap@elsewhere.test" }, requester.token, requester.headers)
    expect(waiting.body).toMatchObject({ status: "pending_approval", policy: { reasons: ["non_default_recipient"] } })

    const own = await company.post(`/v1/email/outbox/${waiting.body.id}/approve`, {}, requester.token, requester.headers)
    expect(own.status).toBe(403)
    expect(own.body.error.type).toBe("self_approval_refused")
    const ownReject = await company.post(`/v1/email/outbox/${waiting.body.id}/reject`, { reason: "Mine" }, requester.token, requester.headers)
    expect(ownReject.body.error.type).toBe("self_approval_refused")

    const approved = await company.post(`/v1/email/outbox/${waiting.body.id}/approve`, { reason: "Checked the address" }, reviewer.token, reviewer.headers)
    expect(approved.status).toBe(200)
    expect(approved.body).toMatchObject({ status: "queued", decided_by: `agent:${reviewer.id}` })

    // Without the approve scope an agent decides nothing.
    const proposer = await agentOf(company, { threshold: 10_000_000, name: "Proposing agent" })
    const another = await company.post(`/v1/documents/${invoice.id}/email`, { to: "x@elsewhere.test" }, requester.token, requester.headers)
    const unscoped = await company.post(`/v1/email/outbox/${another.body.id}/reject`, { reason: "No" }, proposer.token, proposer.headers)
    expect(unscoped.status).toBe(403)
    expect(unscoped.body.error.type).toBe("insufficient_scope")
    const rejected = await company.post(`/v1/email/outbox/${another.body.id}/reject`, { reason: "Unknown address" }, reviewer.token, reviewer.headers)
    expect(rejected.body.status).toBe("rejected")
  })

  it("fails on a bounce, suppresses the address, and retries a failure when an admin asks", async () => {
    const company = await salesCompany(app, "Bounce Co")
    const invoice = (await company.post("/v1/invoices", { contact_id: company.customerId, doc_date: "2026-07-03", lines: [{ amount_cents: 5_000 }] })).body
    const bounced = await company.post(`/v1/documents/${invoice.id}/email`, { to: "nobody@acme.test" })
    await drainWithSmtp()
    expect((await company.get(`/v1/email/outbox/${bounced.body.id}`)).body.status).toBe("failed")
    expect((await company.get("/v1/email/suppressions")).body.data.map((row: any) => row.address)).toEqual(["nobody@acme.test"])
    const suppressed = await company.post(`/v1/documents/${invoice.id}/email`, { to: "nobody@acme.test" })
    await drainWithSmtp()
    expect((await company.get(`/v1/email/outbox/${suppressed.body.id}`)).body.status).toBe("suppressed")

    // A transient failure through the in-memory mailbox: queued again, then failed once attempts are spent.
    const memory = MemoryMail.make()
    const transient = await company.post(`/v1/documents/${invoice.id}/email`, {})
    for (let attempt = 0; attempt < 5; attempt++) memory.failNext({ message: "421 try later" })
    for (let attempt = 0; attempt < 5; attempt++) {
      await app.query(`UPDATE jobs SET run_at = now() - interval '1 minute' WHERE status = 'pending'`)
      await app.runtime.runPromise(Worker.drain(workerOptions).pipe(Effect.provide(memory.layer)))
    }
    expect((await company.get(`/v1/email/outbox/${transient.body.id}`)).body).toMatchObject({ status: "failed", attempts: 5, last_error: "421 try later" })
    const retried = await company.post(`/v1/email/outbox/${transient.body.id}/retry`, { reason: "Server is back" })
    expect(retried.body.status).toBe("queued")
    await app.runtime.runPromise(Worker.drain(workerOptions).pipe(Effect.provide(memory.layer)))
    expect((await company.get(`/v1/email/outbox/${transient.body.id}`)).body.status).toBe("sent")
    expect(memory.sent.at(-1)!.attachments[0]!.filename).toBe(`${invoice.number}.pdf`)
  })

  it("sends payment reminders only when turned on, once per invoice and offset", async () => {
    const company = await salesCompany(app, "Reminder Co")
    const today = new Date().toISOString().slice(0, 10)
    const invoice = (await company.post("/v1/invoices", { contact_id: company.customerId, doc_date: today, terms_days: 0, lines: [{ amount_cents: 7_500 }] })).body
    expect((await company.get("/v1/email/settings")).body).toMatchObject({ reminders_enabled: false, reminder_days: [] })
    const memory = MemoryMail.make()
    const scan = async () => {
      // The scan runs hourly; here it is due at once.
      await app.query(`UPDATE jobs SET run_at = now() - interval '1 second' WHERE kind = 'reminders.scan' AND status = 'pending'`)
      return app.runtime.runPromise(Effect.gen(function*() {
        yield* Worker.scheduleReminderScan(0)
        return yield* Worker.drain(workerOptions)
      }).pipe(Effect.provide(memory.layer)))
    }
    await scan()
    expect(memory.sent.filter((message) => message.subject.includes(invoice.number))).toHaveLength(0)
    const settings = await app.call("POST", "/v1/email/settings", { token: company.ownerKey, body: { reminders_enabled: true, reminder_days: [0, -3] } })
    expect(settings.body).toMatchObject({ reminders_enabled: true, reminder_days: [-3, 0] })
    await scan()
    await scan()
    const reminders = memory.sent.filter((message) => message.subject.includes(invoice.number))
    expect(reminders).toHaveLength(1)
    expect(reminders[0]!.subject).toBe(`Reminder: invoice ${invoice.number} from Reminder Co`)
  })

  it("sends again an email whose worker died while sending", async () => {
    const company = await salesCompany(app, "Crash Co")
    const invoice = (await company.post("/v1/invoices", { contact_id: company.customerId, doc_date: "2026-07-04", lines: [{ amount_cents: 2_500 }] })).body
    const queued = (await company.post(`/v1/documents/${invoice.id}/email`, {})).body
    // A worker claimed the job and marked the email sending, then died before recording anything.
    const claimed = await app.runtime.runPromise(Sales.Jobs.claim("dead-worker", 100, 60))
    expect(claimed.some((job) => job.payload.email_id === queued.id)).toBe(true)
    await app.query(`UPDATE emails SET status = 'sending', attempts = 1 WHERE company_id = $1 AND id = $2`, [company.companyId, queued.id])
    const memory = MemoryMail.make()
    await app.runtime.runPromise(Worker.drain(workerOptions).pipe(Effect.provide(memory.layer)))
    expect((await company.get(`/v1/email/outbox/${queued.id}`)).body.status).toBe("sending")
    await app.query(`UPDATE jobs SET locked_until = now() - interval '1 second' WHERE locked_by = 'dead-worker'`)
    await app.runtime.runPromise(Worker.drain(workerOptions).pipe(Effect.provide(memory.layer)))
    expect((await company.get(`/v1/email/outbox/${queued.id}`)).body).toMatchObject({ status: "sent", attempts: 2 })
    expect(memory.sent.filter((message) => message.headers["X-Ledger-Email-Id"] === String(queued.id))).toHaveLength(1)
  })
})
