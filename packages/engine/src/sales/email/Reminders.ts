import { Clock, Effect } from "effect"
import { SqlClient } from "effect/sql"
import * as Row from "../../kernel/Row.ts"
import * as OpenBalanceStore from "../common/OpenBalanceStore.ts"
import { addDays, isCalendarDate } from "../../kernel/values/Calendar.ts"
import * as EmailStore from "./EmailStore.ts"
import { money } from "../common/Pdf.ts"

/**
 * Payment reminders (off by default; `POST /v1/email/settings`). The `reminders.scan` job looks at
 * every company that turned them on: each open invoice whose due date plus a reminder offset has
 * come (within the last week, so turning reminders on does not mail about ancient invoices, and
 * not before the invoice was dated) gets
 * one reminder email per offset, at most once (a unique reminder key), queued for delivery.
 */

/** The periodic job that looks for reminders due (one per deployment). */
export const jobKind = "reminders.scan"
export const catchUpDays = 7

export const scan = Effect.fn("Reminders.scan")(function*() {
  const sql = yield* SqlClient.SqlClient
  const now = new Date(yield* Clock.currentTimeMillis).toISOString()
  const today = now.slice(0, 10)
  const companies = yield* sql<Record<string, unknown>>`SELECT s.company_id, s.reminder_days, s.display_name, c.name
    FROM email_settings s JOIN companies c ON c.company_id = s.company_id WHERE s.reminders_enabled`.pipe(Effect.orDie)
  let queued = 0
  for (const company of companies) {
    const companyId = String(company.company_id)
    const offsets = Row.json<Array<number>>(company.reminder_days)
    if (offsets.length === 0) continue
    const invoices = yield* OpenBalanceStore.openDocuments({ companyId, asOf: today, kinds: ["invoice"] })
    if (invoices.length === 0) continue
    const contacts = yield* sql<{ id: unknown; name: string; email: string | null }>`SELECT id, name, email FROM contacts
      WHERE company_id = ${companyId} AND id IN ${sql.in(Array.from(new Set(invoices.map((invoice) => invoice.contactId))))}`.pipe(Effect.orDie)
    const byId = new Map(contacts.map((contact) => [Row.int(contact.id), contact]))
    const from = (company.display_name as string | null) ?? String(company.name)
    for (const invoice of invoices) {
      const contact = byId.get(invoice.contactId)
      if (contact === undefined || contact.email === null || invoice.openCents <= 0) continue
      for (const offset of offsets) {
        const on = addDays(invoice.dueDate, offset)
        // Not yet due, too long ago to catch up on, or before the invoice existed.
        if (!isCalendarDate(on) || on > today || on <= addDays(today, -catchUpDays) || on < invoice.docDate) continue
        const overdue = invoice.dueDate < today
        const rows = yield* sql<{ id: unknown }>`INSERT INTO emails ${sql.insert({
          company_id: companyId,
          kind: "reminder",
          status: "queued",
          document_id: invoice.id,
          to_address: contact.email,
          to_name: contact.name,
          cc: "[]",
          subject: `${overdue ? "Overdue" : "Reminder"}: invoice ${invoice.number} from ${from}`,
          message: `Invoice ${invoice.number} for ${money(invoice.openCents)} ${overdue ? "was" : "is"} due on ${invoice.dueDate}. ` +
            "The invoice is attached. If you have already paid, thank you, and please disregard this reminder.",
          attachment_name: `${invoice.number}.pdf`,
          policy_verdict: "send",
          policy_reasons: JSON.stringify(["payment_reminder"]),
          requested_by: "system:reminders",
          reminder_key: `invoice:${invoice.id}:${offset}`,
          created_at: now,
          updated_at: now
        })} ON CONFLICT (company_id, reminder_key) WHERE reminder_key IS NOT NULL DO NOTHING RETURNING id`.pipe(Effect.orDie)
        for (const row of rows) {
          yield* EmailStore.enqueueDelivery(companyId, Row.int(row.id))
          queued += 1
        }
      }
    }
  }
  return { companies: companies.length, queued }
})
