import { Schema } from "effect"
import { DateString, DryRun, Name, Page, PageQuery, Reason } from "../Common.ts"
import * as Operation from "../Operation.ts"
import { starterCharts } from "../administration/Companies.ts"
import {
  Account,
  AccountCode,
  AccountDefaults,
  AccountSubtype,
  AccountType,
  Class,
  Control,
  StarterChart,
  StarterChartAccount
} from "./Records.ts"

const area = "4.4 Ledger"

export const createAccount = Operation.make({
  id: "createAccount",
  method: "POST",
  path: "/v1/accounts",
  area,
  summary: "Add an account to the chart. Code, type and control never change; accounts are never deleted.",
  scope: "admin",
  mode: "K",
  body: Schema.Struct({
    code: AccountCode,
    name: Name,
    type: AccountType,
    subtype: Schema.optionalKey(Schema.NullOr(AccountSubtype)),
    parent_code: Schema.optionalKey(Schema.NullOr(AccountCode)),
    control: Schema.optionalKey(Schema.NullOr(Control))
  }),
  success: Account,
  errors: ["conflict"]
})

export const AccountList = Schema.Struct({
  data: Schema.Array(Account),
  has_more: Schema.Boolean,
  next_cursor: Schema.NullOr(Schema.String),
  defaults: AccountDefaults,
  as_of: Schema.optionalKey(DateString).annotate({ description: "With include_balances: the date the balances are as of." })
}).annotate({ identifier: "AccountList" })

export const listAccounts = Operation.make({
  id: "listAccounts",
  method: "GET",
  path: "/v1/accounts",
  area,
  summary: "The chart of accounts in code order, with the default income and expense accounts; balances on request.",
  scope: "read",
  mode: "R",
  query: Schema.Struct({
    include_inactive: Schema.optionalKey(Schema.Boolean),
    include_balances: Schema.optionalKey(Schema.Boolean),
    as_of: Schema.optionalKey(DateString).annotate({ description: "Balances as of the end of this date; default today." }),
    ...PageQuery
  }),
  success: AccountList,
  errors: ["amount_out_of_range"]
})

export const AccountUpdatePreview = Schema.Struct({
  dry_run: Schema.Literal(true),
  account: Account
}).annotate({ identifier: "AccountUpdatePreview" })

export const updateAccount = Operation.make({
  id: "updateAccount",
  method: "POST",
  path: "/v1/accounts/{code}/update",
  area,
  summary: "Rename, deactivate or reactivate an account. Deactivation of a protected account is refused (account_protected).",
  scope: "admin",
  mode: "K",
  status: 200,
  pathParams: Schema.Struct({ code: AccountCode }),
  body: Schema.Struct({
    name: Schema.optionalKey(Name),
    active: Schema.optionalKey(Schema.Boolean.annotate({ description: "False deactivates the account: no new postings; its history stays." })),
    reason: Schema.optionalKey(Reason),
    dry_run: DryRun
  }),
  success: Account,
  otherResponses: { 200: Schema.Union([Account, AccountUpdatePreview]) },
  errors: ["account_protected"]
})

export const setDefaultAccounts = Operation.make({
  id: "setDefaultAccounts",
  method: "POST",
  path: "/v1/accounts/defaults",
  area,
  summary: "Choose the default income and expense accounts (document lines without an account or item use them).",
  scope: "admin",
  mode: "-",
  body: Schema.Struct({
    income: Schema.optionalKey(Schema.NullOr(AccountCode)),
    expense: Schema.optionalKey(Schema.NullOr(AccountCode))
  }),
  success: AccountDefaults
})

export const listStarterCharts = Operation.make({
  id: "listStarterCharts",
  method: "GET",
  path: "/v1/starter-charts",
  area,
  summary: "The starter charts a company may begin with, with every account they create.",
  scope: "read",
  mode: "R",
  query: Schema.Struct(PageQuery),
  success: Page(StarterChart)
})

export const AppliedStarterChart = Schema.Struct({
  template: Schema.Literals(starterCharts),
  accounts: Schema.Array(Account),
  defaults: AccountDefaults
}).annotate({ identifier: "AppliedStarterChart" })

export const StarterChartPreview = Schema.Struct({
  dry_run: Schema.Literal(true),
  template: Schema.Literals(starterCharts),
  accounts: Schema.Array(StarterChartAccount),
  defaults: AccountDefaults
}).annotate({ identifier: "StarterChartPreview" })

export const applyStarterChart = Operation.make({
  id: "applyStarterChart",
  method: "POST",
  path: "/v1/accounts/starter-chart",
  area,
  summary: "Create a starter chart's accounts and defaults in a company whose chart is empty.",
  scope: "admin",
  mode: "K",
  body: Schema.Struct({
    template: Schema.Literals(starterCharts).annotate({ description: "The starter chart whose accounts to add: general, services, retail or empty." }),
    dry_run: DryRun
  }),
  success: AppliedStarterChart,
  otherResponses: { 200: StarterChartPreview },
  errors: ["chart_not_empty"]
})

export const createClass = Operation.make({
  id: "createClass",
  method: "POST",
  path: "/v1/classes",
  area,
  summary: "Add a class: a reporting dimension journal lines may carry.",
  scope: "admin",
  mode: "K",
  body: Schema.Struct({ name: Name }),
  success: Class,
  errors: ["conflict"]
})

export const listClasses = Operation.make({
  id: "listClasses",
  method: "GET",
  path: "/v1/classes",
  area,
  summary: "The company's classes, by name.",
  scope: "read",
  mode: "R",
  query: Schema.Struct({ ...PageQuery }),
  success: Page(Class)
})
