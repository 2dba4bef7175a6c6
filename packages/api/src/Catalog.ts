import * as Administration from "./administration/index.ts"
import * as Banking from "./banking/index.ts"
import * as Firms from "./firms/index.ts"
import * as Ledger from "./ledger/index.ts"
import * as Reports from "./reports/index.ts"
import * as Sales from "./sales/index.ts"
import * as Auth from "./auth/index.ts"
import * as Webhooks from "./webhooks/index.ts"
import * as Receipts from "./receipts/index.ts"
import * as Profile from "./profile/index.ts"
import * as Tax from "./tax/index.ts"
import * as TaxForms from "./taxforms/index.ts"
import * as Payroll from "./payroll/index.ts"
import * as Mileage from "./mileage/index.ts"
import * as EstimatedTaxes from "./estimated-taxes/index.ts"
import * as Crypto from "./crypto/index.ts"
import * as Integrations from "./integrations/index.ts"
import * as Migrations from "./migrations/index.ts"
import * as AiApps from "./ai-apps/index.ts"
import * as AiConsent from "./ai-consent/index.ts"
import * as OnlinePayments from "./online-payments/index.ts"
import * as Billing from "./billing/index.ts"
import type * as Operation from "./Operation.ts"

/**
 * Every operation Ledger serves, declared once. HTTP routes, the OpenAPI document, MCP tools, the
 * SDK and the conformance tests are all derived from this list. An area adds ONE line here.
 */
export const operations = [
  ...Administration.operations,
  ...Ledger.operations,
  ...Sales.operations,
  ...Banking.operations,
  ...Reports.operations,
  ...Firms.operations,
  ...Auth.operations,
  ...Webhooks.operations,
  ...Receipts.operations,
  ...Profile.operations,
  ...Tax.operations,
  ...TaxForms.operations,
  ...Payroll.operations,
  ...Mileage.operations,
  ...EstimatedTaxes.operations,
  ...Crypto.operations,
  ...Integrations.operations,
  ...Migrations.operations,
  ...AiApps.operations,
  ...AiConsent.operations,
  ...OnlinePayments.operations,
  ...Billing.operations
] as const

/** The operations of each area, by the area's folder name (MCP offers them as toolsets). */
export const areas = {
  administration: Administration.operations,
  ledger: Ledger.operations,
  sales: Sales.operations,
  banking: Banking.operations,
  reports: Reports.operations,
  firms: Firms.operations,
  auth: Auth.operations,
  webhooks: Webhooks.operations,
  receipts: Receipts.operations,
  profile: Profile.operations,
  tax: Tax.operations,
  taxforms: TaxForms.operations,
  payroll: Payroll.operations,
  mileage: Mileage.operations,
  "estimated-taxes": EstimatedTaxes.operations,
  crypto: Crypto.operations,
  integrations: Integrations.operations,
  migrations: Migrations.operations,
  "ai-apps": AiApps.operations,
  "ai-consent": AiConsent.operations,
  "online-payments": OnlinePayments.operations,
  "billing": Billing.operations
} as const

export type Operations = typeof operations[number]
export type OperationId = Operations["id"]

const byId = new Map<string, Operation.Any>(operations.map((operation) => [operation.id, operation as Operation.Any]))

export const get = (id: string): Operation.Any | undefined => byId.get(id)
