import { Effect, Schema } from "effect"
import { ApiError, Payroll } from "@ledger/api"
import * as Actor from "../kernel/Actor.ts"
import { requireCompanyId } from "../kernel/CompanyContext.ts"
import * as Handler from "../kernel/Handler.ts"
import { proposalKind } from "../kernel/Registry.ts"
import { RequestContext } from "../kernel/RequestContext.ts"
import { Governed } from "../ledger/index.ts"
import * as Outbox from "../pipeline/Outbox.ts"
import * as Rules from "./PayrollCsvRules.ts"
import * as Store from "./PayrollStore.ts"

const Api = Payroll.PayrollYtd

// A refusal after the header row was read names the headers it ignored (issue 38 item 6): an
// amount under a header Ledger does not read is the likeliest reason a file does not add up.
const invalid = (type: ApiError.ErrorType, message: string, issues: ReadonlyArray<Rules.Issue>, ignoredHeaders?: ReadonlyArray<string>) =>
  Effect.fail(ApiError.fail(type, message, { issues, ...(ignoredHeaders === undefined ? {} : { ignored_headers: ignoredHeaders }) }))

/** Parses and checks the file; refuses with every issue found. */
const checked = (body: typeof Api.importPayrollYtd.body.Type) =>
  Effect.gen(function*() {
    if (Number(body.period_through.slice(0, 4)) !== body.tax_year) {
      return yield* Effect.fail(ApiError.validationFailed("period_through falls in the tax year.", [{ path: ["body", "period_through"], message: `Not in ${body.tax_year}` }]))
    }
    const result = Rules.parse(body.csv, Api.employeeRowsMax)
    if (result._tag === "Invalid") return yield* invalid("payroll_csv_invalid", result.message, result.issues, result.ignoredHeaders)
    const issues = Rules.check(result.parsed)
    if (issues.length > 0) {
      const unchecked = !result.parsed.columns.includes("net_pay") && result.parsed.unreadAmounts.length > 0
      const message = unchecked
        ? "Without a Net Pay column the file cannot be checked: some columns Ledger does not read hold amounts."
        : "The file's amounts do not add up."
      return yield* invalid("payroll_totals_mismatch", `${message}${Rules.notRead(result.parsed.ignoredHeaders)}`, issues.slice(0, 100), result.parsed.ignoredHeaders)
    }
    const totals = Rules.totalsOf(result.parsed.rows, result.parsed.columns.includes("net_pay"))
    return { parsed: result.parsed, totals }
  })

/** A second import of a year must name the one it follows (a provider switch) in switch_id. */
const checkYear = (company: string, body: typeof Api.importPayrollYtd.body.Type) =>
  Effect.gen(function*() {
    const active = (yield* Store.ofYear(company, body.tax_year)).filter((existing) => existing.status === "imported")
    if (body.switch_id !== undefined) {
      const previous = active.find((existing) => existing.id === body.switch_id)
      if (previous === undefined) {
        return yield* Effect.fail(ApiError.validationFailed("switch_id names an active import of the same year.", [{ path: ["body", "switch_id"], message: "Not an active import of this year" }]))
      }
      if (body.period_through <= previous.period_through) {
        return yield* Effect.fail(ApiError.validationFailed("A switch's period ends after the import it follows.", [{ path: ["body", "period_through"], message: `On or before ${previous.period_through}` }]))
      }
      if (active.some((existing) => existing.switch_id === previous.id)) {
        return yield* Effect.fail(ApiError.fail("payroll_import_exists", "Another import already follows that one.", { switch_id: previous.id }))
      }
      return
    }
    if (active.length > 0) {
      return yield* Effect.fail(ApiError.fail("payroll_import_exists", "The year already has an import: void it, or name it in switch_id when the provider changed.", {
        import_ids: active.map((existing) => existing.id)
      }))
    }
  })

const importHandler = Handler.make(Api.importPayrollYtd, ({ body }) =>
  Effect.gen(function*() {
    const request = yield* RequestContext
    const company = yield* requireCompanyId
    const { parsed, totals } = yield* checked(body)
    yield* checkYear(company, body)
    if (body.dry_run === true) {
      return {
        status: 200,
        body: {
          dry_run: true as const,
          tax_year: body.tax_year,
          provider: body.provider,
          period_through: body.period_through,
          columns: parsed.columns,
          ignored_headers: parsed.ignoredHeaders,
          employee_count: parsed.rows.length,
          totals,
          total_row_checked: parsed.totalRow !== null,
          rows: parsed.rows.map((row) => ({
            line: row.line,
            employee: row.employee,
            ...Object.fromEntries(Object.entries(row.amounts).map(([column, cents]) => [`${column}_cents`, column === "net_pay" ? Rules.netPayOf(row.amounts, parsed.columns.includes("net_pay")) : cents]))
          }))
        }
      }
    }
    const created = yield* Store.insert(company, {
      taxYear: body.tax_year,
      provider: body.provider,
      periodThrough: body.period_through,
      switchId: body.switch_id ?? null,
      columns: parsed.columns,
      rows: parsed.rows,
      totals,
      createdBy: Actor.reference(request.actor),
      now: request.now
    })
    yield* Outbox.emit("payroll.imported", { import_id: created.id, tax_year: created.tax_year, provider: created.provider, employee_count: created.employee_count, gross_wages_cents: totals.gross_wages_cents }).pipe(Effect.orDie)
    return {
      body: created,
      audit: { targetType: "payroll_import", targetId: created.id, details: { tax_year: body.tax_year, employees: parsed.rows.length, gross_wages_cents: totals.gross_wages_cents } }
    }
  }))

