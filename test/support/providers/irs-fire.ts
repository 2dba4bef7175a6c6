import { readFileSync } from "node:fs"
import { fileURLToPath } from "node:url"

/**
 * Checks what the information-return filing adapter sends against the descriptions it has
 * (test/fixtures/providers/irs-fire):
 *
 * - the file: IRS Publication 1220's record layout (transcribed field by field by moov-io/irs,
 *   Apache-2.0: the IRS publishes it only as a PDF). Every record 750 positions, T, then per payer
 *   A, B..., C, K..., then F; each field by its type (numeric right-justified and zero-filled, year,
 *   telephone digits), required ones filled, blank ones blank (749-750 may be CR LF); the B record's
 *   positions 544-750 by its form's extension (1099-NEC, 1099-MISC, by the A record's type of
 *   return), its amounts only under the form's amount codes; sequence numbers 1, 2, 3...; counts.
 * - the envelope: the transmitter API the adapter speaks (`docs/taxforms.md`, "The filing
 *   provider"), which is this project's own, as FIRE has no API: `POST {base}/filings`
 *   `{company_id, filing_id, provider, year, format, filename, content, test}`,
 *   `GET {base}/filings/{reference}`, `POST {base}/tin-matches` `{name, tin, tin_type}`, Bearer
 *   token, JSON, absolute URLs; a FIRE file's year and test indicator match the envelope's.
 */

type Json = any
interface Field { readonly name: string; readonly start: number; readonly length: number; readonly type: string; readonly use: string }

const file = fileURLToPath(new URL("../../fixtures/providers/irs-fire/pub1220-layout.json", import.meta.url))
export const layout: {
  readonly recordLength: number
  readonly records: Record<string, ReadonlyArray<Field>>
  readonly typeOfReturn: Record<string, string>
  readonly extensions: Record<string, { readonly typeOfReturn: string; readonly amountCodes: Record<string, string>; readonly fields: ReadonlyArray<Field> }>
} = JSON.parse(readFileSync(file, "utf8"))

const amountCodes = ["1", "2", "3", "4", "5", "6", "7", "8", "9", "A", "B", "C", "D", "E", "F", "G", "H", "J"]

const fieldProblems = (record: string, field: Field, at: string, extension: boolean): Array<string> => {
  const value = record.slice(field.start - 1, field.start - 1 + field.length)
  const where = `${at} ${field.name} (${field.start}-${field.start + field.length - 1})`
  const blank = value.trim() === ""
  if (field.use === "blank") return blank || (field.start === 749 && value === "\r\n") ? [] : [`${where}: "${value.trim()}" where the layout has blanks`]
  // In the extensions the CF/SF code is required only of a payee in the Combined Federal/State program (Publication 1220).
  if (field.use === "required" && blank && !(extension && field.name === "CombinedFSCode")) return [`${where}: required, blank`]
  if (blank) return []
  switch (field.type) {
    case "ZeroNumeric":
      return /^\d+$/u.test(value) ? [] : [`${where}: "${value}" is not right-justified and zero-filled digits`]
    case "Numeric":
      return /^\d+ *$/u.test(value) ? [] : [`${where}: "${value}" is not digits`]
    case "DateYear":
      return /^\d{4}$/u.test(value) ? [] : [`${where}: "${value}" is not a year`]
    case "TelephoneNumber":
      return /^\d+ *$/u.test(value) ? [] : [`${where}: "${value}" is not a telephone number's digits`]
    default:
      return /^[\x20-\x7E]*$/u.test(value) ? [] : [`${where}: a character outside printable ASCII`]
  }
}

/** What is wrong with a Publication 1220 file by the layout; empty when nothing is. */
export const fireProblems = (content: string): Array<string> => {
  if (content.length % layout.recordLength !== 0) return [`the file is ${content.length} positions, not records of ${layout.recordLength}`]
  const records = Array.from({ length: content.length / layout.recordLength }, (_, index) => content.slice(index * layout.recordLength, (index + 1) * layout.recordLength))
  const problems: Array<string> = []
  const types = records.map((record) => record[0]).join("")
  if (!/^T(AB*CK*)+F$/u.test(types)) problems.push(`the records are ${types}: T, then A B... C K... per payer, then F`)
  let form: (typeof layout.extensions)[string] | undefined
  let payees = 0
  records.forEach((record, index) => {
    const type = record[0]!
    const at = `record ${index + 1} (${type})`
    const fields = layout.records[type]
    if (fields === undefined) return
    const main = type === "B" ? fields.filter((field) => field.start < 544) : fields
    for (const field of main) problems.push(...fieldProblems(record, field, at, false))
    if (Number(record.slice(499, 507)) !== index + 1) problems.push(`${at}: sequence ${record.slice(499, 507)}, not ${index + 1}`)
    if (type === "A") {
      payees = 0
      const code = record.slice(25, 27).trim()
      form = Object.values(layout.extensions).find((extension) => extension.typeOfReturn === code)
      if (layout.typeOfReturn[code] === undefined) problems.push(`${at}: type of return "${code}" is not one the publication has`)
      const used = record.slice(27, 43).trim()
      if (form !== undefined) for (const amount of used) if (form.amountCodes[amount] === undefined) problems.push(`${at}: amount code ${amount} is not one of ${layout.typeOfReturn[code]}'s`)
    }
    if (type === "B") {
      payees++
      for (const field of form?.fields ?? []) problems.push(...fieldProblems(record, field, at, true))
      if (form !== undefined) {
        amountCodes.forEach((code, slot) => {
          const amount = Number(record.slice(54 + slot * 12, 66 + slot * 12))
          if (amount !== 0 && form!.amountCodes[code] === undefined) problems.push(`${at}: an amount under code ${code}, which ${form!.typeOfReturn} does not have`)
        })
      }
    }
    if (type === "C" && Number(record.slice(1, 9)) !== payees) problems.push(`${at}: counts ${Number(record.slice(1, 9))} payees, not ${payees}`)
  })
  return problems
}

