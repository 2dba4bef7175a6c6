/**
 * The firm log's hash chain as pure rules (docs/decisions/0901-firm-audit-hash-chain.md). They
 * live in FirmAuditChain.ts beside the statements that append to the chain; the rules' users read
 * them from here.
 */
export {
  type Anchor,
  canonicalForm,
  canonicalJson,
  type ChainedEvent,
  genesis,
  hashOf,
  type Problem,
  verify,
  type Verdict
} from "./FirmAuditChain.ts"
