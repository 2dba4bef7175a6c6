import { Clock, Effect, Result } from "effect"
import { SqlClient } from "effect/sql"
import type { EstimatedTaxes } from "@ledger/api"
import * as Row from "../kernel/Row.ts"
import { addDays } from "../kernel/values/Calendar.ts"
import type { JobKind, JobOutcome } from "../pipeline/Area.ts"
import { Mail } from "../ports/Mail.ts"
import * as DueDates from "./DueDates.ts"
import * as Estimate from "./Estimate.ts"

/**
 * Estimated-tax reminders (ADR 1404). A plan saved with `reminders: true` asks for a mail to the
 * company's owners `reminder_days` days before each installment's due date, the date as moved past
 * weekends and legal holidays (DueDates.ts). The periodic `estimated_tax.reminders` job (hourly,
 * like the payment reminders' scan) looks at every such plan of this year and last (January's
 * installment belongs to last year) and mails each quarter once:
 *
 * - only from `reminder_days` before the due date through the due date itself (a reminder found
 *   later is no reminder), and only while the quarter still has something left to pay;
 * - once: a row per company, year and quarter (migration 0027) is inserted before the mail is
 *   sent, and only the worker whose insert succeeded sends, so two workers never both mail. A
 *   failed send is claimed again by a later scan (at most `attemptsMax` times); a worker that died
 *   mid-send leaves its claim to go stale after `staleMinutes`, and it is sent again then (at
 *   least once, like the email outbox);
 * - turned off by saving the plan with `reminders: false`, which the mail says.
 */

export const jobKind = "estimated_tax.reminders"
export const attemptsMax = 5
export const staleMinutes = 15
/** Plans looked at by one scan; the rest wait for the next (hourly). */
export const plansPerScanMax = 500
/** Owners mailed for one company. */
export const recipientsMax = 10

type PlanInputs = EstimatedTaxes.EstimatedTaxes.PlanInputs

/** The quarters whose reminder window holds `today`: from `days` before the due date through it. */
export const dueForReminder = (dueDates: ReadonlyArray<string>, days: number, today: string): Array<{ readonly quarter: number; readonly dueDate: string }> =>
  dueDates.flatMap((dueDate, index) => addDays(dueDate, -days) <= today && today <= dueDate ? [{ quarter: index + 1, dueDate }] : [])

const dollars = (cents: number) => `$${(cents / 100).toFixed(2).replace(/\B(?=(\d{3})+(?!\d))/g, ",")}`

/** The reminder's words (pure). */
export const message = (input: {
  readonly company: string
  readonly year: number
  readonly quarter: number
  readonly dueDate: string
  readonly statutoryDate: string
  readonly amountCents: number
  readonly remainingCents: number
  readonly form: string
}) => ({
  subject: `${input.company}: estimated tax payment ${input.quarter} for ${input.year} is due ${input.dueDate}`,
  text: [
    `Installment ${input.quarter} of ${input.company}'s ${input.year} estimated tax (Form ${input.form}) is due on ${input.dueDate}` +
    (input.dueDate === input.statutoryDate ? "." : ` (${input.statutoryDate} falls on a weekend or legal holiday).`),
    "",
    `Planned installment: ${dollars(input.amountCents)}. Left to pay: ${dollars(input.remainingCents)}.`,
    "",
    "Once paid, record the payment in Ledger (POST /v1/estimated-taxes/payments) so the plan shows it.",
    "To stop these reminders, save the year's plan with reminders turned off (POST /v1/estimated-taxes/plan, reminders: false)."
  ].join("\n")
})

const owners = Effect.fn("EstimatedTaxReminders.owners")(function*(company: string) {
  const sql = yield* SqlClient.SqlClient
  const rows = yield* sql<{ name: string; email: string }>`SELECT name, email FROM users
    WHERE company_id = ${company} AND role = 'owner' AND email IS NOT NULL AND email_verified_at IS NOT NULL
    ORDER BY id LIMIT ${recipientsMax}`.pipe(Effect.orDie)
  return rows
})

