/**
 * A hard lock is left only by a reopening the statement itself states (issue 38 item 8, ADR 2016).
 * Migration 0032's guard checked the row as it would be after the UPDATE, so a bare
 * `UPDATE periods SET status = 'open'` passed on a period locked through the API: the row still
 * carried the lock's own reason and stamp. The guard now asks what a reopening only has when the
 * statement writes it, as Periods.applyStatus does:
 *
 * - a reason that is not blank and is not the lock's (status_reason changes);
 * - the stamp of a person: `user:<id>` or `firm_member:<id>` (status_changed_by, as applyStatus
 *   writes `<type>:<id>`), or the operator's `operator:`. Agents, firm agents, AI apps and the
 *   payment processor's `system` are refused (an allow-list: 0032 refused only `agent:`).
 *
 * The engine refuses a reopening whose reason repeats the lock's before it gets here
 * (PeriodRules, 422 validation_failed), so this trigger never answers a request the API accepted.
 * Deleting a locked period and moving its dates stay refused as in 0032.
 */
export const sql = `
CREATE OR REPLACE FUNCTION ledger_periods_guard() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF OLD.status <> 'hard_locked' THEN
    RETURN NEW;
  END IF;
  IF TG_OP = 'DELETE' THEN
    RAISE EXCEPTION 'a hard-locked period is never deleted' USING ERRCODE = 'LD011';
  END IF;
  IF NEW.start_date <> OLD.start_date OR NEW.end_date <> OLD.end_date OR NEW.company_id <> OLD.company_id THEN
    RAISE EXCEPTION 'a hard-locked period keeps its dates' USING ERRCODE = 'LD011';
  END IF;
  IF NEW.status = 'hard_locked' THEN
    RETURN NEW;
  END IF;
  IF NEW.status <> 'open' THEN
    RAISE EXCEPTION 'a hard-locked period is reopened only to open' USING ERRCODE = 'LD011';
  END IF;
  IF coalesce(btrim(NEW.status_reason), '') = '' OR NEW.status_reason IS NOT DISTINCT FROM OLD.status_reason THEN
    RAISE EXCEPTION 'a hard-locked period is reopened with a reason of its own, not the lock''s' USING ERRCODE = 'LD011';
  END IF;
  IF NEW.status_changed_by IS NULL OR NEW.status_changed_by !~ '^((user|firm_member):[0-9]+|operator:?)$' THEN
    RAISE EXCEPTION 'a hard-locked period is reopened by a person, stamped user:<id> or firm_member:<id>' USING ERRCODE = 'LD011';
  END IF;
  RETURN NEW;
END $$;
`
