/**
 * The firm log's hash chain as pure rules (docs/decisions/0901-firm-audit-hash-chain.md). They
 * live with the pipeline's firm credentials (pipeline/authenticate/FirmAuditChain.ts), which
 * append refusals to the chain too; the firms area reads them from here.
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
} from "../../pipeline/authenticate/FirmAuditChain.ts"
