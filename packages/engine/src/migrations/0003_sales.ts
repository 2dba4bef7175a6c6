/** The sales (contacts, items, documents, payments, estimates, recurring, sales tax, email) tables. */
export const sql = ``
