/**
 * Every size and count Ledger accepts, in one place. Names carry the unit last so a reader never
 * has to guess whether a number is bytes, characters or items.
 */

/** Characters in a company, owner, user, agent or other display name. */
export const nameLengthMax = 200
/** Characters in a free-text reason or memo. */
export const reasonLengthMax = 1_000
export const memoLengthMax = 1_000

/** Idempotency keys (spec 8.2). */
export const idempotencyKeyLengthMin = 8
export const idempotencyKeyLengthMax = 200
/** Idempotency records are kept at least this long (DECISIONS.md). */
export const idempotencyRetentionDays = 7

/** A JSON request body larger than this is refused with 413 before it is parsed. */
export const requestBodyBytesMax = 1_048_576
/** Nesting of arrays and objects in a request body; deeper bodies are refused with 400. */
export const requestBodyDepthMax = 32

/** Lists (DECISIONS.md). */
export const pageSizeDefault = 100
export const pageSizeMax = 1_000

/** Journal entries (DECISIONS.md). */
export const entryLinesMin = 2
export const entryLinesMax = 500
/** One line or one entry total: far below 2^53, so sums of many lines stay exact in JSON. */
export const amountCentsMax = 1_000_000_000_000_000

/** API keys (spec 5.1, 8.2). */
export const personKeyDaysDefault = 365
export const personKeyDaysMax = 3_650
export const agentKeyDaysDefault = 30
export const agentKeyDaysMax = 90
export const rotationOverlapSecondsDefault = 86_400
export const rotationOverlapSecondsMax = 604_800

/** Rate limits (spec 8.1): requests a minute by plan. */
export const planRequestsPerMinute = {
  solo: 60,
  business: 300,
  advanced: 1_200
} as const
/** The operator's setting for `owned` companies when it sets none. */
export const ownedPlanRequestsPerMinuteDefault = 6_000
export const rateLimitRequestsPerMinuteMax = 100_000

/** Agents. */
export const postingThresholdCentsMax = amountCentsMax
/** Scopes an agent or key may hold: the four names, each at most once. */
export const scopesCountMax = 4

/** Sales and purchases: documents, payments, estimates, recurring templates, sales tax, email. */
export const documentLinesMax = 200
export const documentNumberLengthMax = 40
export const documentReferenceLengthMax = 100
export const lineDescriptionLengthMax = 1_000
/** Quantities are decimal strings: digits before and after the point. */
export const quantityIntegerDigitsMax = 12
export const quantityDecimalPlacesMax = 4
export const applicationsMax = 100
export const termsDaysMax = 3_650
export const taxRateComponentsMin = 2
export const taxRateComponentsMax = 10
export const taxRateDecimalPlacesMax = 4
export const recurringIntervalCountMax = 99
/** Occurrences one run may generate for one template; a run far behind catches up over several. */
export const recurringOccurrencesPerRunMax = 400
export const recurringTemplatesPerRunMax = 500
export const emailAddressLengthMax = 254
export const emailCcCountMax = 10
export const emailMessageLengthMax = 5_000
export const emailSubjectLengthMax = 200
export const reminderDaysCountMax = 10
export const reminderDaysOffsetMax = 365
/** Failed deliveries are tried this many times before the email is `failed`. */
export const emailDeliveryAttemptsMax = 5

/** Ledger: accounts, classes, periods, proposals. */
export const accountCodeLengthMax = 20
export const accountSubtypeLengthMax = 60
export const accountsPerCompanyMax = 5_000
/** Levels of sub-accounts below a top-level account. */
export const accountDepthMax = 5
export const classesPerCompanyMax = 1_000
/** A period is at most a year long (a leap year's 366 days). */
export const periodDaysMax = 366
export const periodsPerCompanyMax = 2_400
export const fiscalYearMin = 1900
export const fiscalYearMax = 2200
export const proposalSummaryLengthMax = 200

