import { Effect } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { Limits } from "@ledger/api"
import { freshStore, type RunningServer, startServer, type Store, withStore } from "../support/server-process.ts"

/**
 * A statement import killed part way (kill -9 from inside, `LEDGER_FAULT_CRASH=between_import_batches:N`,
 * kernel/Faults.ts) on a real `ledger serve`: the N batches it committed stay, with its record
 * `importing`, and a clean server then finishes it. Retried under the same Idempotency-Key, it goes
 * on from its last batch: every line once, one answer. Sent again under a new key (a client that
 * gave up on the first), the same file imports only the rest, the committed lines counting as
 * duplicates; the first record stays `importing` until its own key is retried (docs/decisions/0408).
 */

const operatorToken = `operator-import-crash-${Date.now().toString(36)}`
const crashAfter = 2

let store: Store
let server: RunningServer | null = null
/** Lines an import writes a batch on this store (the engine's `importWriteBatchLines`, banking/Imports.ts). */
let batchLines: number

const post = async (path: string, key: string, body: unknown, bearer: string) => {
  if (server === null) await serve(false)
  const response = await fetch(`${server!.url}${path}`, {
    method: "POST",
    headers: { authorization: `Bearer ${bearer}`, "idempotency-key": key, "content-type": "application/json" },
    body: JSON.stringify(body),
    signal: AbortSignal.timeout(120_000)
  })
  return { status: response.status, replayed: response.headers.get("idempotent-replayed"), body: await response.json() as any }
}

/**
 * A server on the store: a clean one, or one that dies after its `crashAfter`-th committed batch.
 * The store is read with the server down: a PGlite folder opens in one process at a time.
 */
const serve = async (crashing: boolean) => {
  await down()
  server = await startServer(store, {
    LEDGER_OPERATOR_TOKEN: operatorToken,
    LEDGER_WORKERS: "off",
    ...(crashing ? { LEDGER_FAULT_CRASH: `between_import_batches:${crashAfter}` } : {})
  })
}

const down = async () => {
  await server?.stop()
  server = null
}

beforeAll(async () => {
  store = await freshStore()
  await serve(false)
  const health = await fetch(`${server!.url}/health`).then((response) => response.json()) as { storage: string }
  batchLines = health.storage === "pglite" ? Limits.importBatchLinesEmbeddedMax : Limits.importBatchLinesMax
}, 300_000)
afterAll(async () => {
  await server?.kill()
  await store?.remove()
})

/** `lines` CSV transactions, each of its own content. */
const statement = (lines: number): string => {
  const rows = ["Date,Description,Amount"]
  for (let index = 0; index < lines; index++) {
    rows.push(`2026-05-${String(1 + (index % 28)).padStart(2, "0")},Crash purchase ${index},-${1 + (index % 900)}.${String(index % 100).padStart(2, "0")}`)
  }
  return `${rows.join("\n")}\n`
}

const query = <A>(text: string, params: ReadonlyArray<unknown>) =>
  withStore(store, (sql) => Effect.map(sql.unsafe(text, params), (rows) => rows as unknown as ReadonlyArray<A>))

/** The account's lines (and their distinct keys), and its import records by id. */
const writtenTo = async (bankAccountId: number) => {
  await down()
  const [counts] = await query<{ lines: number; keys: number }>(
    "SELECT count(*)::int AS lines, count(DISTINCT dedupe_key)::int AS keys FROM bank_lines WHERE bank_account_id = $1",
    [bankAccountId]
  )
  const imports = await query<{ id: number; status: string; lines_read: number; lines_imported: number; duplicates: number }>(
    "SELECT id::int, status, lines_read, lines_imported, duplicates FROM statement_imports WHERE bank_account_id = $1 ORDER BY id",
    [bankAccountId]
  )
  return { ...counts!, imports }
}

/**
 * A company and its bank account on a clean server, then a server that dies importing `content`
 * under `key`. Answers the company's key and the bank account.
 */
