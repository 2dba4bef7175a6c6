import { documentProposalKind, voidProposalKind } from "./DocumentHandlers.ts"
import { paymentProposalKind, paymentVoidProposalKind } from "./PaymentHandlers.ts"

/**
 * How a person's decision on a sales proposal is finished, per kind (registered one line each in
 * ledger/ProposalKinds.ts). Documents made from estimates and recurring templates are documents
 * of these same kinds: what they need at approval travels in the stored request.
 */
export const invoice = documentProposalKind
export const creditMemo = documentProposalKind
export const bill = documentProposalKind
export const vendorCredit = documentProposalKind
export const salesReceipt = documentProposalKind
export const refund = documentProposalKind
export const vendorRefund = documentProposalKind
export const documentVoid = voidProposalKind
export const paymentReceived = paymentProposalKind
export const paymentMade = paymentProposalKind
export const paymentVoid = paymentVoidProposalKind