/** Banking: statement imports, bank lines, rules, feeds, reconciliation. */
export const bankMaskLengthMax = 34
export const csvColumnsMax = 200
/** A statement file's content as sent (characters of text or of base64). */
export const statementCharactersMax = 50_000_000
export const statementLinesMax = 200_000
/** Lines are checked for duplicates and inserted this many at a time (on PostgreSQL). */
export const importBatchLinesMax = 2_000
/**
 * The same on embedded PGlite, where the database runs on the server's own thread: a batch of
 * 2,000 held every other request for about 100 ms, a batch of 500 for about 35 (ADR 0408).
 */
export const importBatchLinesEmbeddedMax = 500
/** A dry run shows at most this many parsed lines. */
export const importPreviewLinesMax = 1_000
export const bankRulesPerCompanyMax = 1_000
export const autoMatchWindowDaysDefault = 4
export const autoMatchWindowDaysMax = 60
/** Entries cleared or uncleared by one reconciliation update. */
export const reconciliationChangeItemsMax = 5_000
/** Feed accounts linked at once, by plan (spec 8.2); advanced and owned have no limit. */
export const feedAccountsByPlan = { solo: 3, business: 15 } as const
export const feedImportMonthsDefault = 24
export const linkTokenMinutes = 30

/** Reports: accounts one general ledger request may name in `account`. */
export const generalLedgerAccountFilterCountMax = 100

/** Foundation: characters in X-Agent-Model and X-Agent-Run-Id (or their MCP _meta keys). */
export const agentModelLengthMax = 200
export const agentRunIdLengthMax = 200

/** Foundation: refusals of one revoked, expired or rotated-out key written to the audit log a minute. */
export const endedKeyAuditsPerMinute = 30

/**
 * Foundation: credentials one client address may get wrong over a sliding minute before its further
 * failures are answered 429 (issue 19 item 7). Only failures are refused: a valid credential from
 * the address is served (issue 41 item 4). Counted in the database, shared by every replica (ADR
 * 2300). Enough for a person's typos and a misconfigured client's retries; far too few to guess a
 * 43-character secret.
 */
export const failedAuthenticationsPerAddressPerMinute = 60

/**
 * AI apps: OAuth dynamic client registrations (`POST /oauth/register`) one client address may
 * make in an hour, and all addresses together, counted in the database across replicas (issue 41
 * item 4, ADR 2300). An app registers once per install; 1,000 a second from one address was an
 * attacker filling the table. Past either, 429 with Retry-After.
 */
export const oauthRegistrationsPerAddressPerHour = 20
export const oauthRegistrationsPerHour = 1_000

/** AI apps: characters of a registered client's `client_name`, `software_id` and `software_version` (the consent screen shows the name). */
export const oauthClientTextMax = 200

/** AI apps: characters of a registered client's `client_uri`, `logo_uri`, `tos_uri` and `policy_uri`. */
export const oauthClientUriMax = 2_000

/**
 * AI apps: hours a client registered at `/oauth/register` is kept while no connection names it.
 * After that it is unknown (`invalid_client`) and deleted as new registrations arrive; an app
 * registers again. A connected client is kept as long as its connections.
 */
export const oauthUnusedClientHours = 24

/** A statement import's JSON body: a 100,000-line statement is 5 to 15 MB, base64 adds a third. */
export const statementBodyBytesMax = 67_108_864

/**
 * Receipts: decompressed bytes of a PDF's content and font streams its text is read from, over the
 * whole file (a stream shown on several pages counts at each). A receipt's text streams are
 * kilobytes; without a bound a 105 KB file of one deflated 100 MB stream on 50 pages held every
 * request to the server for 77 s. Past it the receipt is stored with the text read so far.
 */
export const receiptPdfContentBytesMax = 4_194_304

/** Issues one refusal lists (`error.details.issues`); `issues_total` counts them all. */
export const errorIssuesMax = 20
