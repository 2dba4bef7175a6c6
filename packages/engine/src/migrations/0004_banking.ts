/** The banking (bank accounts, imports, lines, rules, feeds, reconciliations) tables. */
export const sql = ``
