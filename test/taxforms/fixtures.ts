import { readFileSync } from "node:fs"
import path from "node:path"
import { fileURLToPath } from "node:url"

/** The moov-io/irs Publication 1220 fixtures (test/fixtures/irs1220, SOURCES.md) and their JSON inputs. */

const folder = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../fixtures/irs1220")

export const ascii = (name: string): string => readFileSync(path.join(folder, `moov-irs_${name}.ascii`), "latin1")
export const json = (name: string): any => JSON.parse(readFileSync(path.join(folder, `moov-irs_${name}.json`), "utf8"))

const amounts = (source: any, prefix: string) =>
  Object.fromEntries(["1", "2", "3", "4", "5", "6", "7", "8", "9", "A", "B", "C", "D", "E", "F", "G", "H", "J"].map((code) => [code, source[`${prefix}${code}`]]))

export const transmitterOf = (t: any) => ({
  paymentYear: t.payment_year,
  priorYearData: t.prior_year_data_indicator === "P",
  tin: t.transmitter_tin,
  controlCode: t.transmitter_control_code,
  test: t.test_file_indicator === "T",
  foreignEntity: t.foreign_entity_indicator === "1",
  name: t.transmitter_name,
  nameContinued: t.transmitter_name_contd,
  companyName: t.company_name,
  companyNameContinued: t.company_name_contd,
  address: t.company_mailing_address,
  city: t.company_city,
  state: t.company_state,
  zip: t.company_zip_code,
  payeeCount: t.total_number_of_payees,
  contactName: t.contact_name,
  contactPhone: t.contact_telephone_number_and_ext,
  contactEmail: t.contact_email_address,
  sequence: t.record_sequence_number,
  // moov writes the vendor indicator and the vendor's name into one field ("VGSG CORP" at 518).
  vendorIndicator: t.vendor_indicator,
  vendor: {
    name: t.vendor_name,
    address: t.vendor_mailing_address,
    city: t.vendor_city,
    state: t.vendor_state,
    zip: t.vendor_zip_code,
    contactName: t.vendor_contact_name,
    contactPhone: t.vendor_contact_telephone_and_ext,
    foreignEntity: t.vendor_foreign_entity_indicator === "1"
  }
})

export const payerOf = (a: any) => ({
  paymentYear: a.payment_year,
  combinedFederalState: a.combined_fs_filing_program === "1",
  tin: a.payer_tin,
  nameControl: a.payer_name_control,
  lastFiling: a.last_filing_indicator === "1",
  typeOfReturn: a.type_of_return,
  amountCodes: a.amount_codes,
  foreignEntity: a.foreign_entity_indicator === "1",
  name: a.first_payer_name,
  name2: a.second_payer_name,
  transferAgent: a.transfer_agent_control === "1",
  address: a.payer_shipping_address,
  city: a.payer_city,
  state: a.payer_state,
  zip: a.payer_zip_code,
  phone: a.payer_telephone_number_and_ext,
  sequence: a.record_sequence_number
})

export const payeeOf = (b: any) => ({
  paymentYear: b.payment_year,
  corrected: b.corrected_return_indicator,
  nameControl: b.payees_name_control,
  typeOfTin: b.type_of_tin,
  tin: b.payees_tin,
  accountNumber: b.payers_account_number_for_payee,
  officeCode: b.payers_office_code,
  amounts: amounts(b, "payment_amount_"),
  foreignCountry: b.foreign_country_indicator === "1",
  name: b.first_payee_name_line,
  name2: b.second_payee_name_line,
  address: b.payee_mailing_address,
  city: b.payee_city,
  state: b.payee_state,
  zip: b.payee_zip_code,
  sequence: b.record_sequence_number,
  secondTinNotice: b.second_tin_notice === "2",
  directSales: b.direct_sales_indicator === "1",
  fatca: b.fatca_requirement_indicator === "1",
  specialData: b.special_data_entries,
  stateTaxWithheld: b.state_income_tax_withheld,
  localTaxWithheld: b.local_income_tax_withheld,
  combinedFederalStateCode: b.combined_federal_state_code
})

export const totalsOf = (c: any) => ({ payeeCount: c.number_of_payees, totals: amounts(c, "control_total_"), sequence: c.record_sequence_number })
