/**
 * Firms: the state of a firm credential acting in a client, as one SQL function
 * (docs/decisions/0903-firm-requests-limited-audited-anchored.md).
 *
 * A firm key or firm session acting in a client is decided by its own row, its firm's (limit and
 * kill switch), its holder's (a member's status and role, a firm agent's status and scopes), the
 * session's key, the client's live grant to the firm and the agent's assignment there, and the
 * client's plan and kill switch. Authentication reads this function's value with the client
 * (pipeline/authenticate/FirmPrincipal.ts); a group commit's statement computes it again and
 * refuses itself when any credential it carries is no longer in that state (LD022), so a key, a
 * member or a grant revoked between a request's admission and its batch's commit writes nothing.
 * Times as epoch seconds so that no session setting changes the text. The last use and the
 * session's idle deadline are not part of it: they move on their own once a minute.
 */
export const sql = `
CREATE FUNCTION ledger_firm_credential_state(credential_kind text, firm bigint, credential bigint, company uuid) RETURNS text
LANGUAGE sql STABLE AS $$
  SELECT md5(ROW(credential_kind,
      s.id, s.member_id, s.scopes, extract(epoch FROM s.expires_at), extract(epoch FROM s.revoked_at),
      k.id, k.principal_type, k.member_id, k.firm_agent_id, k.scopes, extract(epoch FROM k.expires_at),
      extract(epoch FROM k.revoked_at), extract(epoch FROM k.overlap_ends_at), k.rate_limit_rpm,
      f.rate_limit_rpm, f.kill_switch_suspended,
      m.status, m.role, m.name, a.status, a.scopes, a.name,
      g.id, g.scopes, x.posting_threshold_cents, x.scopes,
      c.plan, c.rate_limit_rpm, c.kill_switch_suspended)::text)
  FROM firms f
  LEFT JOIN firm_sessions s ON credential_kind = 'firm_session' AND s.firm_id = f.id AND s.id = credential
  LEFT JOIN firm_keys k ON k.firm_id = f.id
    AND k.id = CASE WHEN credential_kind = 'firm_session' THEN s.key_id ELSE credential END
  LEFT JOIN firm_members m ON m.firm_id = f.id AND m.id = COALESCE(s.member_id, k.member_id)
  LEFT JOIN firm_agents a ON a.firm_id = f.id AND a.id = k.firm_agent_id
  LEFT JOIN companies c ON c.company_id = company
  LEFT JOIN firm_grants g ON g.company_id = company AND g.firm_id = f.id AND g.revoked_at IS NULL
  LEFT JOIN firm_agent_assignments x ON x.company_id = company AND x.firm_agent_id = k.firm_agent_id
  WHERE f.id = firm
$$;
`
