import { createPriorAmounts, get1099Summary, listPriorAmounts, voidPriorAmount } from "./Amounts.ts"
import {
  ackFiling,
  approveFiling,
  createFiling,
  getFiledCopy,
  getFiling,
  getRecipientCopies,
  listFilings,
  refreshFiling,
  rejectFiling,
  retryFiling
} from "./Filings.ts"
import { getPayer, listAccountBoxes, setAccountBox, setPayer, setVendorBox } from "./Payer.ts"
import { getVendorTaxProfile, matchVendorTin, revealVendorTin, setVendorTaxProfile } from "./Profiles.ts"
import { cancelW9Request, createW9Request, listW9Requests, submitW9 } from "./W9.ts"

/** Information-return (1099) forms (spec 3-endpoints-b 4.7): payer, payees, amounts, filings. */
export * as Amounts from "./Amounts.ts"
export * as Filings from "./Filings.ts"
export * as Payer from "./Payer.ts"
export * as Profiles from "./Profiles.ts"
export * as Shared from "./Shared.ts"
export * as W9 from "./W9.ts"

export const operations = [
  get1099Summary,
  getPayer,
  setPayer,
  listAccountBoxes,
  setAccountBox,
  setVendorBox,
  getVendorTaxProfile,
  setVendorTaxProfile,
  revealVendorTin,
  matchVendorTin,
  listW9Requests,
  createW9Request,
  cancelW9Request,
  listPriorAmounts,
  createPriorAmounts,
  voidPriorAmount,
  listFilings,
  createFiling,
  getFiling,
  approveFiling,
  rejectFiling,
  retryFiling,
  ackFiling,
  refreshFiling,
  getFiledCopy,
  getRecipientCopies,
  submitW9
] as const