export interface Recorded {
  readonly method: string
  readonly url: string
  readonly headers: Readonly<Record<string, string>>
  readonly body: string
  readonly status?: number
  readonly answer?: Json
}

const statuses = ["submitted", "accepted", "partially_accepted", "rejected_by_irs"]
const results = ["matched", "mismatched", "not_issued", "invalid", "pending"]

/** What is wrong with one request to the filing provider; `base` is where the provider is. */
export const requestProblems = (base: string) => (request: Recorded): Array<string> => {
  if (!/^https?:\/\//iu.test(request.url) || !URL.canParse(request.url)) return [`${request.method} ${request.url}: not an absolute URL`]
  const path = request.url.startsWith(base) ? request.url.slice(base.replace(/\/+$/u, "").length) : null
  const name = `${request.method} ${path ?? request.url}`
  if (path === null) return [`${name}: not under the provider's base URL ${base}`]
  const problems: Array<string> = []
  if (!/^Bearer \S+$/u.test(request.headers.authorization ?? "")) problems.push(`${name}: no Bearer token`)
  if (request.method === "GET" && /^\/filings\/[^/]+$/u.test(path)) return request.body === "" ? problems : [...problems, `${name}: a body on a GET`]
  if (request.method !== "POST" || (path !== "/filings" && path !== "/tin-matches")) return [...problems, `${name}: no such operation`]
  if (!(request.headers["content-type"] ?? "").startsWith("application/json")) problems.push(`${name}: not JSON`)
  const body = JSON.parse(request.body || "null") as Json
  const expect = (key: string, ok: (value: Json) => boolean, what: string) => {
    if (!ok(body?.[key])) problems.push(`${name}: ${key} ${JSON.stringify(body?.[key])} is not ${what}`)
  }
  if (path === "/tin-matches") {
    expect("name", (value) => typeof value === "string" && value !== "", "a name")
    expect("tin", (value) => typeof value === "string" && /^\d{9}$/u.test(value), "nine digits")
    expect("tin_type", (value) => ["SSN", "EIN", "ITIN", "ATIN"].includes(value), "SSN, EIN, ITIN or ATIN")
    return problems
  }
  expect("company_id", (value) => typeof value === "string" && value !== "", "a company id")
  expect("filing_id", Number.isInteger, "an integer")
  expect("provider", (value) => typeof value === "string" && value !== "", "a provider")
  expect("year", (value) => Number.isInteger(value) && value >= 2000, "a year")
  expect("format", (value) => value === "fire" || value === "csv", "fire or csv")
  expect("filename", (value) => typeof value === "string" && value !== "", "a file name")
  expect("content", (value) => typeof value === "string" && value !== "", "the file")
  expect("test", (value) => typeof value === "boolean", "true or false")
  if (body?.format === "fire" && typeof body.content === "string") {
    problems.push(...fireProblems(body.content).map((problem) => `${name}: the file: ${problem}`))
    if (body.content.slice(1, 5) !== String(body.year)) problems.push(`${name}: the file's payment year ${body.content.slice(1, 5)} is not the filing's ${body.year}`)
    if ((body.content[27] === "T") !== (body.test === true)) problems.push(`${name}: the file's test indicator "${body.content[27]}" does not say test=${body.test}`)
  }
  return problems
}

/** What is wrong with an answer of the filing provider. */
export const responseProblems = (request: Recorded): Array<string> => {
  if (request.answer === undefined) return []
  const name = `${request.method} ${new URL(request.url).pathname} answer ${request.status}`
  const answer = request.answer
  if ((request.status ?? 500) >= 300) return typeof answer?.error?.type === "string" && typeof answer.error.message === "string" ? [] : [`${name}: a refusal is {error: {type, message}}`]
  if (new URL(request.url).pathname.endsWith("/tin-matches")) {
    return results.includes(answer.result) && typeof answer.reference === "string" ? [] : [`${name}: not {result, reference}`]
  }
  const problems: Array<string> = []
  if (typeof answer.reference !== "string") problems.push(`${name}: no reference`)
  if (!statuses.includes(answer.status)) problems.push(`${name}: status ${JSON.stringify(answer.status)} is not one of ${statuses.join(", ")}`)
  if (answer.receipt_id !== undefined && answer.receipt_id !== null && typeof answer.receipt_id !== "string") problems.push(`${name}: receipt_id is not text`)
  if (answer.rejected_records !== undefined && !(Array.isArray(answer.rejected_records) && answer.rejected_records.every(Number.isInteger))) problems.push(`${name}: rejected_records are not record numbers`)
  return problems
}
