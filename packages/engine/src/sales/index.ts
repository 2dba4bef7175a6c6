/**
 * What the sales area offers outside the engine: the mail port (with its in-memory fake), the
 * background job queue, and the work of its jobs (email delivery, payment reminders).
 */
export * as EmailDelivery from "./EmailDelivery.ts"
export * as Jobs from "../ports/Jobs.ts"
export { Mail, MailError, type Attachment, type OutgoingMessage } from "../ports/Mail.ts"
export * as Reminders from "./Reminders.ts"
