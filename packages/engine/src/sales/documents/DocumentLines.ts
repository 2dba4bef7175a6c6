import { Effect } from "effect"
import { SqlClient } from "effect/sql"
import { ApiError, Limits, type Sales } from "@ledger/api"
import * as Row from "../../kernel/Row.ts"
import { ControlAccountRules } from "../../ledger/index.ts"
import * as AccountStore from "../common/AccountStore.ts"
import { lineAmount } from "../common/LineAmounts.ts"
import { type TaxLine, taxLines } from "../tax/SalesTaxRules.ts"
import * as SalesTaxStore from "../tax/SalesTaxStore.ts"

/**
 * The lines of a document or an estimate before they exist: items, accounts, amounts and
 * taxability resolved, then tax per jurisdiction on the taxable ones. Documents (DocumentResolution.ts)
 * and estimates resolve their lines alike.
 */

export interface ResolvedLine {
  readonly lineNo: number
  readonly itemId: number | null
  readonly description: string | null
  readonly account: string
  readonly quantity: string | null
  readonly unitPriceCents: number | null
  readonly amountCents: number
  readonly class: string | null
  readonly taxable: boolean
}

/** The lines of a document or estimate: items, accounts, amounts and taxability resolved. */
export const resolveLines = Effect.fn("DocumentLines.resolveLines")(function*(
  company: string,
  documentSide: "sales" | "purchases",
  lines: ReadonlyArray<Sales.Shared.DocumentLineInput>,
  taxed: boolean
) {
  const sql = yield* SqlClient.SqlClient
  const itemIds = Array.from(new Set(lines.flatMap((line) => line.item_id === undefined ? [] : [line.item_id])))
  const itemRows = itemIds.length === 0
    ? []
    : yield* sql<Record<string, unknown>>`SELECT * FROM items WHERE company_id = ${company} AND id IN ${sql.in(itemIds)}`.pipe(Effect.orDie)
  const items = new Map(itemRows.map((row) => [Row.int(row.id), row]))
  const defaults = yield* AccountStore.defaults(company)
  const issues: Array<ApiError.Issue> = []
  const resolved: Array<ResolvedLine> = []
  lines.forEach((line, index) => {
    const item = line.item_id === undefined ? undefined : items.get(line.item_id)
    if (line.item_id !== undefined && (item === undefined || item.active !== true)) {
      issues.push({ path: ["body", "lines", index, "item_id"], message: item === undefined ? "Unknown item" : "Inactive item" })
      return
    }
    const itemAccount = item === undefined
      ? null
      : (documentSide === "sales" ? item.income_account : item.expense_account) as string | null
    const account = line.account ?? itemAccount ?? (documentSide === "sales" ? defaults.income : defaults.expense)
    if (account === null) {
      issues.push({ path: ["body", "lines", index, "account"], message: "No account: name one, use an item with one, or set a default" })
      return
    }
    const itemPrice = item === undefined ? null : Row.intOrNull(documentSide === "sales" ? item.sales_price_cents : item.purchase_cost_cents)
    const amount = lineAmount(index, line, itemPrice)
    if (amount._tag === "Refused") {
      issues.push(amount.issue)
      return
    }
    if (Math.abs(amount.amountCents) > Limits.amountCentsMax) {
      issues.push({ path: ["body", "lines", index], message: `A line is at most ${Limits.amountCentsMax} cents` })
      return
    }
    const unitPrice = line.unit_price_cents ?? (line.quantity !== undefined ? itemPrice : null)
    resolved.push({
      lineNo: index + 1,
      itemId: line.item_id ?? null,
      description: line.description ?? ((item?.description as string | null | undefined) ?? (item === undefined ? null : String(item.name))),
      account,
      quantity: line.quantity ?? null,
      unitPriceCents: unitPrice ?? null,
      amountCents: amount.amountCents,
      class: line.class ?? null,
      taxable: line.taxable ?? (item === undefined ? taxed : item.taxable === true)
    })
  })
  if (issues.length > 0) return yield* Effect.fail(ApiError.validationFailed("Some lines cannot be used.", issues))
  const facts = yield* AccountStore.requireUsable(company, resolved.map((line) => ({ code: line.account, path: ["body", "lines", line.lineNo - 1, "account"] })))
  const control = ControlAccountRules.checkDocumentLines(resolved.map((line) => ({
    account: line.account,
    control: facts.get(line.account)?.control ?? null,
    path: ["body", "lines", line.lineNo - 1, "account"]
  })))
  if (control !== null) return yield* Effect.fail(control)
  return resolved
})

/** Tax per jurisdiction on the taxable lines, each rounded on its own. */
export const resolveTax = Effect.fn("DocumentLines.resolveTax")(function*(
  company: string,
  taxRateId: number | undefined,
  lines: ReadonlyArray<ResolvedLine>
) {
  if (taxRateId === undefined) return { taxRateId: null, taxLines: [] as ReadonlyArray<TaxLine> }
  const rate = yield* SalesTaxStore.requireActive(company, taxRateId)
  const taxable = lines.filter((line) => line.taxable).reduce((sum, line) => sum + line.amountCents, 0)
  return { taxRateId, taxLines: taxLines(taxable, SalesTaxStore.jurisdictions(rate)) }
})
