#!/bin/bash
# One posting as the Dispatcher commits it (an entry, its two lines and its audit event, one
# transaction, all of one company), run by pgbench in two schemas made by `make-schema.ts`,
# alternately, with the PostgreSQL server's CPU a posting from /proc (run it on the database's own
# machine; the figure includes whatever else that server runs). Used for ADR 2310, with the
# company audit chain's trigger dropped in the first schema:
#   DROP TRIGGER audit_events_chained ON <schema>.audit_events; DROP INDEX <schema>.audit_events_chain;
#   ALTER TABLE <schema>.audit_events ALTER seq DROP NOT NULL, ALTER prev_hash DROP NOT NULL, ALTER hash DROP NOT NULL;
#
#   bash bench/sql/posting-with-audit.sh BEFORE.json AFTER.json [rounds=3] [seconds=8] [clients=1]
set -euo pipefail
rounds=${3:-3}; seconds=${4:-8}; clients=${5:-1}
url=${DATABASE_URL:-postgres://postgres@127.0.0.1:5432/test}
work=$(mktemp -d); trap 'rm -rf "$work"' EXIT
declare -A files=([before]=$1 [after]=$2)
field() { node -e "const v = JSON.parse(require('fs').readFileSync(process.argv[1], 'utf8'))[process.argv[2]]; console.log(Array.isArray(v) ? v.join(',') : v)" "$1" "$2"; }
for side in before after; do
  json=${files[$side]}
  schema=$(field $json schema); company=$(field $json company); accounts=$(field $json accounts)
  cat > "$work/$side.sql" <<SQL
BEGIN;
WITH chart AS (SELECT '{$accounts}'::bigint[] AS ids),
wanted AS (SELECT ids[1 + floor(random() * cardinality(ids))::int] AS debit, ids[1 + floor(random() * cardinality(ids))::int] AS credit FROM chart),
entries AS (
  INSERT INTO $schema.journal_entries (company_id, entry_date, total_cents, source_kind, posted_by_type, posted_at, memo)
  SELECT '$company', current_date, 100, 'journal_entry', 'user', now(), debit || ':' || credit FROM wanted RETURNING id, memo
)
INSERT INTO $schema.journal_lines (company_id, entry_id, line_no, account_id, entry_date, amount_cents)
SELECT '$company', entries.id, side.line_no, split_part(entries.memo, ':', side.line_no)::bigint, current_date, side.amount_cents
FROM entries, (VALUES (1, 100::bigint), (2, -100::bigint)) AS side(line_no, amount_cents);
INSERT INTO $schema.audit_events (company_id, occurred_at, action, outcome, status, principal_type, principal_id, principal_name, key_id, target_type, target_id, via, details)
VALUES ('$company', now(), 'proposeJournalEntry', 'ok', 201, 'user', '1', 'Owner', 12, 'journal_entry', '1234', 'http', '{"idempotency_key": "k-0123456789abcdef", "total_cents": 100}');
COMMIT;
SQL
done
cpu_ticks() { local total=0 value; for pid in $(pgrep -u postgres); do value=$(awk '{print $14 + $15 + $16 + $17}' "/proc/$pid/stat" 2>/dev/null || echo 0); total=$((total + value)); done; echo "$total"; }
tps_=$(getconf CLK_TCK)
for round in $(seq 1 "$rounds"); do
  if [ $((round % 2)) -eq 0 ]; then order="after before"; else order="before after"; fi
  for side in $order; do
    before=$(cpu_ticks)
    schema=$(field "${files[$side]}" schema)
    out=$(PGOPTIONS="-c search_path=$schema" pgbench -n -f "$work/$side.sql" -c "$clients" -T "$seconds" "$url" 2>&1)
    after=$(cpu_ticks)
    n=$(echo "$out" | grep -o "processed: [0-9]*" | cut -d' ' -f2)
    tps=$(echo "$out" | grep -o "tps = [0-9.]*" | cut -d' ' -f3)
    lat=$(echo "$out" | grep -o "latency average = [0-9.]* ms" | cut -d' ' -f4)
    echo "$side c=$clients: $tps postings/s, latency $lat ms, $(( (after - before) * 1000000 / tps_ / n )) µs PostgreSQL CPU a posting"
  done
done
