/**
 * A group commit's statement refuses itself when something it relied on without reading it has
 * changed: one check for all such things, each with its own SQLSTATE
 * (docs/decisions/0713-credentials-remembered-for-group-commit.md).
 *
 * `ledger_batch_found(counted, expected, state, what)` passes `counted` through when it equals
 * `expected`, else raises `state`: nothing of the batch is kept and its requests take their usual
 * path, which reads afresh. Its first use is LD022, the API keys a batch's requests were
 * authenticated with from the pipeline's memory: every one of them must still be in the state it
 * was remembered in. Migrations 0007 (LD020) and 0014 (LD021) keep their own functions, as
 * released migrations are never edited.
 */
export const sql = `
-- Not "found": PL/pgSQL's own FOUND would shadow it.
CREATE FUNCTION ledger_batch_found(counted bigint, expected bigint, state text, what text) RETURNS bigint
  LANGUAGE plpgsql AS $$
BEGIN
  IF counted <> expected THEN
    RAISE EXCEPTION 'a group commit found % of its % % as it used them', counted, expected, what USING ERRCODE = state;
  END IF;
  RETURN counted;
END $$;
`
