#!/bin/bash
# The database's own work of a group commit's postings, without the engine: one statement
# inserting 16 two-line entries on random accounts (their triggers, checks and totals, and the
# commit), run by pgbench in two schemas made by `make-schema.ts`, alternately, with the
# PostgreSQL server's CPU per batch from /proc (so run it on the database's own machine).
#
#   bash bench/sql/batch-checks.sh A.json B.json [rounds=4] [seconds=6] [clients=4]
set -euo pipefail
rounds=${3:-4}; seconds=${4:-6}; clients=${5:-4}
url=${DATABASE_URL:-postgres://postgres@127.0.0.1:5432/test}
work=$(mktemp -d); trap 'rm -rf "$work"' EXIT
field() { node -e "const v = JSON.parse(require('fs').readFileSync(process.argv[1], 'utf8'))[process.argv[2]]; console.log(Array.isArray(v) ? v.join(',') : v)" "$1" "$2"; }
for side in 1 2; do
  json=${!side}
  schema=$(field "$json" schema); company=$(field "$json" company); accounts=$(field "$json" accounts)
  cat > "$work/$side.sql" <<SQL
WITH chart AS (SELECT '{$accounts}'::bigint[] AS ids),
wanted AS (
  SELECT n, ids[1 + floor(random() * cardinality(ids))::int] AS debit, ids[1 + floor(random() * cardinality(ids))::int] AS credit
  FROM chart, generate_series(1, 16) AS n
),
entries AS (
  INSERT INTO $schema.journal_entries (company_id, entry_date, total_cents, source_kind, posted_by_type, posted_at, memo)
  SELECT '$company', current_date, 100, 'journal_entry', 'user', now(), debit || ':' || credit FROM wanted RETURNING id, memo
)
INSERT INTO $schema.journal_lines (company_id, entry_id, line_no, account_id, entry_date, amount_cents)
SELECT '$company', entries.id, side.line_no, split_part(entries.memo, ':', side.line_no)::bigint, current_date, side.amount_cents
FROM entries, (VALUES (1, 100::bigint), (2, -100::bigint)) AS side(line_no, amount_cents);
SQL
done
cpu_ticks() {
  local total=0 value
  for pid in $(pgrep -u postgres); do
    value=$(awk '{print $14 + $15 + $16 + $17}' "/proc/$pid/stat" 2>/dev/null || echo 0)
    total=$((total + value))
  done
  echo "$total"
}
ticks_per_second=$(getconf CLK_TCK)
for round in $(seq 1 "$rounds"); do
  # Alternate which goes first, so that neither always follows the other's checkpoint.
  if [ $((round % 2)) -eq 0 ]; then order="2 1"; else order="1 2"; fi
  for side in $order; do
    schema=$(field "${!side}" schema)
    before=$(cpu_ticks)
    out=$(PGOPTIONS="-c search_path=$schema" pgbench -n -f "$work/$side.sql" -c "$clients" -T "$seconds" "$url" 2>&1)
    after=$(cpu_ticks)
    batches=$(echo "$out" | grep -o "processed: [0-9]*" | cut -d' ' -f2)
    tps=$(echo "$out" | grep -o "tps = [0-9.]*" | cut -d' ' -f3)
    echo "$(basename "${!side}" .json): $tps batches/s, $(( (after - before) * 1000000 / ticks_per_second / batches )) µs of PostgreSQL CPU a batch"
  done
done
