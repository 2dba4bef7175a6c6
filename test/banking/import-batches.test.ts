import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { Limits } from "@ledger/api"
import { newKey } from "../support/index.ts"
import { type BankingApp, companyWithBankAccount, makeBankingApp } from "./support.ts"

/**
 * A statement import commits its lines in batches (issue 19 item 8, docs/decisions/0408): other
 * requests are answered between batches (on PGlite, whose one connection a single transaction
 * would hold for the whole import), the import record shows how far it got, and a retry under the
 * same Idempotency-Key after a failure part way goes on from the last committed batch: every line
 * once, one answer. A batch that meets a deadlock or a serialization failure is run again in place.
 * (A crash part way, kill -9 of a real server: test/reliability/import-crash.test.ts.)
 */
let app: BankingApp
/** Lines an import writes a batch on this app's store (the engine's `importWriteBatchLines`, banking/Imports.ts). */
let importWriteBatchLines: number
beforeAll(async () => {
  app = await makeBankingApp()
  const health = await app.call("GET", "/health")
  importWriteBatchLines = health.body.storage === "pglite" ? Limits.importBatchLinesEmbeddedMax : Limits.importBatchLinesMax
})
afterAll(() => app.close())

/** `lines` CSV transactions; the line at `marked` (0-based), if any, has the payee `markedPayee`. */
const statement = (lines: number, marked?: { readonly at: number; readonly payee: string }): string => {
  const rows = ["Date,Description,Amount"]
  for (let index = 0; index < lines; index++) {
    const day = String(1 + (index % 28)).padStart(2, "0")
    const payee = marked?.at === index ? marked.payee : `Card purchase ${index}`
    rows.push(`2026-03-${day},${payee},-${1 + (index % 900)}.${String(index % 100).padStart(2, "0")}`)
  }
  return `${rows.join("\n")}\n`
}

const batches = (lines: number) => Math.ceil(lines / importWriteBatchLines)

let faults = 0

/**
 * Makes the first `times` attempts to insert the line with `payee` fail with `sqlstate`, as the
 * database does on a deadlock or a serialization failure: a trigger counts attempts with a
 * sequence, which a rollback does not undo.
 */
const injectFault = async (payee: string, times: number, sqlstate: "40001" | "40P01") => {
  const name = `import_batches_test_fault_${faults++}`
  await app.query(`CREATE SEQUENCE ${name}`)
  await app.query(`CREATE FUNCTION ${name}() RETURNS trigger LANGUAGE plpgsql AS $$
    BEGIN
      IF NEW.payee = '${payee}' THEN
        IF nextval('${name}') <= ${times} THEN RAISE EXCEPTION 'fault injected by a test' USING ERRCODE = '${sqlstate}'; END IF;
      END IF;
      RETURN NEW;
    END $$`)
  await app.query(`CREATE TRIGGER ${name} BEFORE INSERT ON bank_lines FOR EACH ROW EXECUTE FUNCTION ${name}()`)
  return {
    /** How many attempts met the trigger. */
    calls: async () => {
      const [row] = await app.query<{ last_value: string; is_called: boolean }>(`SELECT last_value, is_called FROM ${name}`)
      return row!.is_called ? Number(row!.last_value) : 0
    },
    remove: () => app.query(`DROP TRIGGER ${name} ON bank_lines`)
  }
}

/** The company's bank lines (and their distinct keys), its import records and its audited imports. */
const written = async (companyId: string) =>
  (await app.query<{ lines: number; keys: number; imports: number; audited: number }>(
    `SELECT (SELECT count(*)::int FROM bank_lines WHERE company_id = $1) AS lines,
      (SELECT count(DISTINCT dedupe_key)::int FROM bank_lines WHERE company_id = $1) AS keys,
      (SELECT count(*)::int FROM statement_imports WHERE company_id = $1) AS imports,
      (SELECT count(*)::int FROM audit_events WHERE company_id = $1 AND target_type = 'bank_account'
        AND outcome = 'ok' AND details->>'import_id' IS NOT NULL) AS audited`,
    [companyId]
  ))[0]

