import { Firms as FirmsApi } from "@ledger/api"
import * as Area from "../pipeline/Area.ts"
import * as FirmAuditChain from "./audit/FirmAuditChain.ts"
import * as FirmCredential from "./credentials/FirmCredential.ts"
import * as FirmKey from "./credentials/FirmKey.ts"
import * as FirmSession from "./credentials/FirmSession.ts"
import * as OwnerInvitation from "./credentials/OwnerInvitation.ts"
import * as FirmAccess from "./FirmAccess.ts"
import * as FirmAgents from "./FirmAgents.ts"
import * as FirmAuditLog from "./FirmAuditLog.ts"
import * as FirmBatch from "./FirmBatch.ts"
import * as FirmClients from "./FirmClients.ts"
import * as FirmConsole from "./FirmConsole.ts"
import * as FirmKeys from "./FirmKeys.ts"
import * as Firms from "./Firms.ts"
import * as FirmSessions from "./FirmSessions.ts"

/**
 * Firms (spec 4.3): accounting firms that keep the books of many companies. The firm credentials
 * (keys, sessions, owner invitations) are this area's strategies for the pipeline's doors
 * (credentials/): the firm's own operations, a firm credential acting in a client named by
 * `X-Ledger-Company` (through the client's grant), and the owner invitation's claim.
 */
export const area = Area.make({
  name: "firms",
  operations: FirmsApi.operations,
  handlers: [
    ...Firms.handlers,
    ...FirmKeys.handlers,
    ...FirmSessions.handlers,
    ...FirmAgents.handlers,
    ...FirmClients.handlers,
    ...FirmConsole.handlers,
    ...FirmBatch.handlers,
    ...FirmAuditLog.handlers,
    ...FirmAccess.handlers
  ],
  credentialStrategies: [
    FirmSession.strategy,
    FirmKey.strategy,
    FirmCredential.inClientStrategy,
    FirmCredential.withoutClientStrategy,
    OwnerInvitation.strategy
  ],
  // A firm credential's refusals go into its firm's log too (ADR 0903).
  refusalLogs: [FirmAuditChain.refusalLog]
})

/** The seam for the sign-in of the auth area: a firm session for a member who signed in on the web. */
export * as FirmSessionStore from "./FirmSessionStore.ts"
export * as FirmAuditRules from "./audit/FirmAuditRules.ts"
/** The firm log, for other areas that append to it (through this index, never its file). */
export * as FirmAudit from "./audit/FirmAudit.ts"
