import { expect201, newKey, type TestApp, type TestCompany } from "../support/index.ts"

/** Helpers of the report tests: posting entries, classes, fiscal years, and reading reports. */

export interface Line {
  readonly account: string
  readonly debit_cents?: number
  readonly credit_cents?: number
  readonly class?: string
  readonly memo?: string
}

export const debit = (account: string, cents: number, className?: string): Line =>
  className === undefined ? { account, debit_cents: cents } : { account, debit_cents: cents, class: className }

export const credit = (account: string, cents: number, className?: string): Line =>
  className === undefined ? { account, credit_cents: cents } : { account, credit_cents: cents, class: className }

/** Posts an entry as `token` (a person's key posts at once) and returns its id. */
export const post = async (
  app: TestApp,
  token: string,
  entryDate: string,
  memo: string,
  lines: ReadonlyArray<Line>
): Promise<number> => {
  const result = await app.call("POST", "/v1/journal-entries/propose", {
    token,
    key: newKey(),
    body: { entry_date: entryDate, memo, lines }
  })
  return expect201(`entry ${memo}`, result).id
}

export const reverse = async (app: TestApp, token: string, entryId: number, entryDate: string): Promise<number> => {
  const result = await app.call("POST", `/v1/journal-entries/${entryId}/reverse`, {
    token,
    key: newKey(),
    body: { entry_date: entryDate, memo: `Reversal of ${entryId}` }
  })
  return expect201(`reversal of ${entryId}`, result).id
}

export const createClass = async (app: TestApp, token: string, name: string): Promise<void> => {
  expect201(`class ${name}`, await app.call("POST", "/v1/classes", { token, key: newKey(), body: { name } }))
}

export const setFiscalYearStart = async (app: TestApp, company: TestCompany, startMonth: number): Promise<void> => {
  const result = await app.call("POST", "/v1/company/fiscal-year", {
    token: company.ownerKey,
    key: newKey(),
    body: { start_month: startMonth, reason: "Our fiscal year" }
  })
  if (result.status !== 200 && result.status !== 201) throw new Error(`fiscal year: ${result.status} ${JSON.stringify(result.body)}`)
}

/** GET a report over HTTP; throws unless 200. */
export const report = async (app: TestApp, token: string, name: string, query: Record<string, string | number | boolean> = {}) => {
  const search = new URLSearchParams(Object.entries(query).map(([key, value]) => [key, String(value)])).toString()
  const result = await app.call("GET", `/v1/reports/${name}${search === "" ? "" : `?${search}`}`, { token })
  if (result.status !== 200) throw new Error(`${name}: ${result.status} ${JSON.stringify(result.body)}`)
  return result.body
}

/**
 * A report as a CSV file (format=csv): its text, the filename of its Content-Disposition, and its
 * headers; refused unless it came as `text/csv` (docs/decisions/0015-files-are-files.md).
 */
export const reportCsv = async (app: TestApp, token: string, name: string, query: Record<string, string | number | boolean> = {}) => {
  const search = new URLSearchParams(Object.entries({ ...query, format: "csv" }).map(([key, value]) => [key, String(value)])).toString()
  const result = await app.call("GET", `/v1/reports/${name}?${search}`, { token })
  if (result.status !== 200) throw new Error(`${name}: ${result.status} ${JSON.stringify(result.body)}`)
  if (result.headers.get("content-type") !== "text/csv; charset=utf-8") throw new Error(`${name}: ${result.headers.get("content-type")}`)
  const filename = /filename="([^"]+)"/.exec(result.headers.get("content-disposition") ?? "")?.[1] ?? null
  return { text: result.body as string, filename, headers: result.headers }
}

/** Every page of a general ledger, following next_cursor. */
export const generalLedgerPages = async (app: TestApp, token: string, query: Record<string, string | number>) => {
  const pages: Array<any> = []
  let cursor: string | null = null
  do {
    const page: any = await report(app, token, "general-ledger", cursor === null ? query : { ...query, cursor })
    pages.push(page)
    cursor = page.next_cursor
    if (pages.length > 10_000) throw new Error("general ledger pages do not end")
  } while (cursor !== null)
  return pages
}

/** Trial balance rows as `code -> signed net (debit positive)`, for comparisons. */
export const trialBalanceNets = (trialBalance: any): Record<string, number> =>
  Object.fromEntries(trialBalance.rows.map((row: any) => [row.code ?? "(retained earnings)", row.debit_cents - row.credit_cents]))
