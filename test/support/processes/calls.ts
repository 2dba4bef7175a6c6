import { request } from "node:http"
import { Effect } from "effect"
import { type Store, withStore } from "../server-process.ts"

/**
 * Calls over HTTP to a running `ledger serve`, each on a connection of its own: with several
 * processes sharing the port (node:cluster hands each new connection to the next process), fresh
 * connections are what spreads requests over the processes.
 */

export interface Answer {
  readonly status: number
  readonly text: string
  readonly body: any
}

export const call = (
  baseUrl: string,
  method: string,
  path: string,
  options: { readonly token?: string; readonly key?: string; readonly body?: unknown; readonly requestId?: string } = {}
): Promise<Answer> =>
  new Promise((resolve, reject) => {
    const payload = options.body === undefined ? undefined : JSON.stringify(options.body)
    const headers: Record<string, string> = { connection: "close" }
    if (options.token !== undefined) headers.authorization = `Bearer ${options.token}`
    if (options.key !== undefined) headers["idempotency-key"] = options.key
    if (options.requestId !== undefined) headers["x-request-id"] = options.requestId
    if (payload !== undefined) headers["content-type"] = "application/json"
    const outgoing = request(`${baseUrl}${path}`, { method, headers, agent: false }, (incoming) => {
      let text = ""
      incoming.setEncoding("utf8")
      incoming.on("data", (chunk: string) => (text += chunk))
      incoming.on("end", () => {
        let body: any = null
        try {
          body = JSON.parse(text)
        } catch {
          body = null
        }
        resolve({ status: incoming.statusCode ?? 0, text, body })
      })
      incoming.on("error", reject)
    })
    outgoing.setTimeout(60_000, () => outgoing.destroy(new Error(`${method} ${path}: no answer in 60 s`)))
    outgoing.on("error", reject)
    outgoing.end(payload)
  })

export const today = () => new Date().toISOString().slice(0, 10)

/** A company made with the operator token; its owner's key. */
export const createCompany = async (baseUrl: string, operatorToken: string, name: string) => {
  const created = await call(baseUrl, "POST", "/v1/companies", {
    token: operatorToken,
    key: `company-${name.replace(/\W/g, "-")}-${Date.now()}`,
    body: { name, owner_name: "Owner" }
  })
  if (created.status !== 201) throw new Error(`company not created: ${created.status} ${created.text}`)
  return { companyId: created.body.company.company_id as string, owner: created.body.secret as string }
}

/**
 * Sends each of `keys` postings `sends` times at once, all interleaved, each on a fresh connection;
 * the answers by key. Every answer is a 201 or "in progress, retry" (409 idempotency_in_progress).
 */
export const idempotencyStorm = async (baseUrl: string, owner: string, memo: string, keys: number, sends: number) => {
  const all = Array.from({ length: keys * sends }, (_, index) => index % keys)
  const answers = await Promise.all(all.map(async (at) => {
    const answer = await call(baseUrl, "POST", "/v1/journal-entries/propose", {
      token: owner,
      key: `${memo}-key-${at}`,
      body: { entry_date: today(), memo: `${memo} ${at}`, lines: [{ account: "6070", debit_cents: 100 + at }, { account: "1010", credit_cents: 100 + at }] }
    })
    return { at, ...answer }
  }))
  const byKey = new Map<number, Array<Answer>>()
  for (const answer of answers) byKey.set(answer.at, [...(byKey.get(answer.at) ?? []), answer])
  return byKey
}

/** How many entries of `company` carry a memo starting with `memo`, read straight from the database. */
export const entriesWithMemo = (store: Store, company: string, memo: string) =>
  withStore({ databaseUrl: store.databaseUrl }, (sql) =>
    Effect.map(
      sql<{ count: number }>`SELECT count(*)::int AS count FROM journal_entries WHERE company_id = ${company} AND memo LIKE ${`${memo} %`}`,
      (rows) => Number(rows[0]!.count)
    ))