/** Claims the quarter's reminder for `worker`: true when this worker is to send it. */
const claim = Effect.fn("EstimatedTaxReminders.claim")(function*(row: {
  readonly company: string
  readonly year: number
  readonly quarter: number
  readonly dueDate: string
  readonly remainingCents: number
  readonly recipients: number
  readonly worker: string
  readonly now: string
}) {
  const sql = yield* SqlClient.SqlClient
  const stale = new Date(Date.parse(row.now) - staleMinutes * 60_000).toISOString()
  const claimed = yield* sql<{ attempts: unknown }>`INSERT INTO estimated_tax_reminders ${sql.insert({
    company_id: row.company,
    tax_year: row.year,
    quarter: row.quarter,
    due_date: row.dueDate,
    remaining_cents: row.remainingCents,
    recipient_count: row.recipients,
    status: "sending",
    claimed_by: row.worker,
    claimed_at: row.now
  })} ON CONFLICT (company_id, tax_year, quarter) DO UPDATE SET status = 'sending', attempts = estimated_tax_reminders.attempts + 1,
      claimed_by = EXCLUDED.claimed_by, claimed_at = EXCLUDED.claimed_at, remaining_cents = EXCLUDED.remaining_cents,
      recipient_count = EXCLUDED.recipient_count, due_date = EXCLUDED.due_date
    WHERE (estimated_tax_reminders.status = 'failed' AND estimated_tax_reminders.attempts < ${attemptsMax})
      OR (estimated_tax_reminders.status = 'sending' AND estimated_tax_reminders.claimed_at < ${stale}
        AND estimated_tax_reminders.attempts < ${attemptsMax})
    RETURNING attempts`.pipe(Effect.orDie)
  return claimed.length > 0
})

/** One scan: mails the reminders due today. `worker` names the claimant. */
export const scan = Effect.fn("EstimatedTaxReminders.scan")(function*(worker: string) {
  const sql = yield* SqlClient.SqlClient
  const mail = yield* Mail
  const now = new Date(yield* Clock.currentTimeMillis).toISOString()
  const today = now.slice(0, 10)
  const year = Number(today.slice(0, 4))
  const plans = yield* sql<Record<string, unknown>>`SELECT p.company_id, p.tax_year, p.inputs, p.saved_at, c.name
    FROM estimated_tax_plans p JOIN companies c ON c.company_id = p.company_id
    WHERE p.tax_year BETWEEN ${year - 1} AND ${year} AND (p.inputs ->> 'reminders') = 'true'
    ORDER BY p.company_id, p.tax_year LIMIT ${plansPerScanMax}`.pipe(Effect.orDie)
  let sent = 0
  for (const plan of plans) {
    const company = String(plan.company_id)
    const taxYear = Row.int(plan.tax_year)
    const inputs = Estimate.inputsOf(Row.json<PlanInputs>(plan.inputs), {})
    const schedule = inputs.return_type === "1120" ? "corporation" : "individual"
    const due = dueForReminder(DueDates.dueDates(taxYear, schedule), inputs.reminder_days, today)
    if (due.length === 0) continue
    // A year without tax tables has no amounts to remind of.
    const estimate = yield* Estimate.estimate(company, taxYear, inputs, { savedAt: Row.iso(plan.saved_at) }, today).pipe(Effect.option)
    if (estimate._tag === "None") continue
    const recipients = yield* owners(company)
    if (recipients.length === 0) continue
    for (const { quarter, dueDate } of due) {
      const planned = estimate.value.quarters[quarter - 1]!
      if (planned.remaining_cents <= 0) continue
      const mine = yield* claim({ company, year: taxYear, quarter, dueDate, remainingCents: planned.remaining_cents, recipients: recipients.length, worker, now })
      if (!mine) continue
      const words = message({
        company: String(plan.name),
        year: taxYear,
        quarter,
        dueDate,
        statutoryDate: planned.statutory_date,
        amountCents: planned.amount_cents,
        remainingCents: planned.remaining_cents,
        form: estimate.value.form
      })
      const result = yield* Effect.result(mail.send({
        from: { name: String(plan.name), address: null },
        replyTo: null,
        to: { name: recipients[0]!.name, address: recipients[0]!.email },
        cc: recipients.slice(1).map((one) => one.email),
        subject: words.subject,
        text: words.text,
        attachments: [],
        headers: { "X-Ledger-Estimated-Tax-Reminder": `${taxYear}-Q${quarter}` }
      }))
      const later = new Date(yield* Clock.currentTimeMillis).toISOString()
      if (Result.isSuccess(result)) {
        sent += 1
        yield* sql`UPDATE estimated_tax_reminders SET status = 'sent', sent_at = ${later}, provider_message_id = ${result.success.messageId},
          last_error = NULL WHERE company_id = ${company} AND tax_year = ${taxYear} AND quarter = ${quarter} AND claimed_by = ${worker}`.pipe(Effect.orDie)
      } else {
        yield* sql`UPDATE estimated_tax_reminders SET status = 'failed', last_error = ${result.failure.message.slice(0, 2000)}
          WHERE company_id = ${company} AND tax_year = ${taxYear} AND quarter = ${quarter} AND claimed_by = ${worker}`.pipe(Effect.orDie)
      }
    }
  }
  return { plans: plans.length, sent }
})

/** The periodic job (one per deployment): a scan named after the job it runs in. */
export const job: JobKind = {
  run: (job) => Effect.as(scan(`job-${job.id}`), { _tag: "Done" } as JobOutcome),
  periodic: true
}
