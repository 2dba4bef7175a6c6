/**
 * The receipt inbox's daily quota per company (issue 41 item 2): the SMTP listener asks at RCPT
 * how many messages the company's inbox took in the last 24 hours. This index answers that from
 * the company's recent entries only, however many messages it kept over the years.
 */
export const sql = `
CREATE INDEX receipt_inbox_messages_received ON receipt_inbox_messages (company_id, received_at);
`
