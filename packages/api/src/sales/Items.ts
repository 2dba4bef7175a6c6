import { Schema } from "effect"
import { Id, Name, NonNegativeCents, PageQuery, Page, Reason, Timestamp } from "../Common.ts"
import * as Limits from "../Limits.ts"
import * as Operation from "../Operation.ts"
import { AccountCode, IdPath } from "./Shared.ts"

const area = "4.7 Sales and purchases"

export const ItemKind = Schema.Literals(["service", "non_inventory"]).annotate({ description: "A service or a non-inventory product." })
const Description = Schema.String.check(Schema.isMaxLength(Limits.lineDescriptionLengthMax)).annotate({
  description: "The text a document line takes when it names the item."
})

export const Item = Schema.Struct({
  id: Id,
  name: Name,
  kind: ItemKind,
  description: Schema.NullOr(Schema.String),
  sales_price_cents: Schema.NullOr(Schema.Int),
  purchase_cost_cents: Schema.NullOr(Schema.Int),
  income_account: Schema.NullOr(Schema.String),
  expense_account: Schema.NullOr(Schema.String),
  taxable: Schema.Boolean,
  active: Schema.Boolean,
  created_at: Timestamp
}).annotate({ identifier: "Item" })
export type Item = typeof Item.Type

export const createItem = Operation.make({
  id: "createItem",
  method: "POST",
  path: "/v1/items",
  area,
  summary: "Add a product or service you sell or buy.",
  scope: "admin",
  mode: "K",
  body: Schema.Struct({
    name: Name,
    kind: ItemKind,
    description: Schema.optionalKey(Description),
    sales_price_cents: Schema.optionalKey(NonNegativeCents),
    purchase_cost_cents: Schema.optionalKey(NonNegativeCents),
    income_account: Schema.optionalKey(AccountCode),
    expense_account: Schema.optionalKey(AccountCode),
    taxable: Schema.optionalKey(Schema.Boolean.annotate({ description: "Sales tax applies to the item's lines (default true)." }))
  }),
  success: Item
})

export const listItems = Operation.make({
  id: "listItems",
  method: "GET",
  path: "/v1/items",
  area,
  summary: "Products and services.",
  scope: "read",
  mode: "R",
  query: Schema.Struct({ include_inactive: Schema.optionalKey(Schema.Boolean), ...PageQuery }),
  success: Page(Item)
})

export const getItem = Operation.make({
  id: "getItem",
  method: "GET",
  path: "/v1/items/{id}",
  area,
  summary: "One item.",
  scope: "read",
  mode: "R",
  pathParams: IdPath,
  success: Item
})

export const updateItem = Operation.make({
  id: "updateItem",
  method: "POST",
  path: "/v1/items/{id}/update",
  area,
  summary: "Change an item's name, prices, accounts, taxability or active flag. Documents keep what they used.",
  scope: "admin",
  mode: "K",
  status: 200,
  pathParams: IdPath,
  body: Schema.Struct({
    name: Schema.optionalKey(Name),
    description: Schema.optionalKey(Schema.NullOr(Description)),
    sales_price_cents: Schema.optionalKey(Schema.NullOr(NonNegativeCents)),
    purchase_cost_cents: Schema.optionalKey(Schema.NullOr(NonNegativeCents)),
    income_account: Schema.optionalKey(Schema.NullOr(AccountCode)),
    expense_account: Schema.optionalKey(Schema.NullOr(AccountCode)),
    taxable: Schema.optionalKey(Schema.Boolean.annotate({ description: "Sales tax applies to the item's lines." })),
    active: Schema.optionalKey(Schema.Boolean.annotate({ description: "False deactivates the item: no new lines; history stays." })),
    reason: Schema.optionalKey(Reason)
  }),
  success: Item
})

export const operations = [createItem, listItems, getItem, updateItem] as const
