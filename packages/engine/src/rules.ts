/**
 * `@ledger/engine/rules`: the engine's pure domain rules, one namespace per rules module, for
 * programs that embed Ledger and want the same answers the engine gives without a database: how a
 * sales tax is rounded, when a recurring invoice falls due, what a posting policy allows, which
 * TIN is valid, how a 1099 FIRE record is laid out. Each is a set of small functions of plain
 * data (no SQL, no ports, no clock of their own), the ones the tests check with properties.
 *
 * A module here is public: renaming one of its functions is a breaking change of this package.
 * Handlers, stores and the request pipeline stay inside the engine.
 */

// Sign-in, second factors, passkeys, firm principals and rate limits.
export * as TotpRules from "./auth/factors/TotpRules.ts"
export * as SignInRules from "./auth/common/SignInRules.ts"
export * as PasskeyRules from "./auth/factors/PasskeyRules.ts"
export * as FirmPrincipal from "./pipeline/authenticate/FirmPrincipal.ts"
export * as RateLimits from "./pipeline/RateLimiter.ts"

// The books: posting policy, periods, fiscal years, control accounts, starter charts.
export * as PostingPolicy from "./ledger/entries/PostingPolicy.ts"
export * as ControlAccountRules from "./ledger/entries/ControlAccountRules.ts"
export * as FiscalYear from "./ledger/periods/FiscalYear.ts"
export * as JournalEntryRules from "./ledger/entries/JournalEntryRules.ts"
export * as PeriodRules from "./ledger/periods/PeriodRules.ts"
export * as StarterCharts from "./ledger/accounts/StarterCharts.ts"

// Sales: line amounts, sales tax and its rounding, posting, aging, recurrence.
export * as SalesTaxRules from "./sales/tax/SalesTaxRules.ts"
export * as Rounding from "./sales/common/Rounding.ts"
export * as LineAmounts from "./sales/common/LineAmounts.ts"
export * as DocumentPosting from "./sales/documents/DocumentPosting.ts"
export * as AgingRules from "./sales/aging/AgingRules.ts"
export * as Calendar from "./kernel/values/Calendar.ts"
export * as Recurrence from "./sales/recurring/Recurrence.ts"

// Banking: matching, bank rules, duplicate imports, reconciliation, reading statements.
export * as MatchingRules from "./banking/lines/MatchingRules.ts"
export * as BankRuleRules from "./banking/rules/BankRuleRules.ts"
export * as ImportRules from "./banking/ImportRules.ts"
export * as ReconciliationRules from "./banking/reconciliations/ReconciliationRules.ts"
export * as StatementAmount from "./kernel/values/Money.ts"
export * as StatementCsv from "./banking/statement/Csv.ts"
export * as StatementDates from "./banking/statement/Dates.ts"
export * as StatementOfx from "./banking/statement/Ofx.ts"
export * as StatementText from "./banking/statement/Text.ts"
export * as StatementReader from "./banking/statement/Reader.ts"
/** The most transactions a statement's text can hold, counted without parsing it (the import's size check). */
export { linesBound as statementLinesBound } from "./banking/Imports.ts"

// Reports.
export * as ReportCsv from "./kernel/formats/Csv.ts"
export * as GeneralLedgerRules from "./reports/GeneralLedgerRules.ts"
export * as ReportChart from "./reports/ReportChart.ts"
export * as ReportDates from "./reports/ReportDates.ts"
export * as YearEndClose from "./reports/YearEndClose.ts"
/** Totals across accounts, exact or refused past the safe integer range (ADR 0717). */
export * as SafeTotals from "./reports/SafeTotals.ts"

// Receipts.
export * as InboxRules from "./receipts/InboxRules.ts"
export * as ReceiptRules from "./receipts/ReceiptRules.ts"
export * as ReceiptTextFields from "./receipts/TextFields.ts"

// Tax lines, information returns (1099: amounts, TINs, the FIRE file), estimated taxes, mileage, payroll.
export * as TaxMappingRules from "./tax/MappingRules.ts"
export * as ReturnLines from "./tax/ReturnLines.ts"
export * as TaxFormAmountRules from "./taxforms/AmountRules.ts"
export * as TinRules from "./taxforms/TinRules.ts"
export * as FireFile from "./taxforms/fire/FireFile.ts"
export * as FireRecords from "./taxforms/fire/Records.ts"
export * as FilingContent from "./taxforms/FilingContent.ts"
export * as EstimatedTaxDueDates from "./estimated-taxes/DueDates.ts"
export * as EstimatedTaxTables from "./estimated-taxes/TaxTables.ts"
export * as EstimatedTaxWorksheet from "./estimated-taxes/WorksheetRules.ts"
export * as MileageRates from "./mileage/MileageRates.ts"
export * as MileageRules from "./mileage/MileageRules.ts"
export * as PayrollCsvRules from "./payroll/PayrollCsvRules.ts"

// Firms, the company profile, billing, online payments, webhooks, AI apps.
export * as FirmAuditRules from "./firms/audit/FirmAuditRules.ts"
export * as ProfileRules from "./profile/ProfileRules.ts"
export * as BillingRules from "./billing/BillingRules.ts"
export * as PaymentRules from "./online-payments/PaymentRules.ts"
export * as WebhookRules from "./webhooks/WebhookRules.ts"
export * as ConnectionRules from "./ai-apps/ConnectionRules.ts"

// Integrations and migrations from other books.
export * as IntegrationMappingRules from "./integrations/MappingRules.ts"
export * as Qbxml from "./migrations/Qbxml.ts"
export * as MigrationStaging from "./migrations/Staging.ts"
export * as TieoutRules from "./migrations/TieoutRules.ts"
export * as OnlineMigrationRules from "./migrations/OnlineRules.ts"
/** Ledger codes for imported accounts: the source's account number where usable, else M0001, M0002, ... */
export { codesFor as migratedAccountCodes } from "./migrations/Import.ts"
/** Where the Web Connector reaches the server, from its public base URL, or why it cannot. */
export { connectorUrls as webConnectorUrls } from "./migrations/Desktop.ts"

// Crypto: keys and descriptors, secrets pasted by mistake, lots and units.
export * as CryptoKeys from "./crypto/keys/Keys.ts"
export * as DescriptorChecksum from "./crypto/keys/DescriptorChecksum.ts"
export * as Bitcoin from "./crypto/keys/Bitcoin.ts"
export * as Monero from "./crypto/keys/Monero.ts"
export * as KeySecrets from "./crypto/keys/Secrets.ts"
export * as LotRules from "./crypto/core/LotRules.ts"
export * as UnitRules from "./crypto/core/UnitRules.ts"
