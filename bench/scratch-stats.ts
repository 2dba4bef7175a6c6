import * as Engine from "./lib/Engine.ts"
const engine = await Engine.open("postgresql", { name: "scratch" })
const rows = await engine.query(`SELECT relname, relpages, reltuples FROM pg_class WHERE relnamespace = (SELECT oid FROM pg_namespace WHERE nspname = current_schema()) AND relkind = 'r' AND relname IN ('idempotency_records','journal_entries','journal_lines','audit_events','outbox_events','accounts','account_daily_totals','api_keys','periods','companies')`)
console.log(rows)
await engine.close()
