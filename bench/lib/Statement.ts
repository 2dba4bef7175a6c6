/**
 * A generated bank statement, as OFX 1.x (SGML) or CSV, for the import benchmarks: `count`
 * transactions over 2025 in the bank's own order (oldest first), amounts spread over both signs.
 */
export const statement = (format: "ofx" | "csv", count: number): string => {
  const start = Date.UTC(2025, 0, 1)
  const day = (index: number) => new Date(start + Math.floor(index * 365 / count) * 86_400_000).toISOString().slice(0, 10)
  const cents = (index: number) => ((index * 7919) % 500_000) - 250_000 || 100
  if (format === "csv") {
    const rows = ["Date,Description,Amount,Transaction ID"]
    for (let index = 0; index < count; index++) {
      const amount = cents(index)
      rows.push(`${day(index)},"Payee ${index % 997} store ${index % 13}",${(amount / 100).toFixed(2)},T${index}`)
    }
    return `${rows.join("\n")}\n`
  }
  const transactions: Array<string> = []
  for (let index = 0; index < count; index++) {
    const amount = cents(index)
    transactions.push(
      `<STMTTRN><TRNTYPE>${amount < 0 ? "DEBIT" : "CREDIT"}<DTPOSTED>${day(index).replace(/-/g, "")}120000` +
        `<TRNAMT>${(amount / 100).toFixed(2)}<FITID>F${index}<NAME>Payee ${index % 997}<MEMO>Store ${index % 13}</STMTTRN>`
    )
  }
  return [
    "OFXHEADER:100", "DATA:OFXSGML", "VERSION:102", "SECURITY:NONE", "ENCODING:USASCII", "CHARSET:1252",
    "COMPRESSION:NONE", "OLDFILEUID:NONE", "NEWFILEUID:NONE", "",
    "<OFX><SIGNONMSGSRSV1><SONRS><STATUS><CODE>0<SEVERITY>INFO</STATUS><DTSERVER>20260101<LANGUAGE>ENG</SONRS></SIGNONMSGSRSV1>",
    "<BANKMSGSRSV1><STMTTRNRS><TRNUID>1<STATUS><CODE>0<SEVERITY>INFO</STATUS><STMTRS><CURDEF>USD",
    "<BANKACCTFROM><BANKID>121000248<ACCTID>000123456789<ACCTTYPE>CHECKING</BANKACCTFROM>",
    "<BANKTRANLIST><DTSTART>20250101<DTEND>20251231",
    ...transactions,
    "</BANKTRANLIST><LEDGERBAL><BALAMT>0.00<DTASOF>20251231</LEDGERBAL></STMTRS></STMTTRNRS></BANKMSGSRSV1></OFX>",
    ""
  ].join("\n")
}

