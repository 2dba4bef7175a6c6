import { Effect } from "effect"
import { SqlClient } from "effect/sql"
import * as Row from "../../kernel/Row.ts"

/**
 * The month-end close checklist's figures for one client (docs/firms.md, "The close checklist"):
 * the period containing the date, and what stands between that period and its lock.
 */

const applied = (sql: SqlClient.SqlClient, end: string) => sql`(SELECT coalesce(sum(a.amount_cents), 0) FROM applications a
  WHERE a.company_id = d.company_id AND a.document_id = d.id AND a.applied_on <= ${end}
  AND (a.voided_on IS NULL OR a.voided_on > ${end}))`

const appliedFromPayment = (sql: SqlClient.SqlClient, end: string) => sql`(SELECT coalesce(sum(a.amount_cents), 0) FROM applications a
  WHERE a.company_id = p.company_id AND a.payment_id = p.id AND a.applied_on <= ${end}
  AND (a.voided_on IS NULL OR a.voided_on > ${end}))`

/** Open documents of a kind, signed: what they add to the control account, as of `end`. */
const openDocuments = (sql: SqlClient.SqlClient, companyId: string, end: string, kinds: ReadonlyArray<string>) =>
  sql`(SELECT coalesce(sum(d.total_cents - ${applied(sql, end)}), 0) FROM documents d WHERE d.company_id = ${companyId}
    AND d.kind IN ${sql.in(kinds)} AND d.doc_date <= ${end} AND (NOT d.voided OR d.void_date > ${end}))`

const unappliedPayments = (sql: SqlClient.SqlClient, companyId: string, end: string, direction: string) =>
  sql`(SELECT coalesce(sum(p.amount_cents - ${appliedFromPayment(sql, end)}), 0) FROM payments p WHERE p.company_id = ${companyId}
    AND p.direction = ${direction} AND p.payment_date <= ${end} AND (NOT p.voided OR p.void_date > ${end}))`

/** The sum of a control account's lines through `end`, debit positive. */
const controlBalance = (sql: SqlClient.SqlClient, companyId: string, end: string, control: "ar" | "ap") =>
  sql`(SELECT coalesce(sum(l.amount_cents), 0) FROM journal_lines l JOIN accounts ac ON ac.company_id = l.company_id
    AND ac.id = l.account_id WHERE l.company_id = ${companyId} AND ac.control = ${control} AND l.entry_date <= ${end})`

export const checklist = Effect.fn("FirmCloseStore.checklist")(function*(companyId: string, date: string, unappliedBefore: string) {
  const sql = yield* SqlClient.SqlClient
  const periods = yield* sql<Record<string, unknown>>`SELECT * FROM periods WHERE company_id = ${companyId}
    AND start_date <= ${date} AND end_date >= ${date}`.pipe(Effect.orDie)
  const period = periods[0]
  const end = period === undefined ? date : Row.date(period.end_date)
  const banks = yield* sql<Record<string, unknown>>`SELECT b.id, b.name,
      (SELECT max(r.statement_date) FROM reconciliations r WHERE r.company_id = b.company_id AND r.bank_account_id = b.id
        AND r.status = 'finished') AS last_reconciled_date
    FROM bank_accounts b WHERE b.company_id = ${companyId} ORDER BY b.id`.pipe(Effect.orDie)
  const figures = yield* sql<Record<string, unknown>>`SELECT
      (SELECT count(*) FROM bank_lines l WHERE l.company_id = ${companyId} AND l.status IN ('unmatched', 'proposed')
        AND l.withdrawn_at IS NULL AND l.line_date <= ${end}) AS unposted_bank_lines,
      (SELECT count(*) FROM payments p WHERE p.company_id = ${companyId} AND NOT p.voided AND p.payment_date <= ${unappliedBefore}
        AND p.amount_cents > ${appliedFromPayment(sql, "9999-12-31")}) AS unapplied_count,
      (SELECT coalesce(sum(p.amount_cents - ${appliedFromPayment(sql, "9999-12-31")}), 0) FROM payments p WHERE p.company_id = ${companyId}
        AND NOT p.voided AND p.payment_date <= ${unappliedBefore}) AS unapplied_cents,
      (SELECT count(*) FROM proposals p WHERE p.company_id = ${companyId} AND p.status = 'pending' AND p.entry_date <= ${end}) AS open_proposals,
      (SELECT count(*) FROM periods pe WHERE pe.company_id = ${companyId} AND pe.status = 'open'
        AND pe.end_date < ${period === undefined ? date : Row.date(period.start_date)}) AS unlocked_prior,
      ${controlBalance(sql, companyId, end, "ar")} AS ar_ledger,
      ${openDocuments(sql, companyId, end, ["invoice"])} - ${openDocuments(sql, companyId, end, ["credit_memo"])}
        - ${unappliedPayments(sql, companyId, end, "received")} AS ar_documents,
      ${controlBalance(sql, companyId, end, "ap")} AS ap_ledger,
      ${openDocuments(sql, companyId, end, ["bill"])} - ${openDocuments(sql, companyId, end, ["vendor_credit"])}
        - ${unappliedPayments(sql, companyId, end, "made")} AS ap_documents`.pipe(Effect.orDie)
  return { period: period ?? null, end, banks, figures: figures[0]! }
})
