import { Firms as FirmsApi } from "@ledger/api"
import * as Area from "../pipeline/Area.ts"
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
 * (keys, sessions, owner invitations) are strategies of the pipeline (pipeline/authenticate/Firm*.ts,
 * OwnerInvitation.ts); acting in a client goes through the pipeline like any company request.
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
  ]
})

/** The seam for the sign-in of the auth area: a firm session for a member who signed in on the web. */
export * as FirmSessionStore from "./FirmSessionStore.ts"
export * as FirmAuditRules from "./audit/FirmAuditRules.ts"
/** The firm log, for other areas that append to it (through this index, never its file). */
export * as FirmAudit from "./audit/FirmAudit.ts"
