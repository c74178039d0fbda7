#!/usr/bin/env bash
# Migrations: applied once each and recorded; a re-run applies nothing; an
# applied file that was edited, or a gap in the numbering, stops the run.
. "$(dirname "$0")/lib/tap.sh"
top=$(cd "$(dirname "$0")/.." && pwd)
tool=$WAYMARK_BUILD/waymark
conf=$WAYMARK_VAR/waymark.conf
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
n=$(ls "$top"/sql/*.sql | wc -l)

out=$("$tool" -c "$conf" migrate "$top/sql" 2>&1); ok $? "migrate re-run succeeds"
is "$out" "migrations: 0 applied" "a re-run applies nothing"
count=$(mariadb --defaults-file="$WAYMARK_VAR/my.cnf" -uroot -N waymark -e 'SELECT COUNT(*) FROM schema_migrations')
is "$count" "$n" "one version row per migration file"

cp "$top"/sql/*.sql "$tmp/"
printf -- '-- edited\n' >> "$tmp/001_schema_migrations.sql"
out=$("$tool" -c "$conf" migrate "$tmp" 2>&1); rc=$?
is "$rc" 1 "an edited applied migration fails the run"
like "$out" 'changed after it was applied' "and says so"

rm -f "$tmp"/*.sql; cp "$top"/sql/*.sql "$tmp/"
printf 'SELECT 1;\n' > "$tmp/$(printf '%03d' $((n + 2)))_gap.sql"
out=$("$tool" -c "$conf" migrate "$tmp" 2>&1); rc=$?
is "$rc" 1 "a gap in the numbering fails the run"
like "$out" 'no gaps' "and says so"
done_testing
