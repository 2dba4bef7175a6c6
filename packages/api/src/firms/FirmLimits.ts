/** The firms area's limits (spec 8.2 and the ones the spec leaves open: docs/decisions/0902-firm-limits.md). */

export const emailLengthMax = 320
/** Owner invitation: 14 days, single use (spec 5.1, 8.2). */
export const invitationDays = 14
/** Firm sessions: 8 hours idle, 7 days at most (spec 5.1, 8.2). */
export const sessionIdleSeconds = 8 * 3_600
export const sessionLifetimeSeconds = 7 * 86_400
/** Firm keys: people 365 days by default, firm agents 30, at most 90 (spec 4.3). */
export const memberKeyDaysDefault = 365
export const memberKeyDaysMax = 3_650
export const agentKeyDaysDefault = 30
export const agentKeyDaysMax = 90
/** Items of one batch across clients (lock-period companies, proposal decisions). */
export const batchItemsMax = 100
/** Clients the console and the close checklist report on in one answer. */
export const clientsReportedMax = 500
/** Members, agents and keys of one firm. */
export const membersMax = 1_000
export const agentsMax = 200
export const liveKeysPerHolderMax = 20
/** Live sessions of one member: the oldest must be ended before another is opened. */
export const liveSessionsPerMemberMax = 20
/** `unapplied_days` of the close checklist: default and maximum. */
export const unappliedDaysDefault = 30
export const unappliedDaysMax = 3_650
/** Events of one audit verification: a longer chain is verified in windows (`from_seq`). */
export const auditVerifyWindowMax = 100_000
/**
 * Requests a minute of one firm credential (key or session) whose key and firm set no limit of
 * their own (spec 8.1: "for firm keys the firm default"); the `advanced` plan's. In a client the
 * client's plan limit applies as well (docs/decisions/0903-firm-requests-limited-audited-anchored.md).
 */
export const credentialRequestsPerMinuteDefault = 1_200
