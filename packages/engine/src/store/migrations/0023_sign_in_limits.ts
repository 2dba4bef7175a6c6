/**
 * Sign-in, continued (issue 22): abuse limits of the public steps, and firm members signing in on
 * the web (docs/decisions/1005-sign-in-abuse-limits.md, 1006-firm-members-sign-in.md).
 *
 * - `auth_throttle`: one row per counted public step, by bucket (`client:<address>`,
 *   `email:<address>`, `email-client:<address>|<client>`, `browser:<hash>`); counted over a
 *   sliding window and deleted a day after.
 * - `auth_mails.person`: who a queued mail is for, so the link request writes the same rows for a
 *   known and an unknown address and the worker does the rest (`status = 'void'`: never sent).
 * - `firm_members.email_verified_at`, and a firm session's own step-up and sign-in method: firm
 *   members sign in by email code or passkey into a `firm_sessions` row (the firms area's
 *   FirmSessionStore.open).
 */
export const sql = `
CREATE TABLE auth_throttle (
  id bigint PRIMARY KEY DEFAULT nextval('ledger_ids'),
  bucket text NOT NULL CHECK (length(bucket) <= 600),
  at timestamptz NOT NULL
);
CREATE INDEX auth_throttle_bucket ON auth_throttle (bucket, at);
CREATE INDEX auth_throttle_at ON auth_throttle (at);

ALTER TABLE auth_mails ADD COLUMN person text;
ALTER TABLE auth_mails DROP CONSTRAINT IF EXISTS auth_mails_status_check;
ALTER TABLE auth_mails ADD CONSTRAINT auth_mails_status_check CHECK (status IN ('queued', 'sent', 'failed', 'void'));

ALTER TABLE firm_members ADD COLUMN email_verified_at timestamptz;
CREATE INDEX firm_members_email ON firm_members (lower(email)) WHERE email IS NOT NULL AND status = 'active';
ALTER TABLE firm_sessions ADD COLUMN stepped_up_at timestamptz;
ALTER TABLE firm_sessions ADD COLUMN sign_in_method text;
`