const crashPartWay = async (name: string, key: string, content: string) => {
  const company = await post("/v1/companies", `company-${name}`, { name, owner_name: "Owner", plan: "owned" }, operatorToken)
  expect(company.status, JSON.stringify(company.body)).toBe(201)
  const token = company.body.secret as string
  const bank = await post("/v1/bank-accounts", `bank-${name}`, { name, kind: "checking", ledger_account: "1010", institution: "First Bank" }, token)
  expect(bank.status, JSON.stringify(bank.body)).toBe(201)
  await serve(true)
  const sent = await post(`/v1/bank-accounts/${bank.body.id}/imports`, key, { format: "csv", content, filename: `${name}.csv` }, token)
    .catch(() => null)
  expect(sent, "the server died before answering").toBeNull()
  await server!.kill()
  server = null
  return { token, bankAccountId: bank.body.id as number }
}

describe("a statement import killed between batches", () => {
  it("finishes under the same key: every line once, one answer", async () => {
    const lines = 4 * batchLines + 300
    const content = statement(lines)
    const { token, bankAccountId } = await crashPartWay("Same key", "import-crash-same", content)
    const committed = crashAfter * batchLines
    expect(await writtenTo(bankAccountId)).toMatchObject({
      lines: committed,
      imports: [{ status: "importing", lines_read: committed, lines_imported: committed, duplicates: 0 }]
    })

    const body = { format: "csv", content, filename: "Same key.csv" }
    const retried = await post(`/v1/bank-accounts/${bankAccountId}/imports`, "import-crash-same", body, token)
    expect(retried.status, JSON.stringify(retried.body)).toBe(201)
    expect(retried.replayed).toBeNull()
    expect(retried.body).toMatchObject({ lines_read: lines, lines_imported: lines, duplicates: 0 })
    const replayed = await post(`/v1/bank-accounts/${bankAccountId}/imports`, "import-crash-same", body, token)
    expect(replayed.replayed).toBe("true")
    expect(replayed.body).toEqual(retried.body)
    const written = await writtenTo(bankAccountId)
    expect(written).toMatchObject({ lines, keys: lines, imports: [{ id: retried.body.import.id, status: "imported", lines_imported: lines }] })
    const [audited] = await query<{ n: number }>(
      "SELECT count(*)::int AS n FROM audit_events WHERE target_type = 'bank_account' AND target_id = $1 AND outcome = 'ok' AND details->>'import_id' IS NOT NULL",
      [String(bankAccountId)]
    )
    expect(audited!.n).toBe(1)
  }, 600_000)

  it("imports only the rest under a new key, and the abandoned key later finishes its record with nothing new", async () => {
    const lines = 4 * batchLines + 300
    const content = statement(lines)
    const { token, bankAccountId } = await crashPartWay("New key", "import-crash-abandoned", content)
    const committed = crashAfter * batchLines

    const body = { format: "csv", content, filename: "New key.csv" }
    const fresh = await post(`/v1/bank-accounts/${bankAccountId}/imports`, "import-crash-new", body, token)
    expect(fresh.status, JSON.stringify(fresh.body)).toBe(201)
    expect(fresh.body).toMatchObject({ lines_read: lines, lines_imported: lines - committed, duplicates: committed })
    const afterFresh = await writtenTo(bankAccountId)
    expect(afterFresh).toMatchObject({ lines, keys: lines })
    expect(afterFresh.imports).toMatchObject([
      { status: "importing", lines_read: committed, lines_imported: committed },
      { id: fresh.body.import.id, status: "imported", lines_imported: lines - committed, duplicates: committed }
    ])

    // The first client comes back with its key: its record is finished, its rest all duplicates.
    const late = await post(`/v1/bank-accounts/${bankAccountId}/imports`, "import-crash-abandoned", body, token)
    expect(late.status, JSON.stringify(late.body)).toBe(201)
    expect(late.body).toMatchObject({ lines_read: lines, lines_imported: committed, duplicates: lines - committed })
    expect(late.body.import.id).toBe(afterFresh.imports[0]!.id)
    expect(await writtenTo(bankAccountId)).toMatchObject({ lines, keys: lines, imports: [{ status: "imported" }, { status: "imported" }] })
  }, 600_000)
})