/** Marks the import void (its summary's reversal, if any, has posted) and emits `payroll.voided`. */
const markVoid = (company: string, existing: Payroll.PayrollYtd.PayrollImport, reason: string, voidEntryId: number | null) =>
  Effect.gen(function*() {
    yield* Store.markVoid(company, existing.id, reason, voidEntryId, (yield* RequestContext).now)
    yield* Outbox.emit("payroll.voided", { import_id: existing.id, tax_year: existing.tax_year, void_entry_id: voidEntryId, reason }).pipe(Effect.orDie)
    return yield* Store.load(company, existing.id)
  })

// `reason` is optional so a void queued before it was stored still decodes.
const VoidRequest = Schema.Struct({ import_id: Schema.Int, reason: Schema.optionalKey(Schema.String) })

/** A void that waited for a person: the summary's reversal has posted, the import becomes void. */
export const voidProposalKind = proposalKind({
  request: VoidRequest,
  sourceId: ({ request }) => Effect.succeed(request.import_id),
  approved: ({ proposal, entry, request }) =>
    Effect.gen(function*() {
      const company = yield* requireCompanyId
      const existing = yield* Store.load(company, request.import_id, true)
      if (existing.status === "void") return yield* Effect.fail(ApiError.fail("already_void", "The import is already void."))
      return yield* markVoid(company, existing, request.reason ?? proposal.summary, entry.id)
    }),
  rejected: () => Effect.void
})

const voidHandler = Handler.make(Api.voidPayrollYtd, ({ path, body }) =>
  Effect.gen(function*() {
    const request = yield* RequestContext
    const company = yield* requireCompanyId
    const existing = yield* Store.load(company, path.id, true)
    if (existing.status === "void") return yield* Effect.fail(ApiError.fail("already_void", "The import is already void."))
    let voidEntryId: number | null = null
    if (existing.summary_entry_id !== null) {
      const written = yield* Governed.write({
        kind: "payroll_summary_void",
        summary: `Void payroll import ${existing.id}: ${body.reason}`,
        entry: { date: request.today, memo: `Void of payroll year-to-date import ${existing.id}: ${body.reason}`.slice(0, 1000), lines: [] },
        reverses: existing.summary_entry_id,
        // The reversal leads to the import it voids.
        sourceId: existing.id,
        request: { import_id: existing.id, reason: body.reason },
        dryRun: false,
        onPosted: (entry) => Effect.succeed(entry.id)
      })
      // A queued reversal: the import stays as it is until a person approves (then it is void).
      if (written.outcome._tag !== "Posted") return written
      voidEntryId = written.outcome.value
    }
    return {
      body: yield* markVoid(company, existing, body.reason, voidEntryId),
      audit: { targetType: "payroll_import", targetId: existing.id, reason: body.reason, details: { void_entry_id: voidEntryId } }
    }
  }))

const summaryHandler = Handler.make(Api.postPayrollSummaryEntry, ({ path, body }) =>
  Effect.gen(function*() {
    const company = yield* requireCompanyId
    const existing = yield* Store.load(company, path.id, true)
    if (existing.status === "void") return yield* Effect.fail(ApiError.fail("already_void", "The import is void."))
    if (existing.summary_entry_id !== null) {
      return yield* Effect.fail(ApiError.fail("payroll_summary_exists", "This import's summary entry is already posted.", { entry_id: existing.summary_entry_id }))
    }
    const other = yield* Store.otherWagesInYear(company, body.wages_account, existing.tax_year)
    if (other > 0 && other >= existing.totals.gross_wages_cents) {
      return yield* Effect.fail(ApiError.fail("wages_already_recorded", `Account ${body.wages_account} already holds the year's wages.`, {
        account: body.wages_account,
        tax_year: existing.tax_year,
        recorded_cents: other,
        import_gross_wages_cents: existing.totals.gross_wages_cents
      }))
    }
    const lines = Rules.summaryLines(existing.totals, {
      wages: body.wages_account,
      employerTax: body.employer_tax_account,
      liability: body.liability_account,
      netPay: body.net_pay_account
    })
    return yield* Governed.write({
      kind: "payroll_summary",
      summary: `Payroll ${existing.tax_year} year to date through ${existing.period_through} (${existing.provider})`,
      entry: { date: body.entry_date, memo: `Payroll ${existing.tax_year} year to date through ${existing.period_through}, ${existing.provider}`, lines },
      request: { import_id: existing.id },
      sourceId: existing.id,
      dryRun: false,
      linesPath: ["body"],
      onPosted: (entry) =>
        Effect.gen(function*() {
          yield* Store.linkSummary(company, existing.id, entry.id)
          return { import: yield* Store.load(company, existing.id), entry }
        })
    })
  }))

const getHandler = Handler.make(Api.getPayrollYtd, ({ query }) =>
  Effect.gen(function*() {
    const company = yield* requireCompanyId
    const imports = yield* Store.ofYear(company, query.year)
    const totals = imports.filter((one) => one.status === "imported").reduce((sum, one) => Rules.addTotals(sum, one.totals), Rules.emptyTotals())
    return { body: { tax_year: query.year, totals, imports } }
  }))

export const handlers = [getHandler, importHandler, voidHandler, summaryHandler]