describe("a statement import in batches", () => {
  it("answers other requests while it runs and shows its progress on the import record", async () => {
    const { company, bankAccountId } = await companyWithBankAccount(app)
    const neighbour = await companyWithBankAccount(app)
    const lines = 6 * importWriteBatchLines
    let importDone = false
    const importing = app.call("POST", `/v1/bank-accounts/${bankAccountId}/imports`, {
      token: company.ownerKey,
      key: newKey(),
      body: { format: "csv", content: statement(lines), filename: "march.csv" }
    }).then((result) => {
      importDone = true
      return result
    })

    // The bank account read through the API until its import history shows the import part way.
    // In process, with no network between, the polls would run on promise callbacks alone and
    // keep the import's fiber (resumed from the event loop's queue) from ever running: each poll
    // waits for a turn of the event loop first, as a real client's request does.
    let seen: any = null
    while (!importDone) {
      await new Promise((resolve) => setImmediate(resolve))
      const detail = await app.call("GET", `/v1/bank-accounts/${bankAccountId}`, { token: company.ownerKey })
      expect(detail.status).toBe(200)
      const record = detail.body.imports[0]
      if (record !== undefined && record.status === "importing" && record.lines_read > 0) {
        seen = record
        break
      }
    }
    expect(seen, "the import record was seen while the import ran").not.toBeNull()
    expect(seen.lines_total).toBe(lines)
    expect(seen.lines_read).toBeLessThan(lines)
    expect(seen.lines_read % importWriteBatchLines).toBe(0)
    expect(seen.lines_imported).toBe(seen.lines_read)

    // Another company's request is answered before the import finishes.
    const other = await app.call("GET", "/v1/bank-accounts", { token: neighbour.company.ownerKey })
    expect(other.status).toBe(200)
    expect(importDone).toBe(false)

    const imported = await importing
    expect(imported.status).toBe(201)
    expect(imported.body.lines_read).toBe(lines)
    expect(imported.body.lines_imported).toBe(lines)
    expect(imported.body.duplicates).toBe(0)
    expect(imported.body.import).toMatchObject({
      status: "imported",
      lines_total: lines,
      lines_read: lines,
      lines_imported: lines,
      first_date: "2026-03-01",
      last_date: "2026-03-28",
      filename: "march.csv"
    })
    const detail = await app.call("GET", `/v1/bank-accounts/${bankAccountId}`, { token: company.ownerKey })
    expect(detail.body.imports).toHaveLength(1)
    expect(detail.body.imports[0]).toMatchObject({ id: imported.body.import.id, status: "imported", lines_imported: lines })
  }, 120_000)

  it("counts a file's own repeats and lines the account has as duplicates across batches", async () => {
    const { company, bankAccountId } = await companyWithBankAccount(app)
    const lines = importWriteBatchLines + 500
    const first = await app.write(`/v1/bank-accounts/${bankAccountId}/imports`, company.ownerKey, { format: "csv", content: statement(lines) })
    expect(first.status).toBe(201)
    expect(first.body.lines_imported).toBe(lines)
    // The same file again, then twice over in one file: nothing new.
    const again = await app.write(`/v1/bank-accounts/${bankAccountId}/imports`, company.ownerKey, { format: "csv", content: statement(lines) })
    expect(again.body).toMatchObject({ lines_read: lines, lines_imported: 0, duplicates: lines })
    expect(again.body.import).toMatchObject({ status: "imported", lines_imported: 0, duplicates: lines })
    const preview = await app.write(`/v1/bank-accounts/${bankAccountId}/imports`, company.ownerKey, {
      format: "csv",
      content: statement(lines),
      dry_run: true
    })
    expect(preview.status).toBe(200)
    expect(preview.body).toMatchObject({ dry_run: true, import: null, lines_read: lines, lines_imported: 0, duplicates: lines })
  }, 120_000)

  it("refuses a file that cannot be read before a line of it is written, wherever the bad row is", async () => {
    const { company, bankAccountId } = await companyWithBankAccount(app)
    const lines = 3 * importWriteBatchLines
    // A line of the third batch dated the 1st (the statement dates line i the (1 + i % 28)th).
    const bad = Math.ceil((2 * importWriteBatchLines + 100) / 28) * 28
    const content = statement(lines).replace(`2026-03-01,Card purchase ${bad},`, `not a date,Card purchase ${bad},`)
    expect(content).toContain("not a date")
    const refused = await app.write(`/v1/bank-accounts/${bankAccountId}/imports`, company.ownerKey, { format: "csv", content })
    expect(refused.status).toBe(422)
    expect(refused.body.error.type).toBe("statement_unreadable")
    const rows = await app.query<{ lines: number; imports: number }>(
      `SELECT (SELECT count(*)::int FROM bank_lines WHERE company_id = $1) AS lines,
        (SELECT count(*)::int FROM statement_imports WHERE company_id = $1) AS imports`,
      [company.companyId]
    )
    expect(rows[0]).toEqual({ lines: 0, imports: 0 })
  }, 120_000)

  it("runs a batch that met a deadlock again in place: one request, every line once", async () => {
    const { company, bankAccountId } = await companyWithBankAccount(app)
    const lines = 4 * importWriteBatchLines + 300
    // The second batch's first two attempts meet a deadlock; its third commits.
    const fault = await injectFault("Injected deadlock", 2, "40P01")
    const content = statement(lines, { at: importWriteBatchLines + 10, payee: "Injected deadlock" })
    const key = newKey()
    const imported = await app.call("POST", `/v1/bank-accounts/${bankAccountId}/imports`, {
      token: company.ownerKey,
      key,
      body: { format: "csv", content, filename: "may.csv" }
    })
    await fault.remove()
    expect(imported.status, JSON.stringify(imported.body)).toBe(201)
    expect(await fault.calls()).toBe(3)
    expect(imported.body).toMatchObject({ lines_read: lines, lines_imported: lines, duplicates: 0 })
    expect(await written(company.companyId)).toEqual({ lines, keys: lines, imports: 1, audited: 1 })
  }, 120_000)

  it("answers 503 when a batch stays contended, and the same key then finishes it: every line once, one answer", async () => {
    const { company, bankAccountId } = await companyWithBankAccount(app)
    const lines = 4 * importWriteBatchLines + 300
    // Every attempt at the fourth batch meets a serialization failure: the three batches before
    // it are committed, the fourth and the last are not.
    const fault = await injectFault("Injected contention", 1_000, "40001")
    const content = statement(lines, { at: 3 * importWriteBatchLines + 10, payee: "Injected contention" })
    const key = newKey()
    const body = { format: "csv", content, filename: "april.csv" }
    const refused = await app.call("POST", `/v1/bank-accounts/${bankAccountId}/imports`, { token: company.ownerKey, key, body })
    await fault.remove()
    expect(refused.status, JSON.stringify(refused.body)).toBe(503)
    expect(refused.body.error.type).toBe("service_unavailable")
    // As many attempts as the pipeline gives a write's transaction (pipeline/Execution.ts).
    expect(await fault.calls()).toBe(5)

    const partway = await app.query<{ id: string; status: string; lines_read: number; lines_imported: number }>(
      "SELECT id, status, lines_read, lines_imported FROM statement_imports WHERE company_id = $1",
      [company.companyId]
    )
    expect(partway).toHaveLength(1)
    expect(partway[0]).toMatchObject({ status: "importing", lines_read: 3 * importWriteBatchLines, lines_imported: 3 * importWriteBatchLines })

    const retried = await app.call("POST", `/v1/bank-accounts/${bankAccountId}/imports`, { token: company.ownerKey, key, body })
    expect(retried.status).toBe(201)
    expect(retried.headers.get("idempotent-replayed")).toBeNull()
    expect(retried.body).toMatchObject({ lines_read: lines, lines_imported: lines, duplicates: 0 })
    expect(retried.body.import).toMatchObject({ id: Number(partway[0]!.id), status: "imported", lines_read: lines, lines_imported: lines })

    const replayed = await app.call("POST", `/v1/bank-accounts/${bankAccountId}/imports`, { token: company.ownerKey, key, body })
    expect(replayed.status).toBe(201)
    expect(replayed.headers.get("idempotent-replayed")).toBe("true")
    expect(replayed.body).toEqual(retried.body)
    expect(await written(company.companyId)).toEqual({ lines, keys: lines, imports: 1, audited: 1 })
    expect(batches(lines)).toBe(5)
  }, 120_000)
})
