#!/usr/bin/env bash
# Migrations: applied once each and recorded; a re-run applies nothing; an
# applied file that was edited, or a gap in the numbering, stops the run.
# 015 keys the link and agent events a database already holds.
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
# 015 on a database that already holds tip events (a database of its own,
# migrated to 014 first): each link and agent event gets its key row, the
# other events none, and tip_events loses its by-handle and by-agent indexes.
db2=waymark_m015
root() { mariadb --defaults-file="$WAYMARK_VAR/my.cnf" -uroot -N -B -e "$1"; }
root "DROP DATABASE IF EXISTS $db2; CREATE DATABASE $db2 CHARACTER SET utf8mb4 COLLATE utf8mb4_bin;
	GRANT ALL PRIVILEGES ON $db2.* TO 'waymark'@'localhost';"
mkdir "$tmp/to014"
for f in "$top"/sql/*.sql; do
	[ "$(basename "$f" | cut -c1-3)" -le 14 ] && cp "$f" "$tmp/to014/"
done
WAYMARK_DB_NAME=$db2 "$tool" -c "$conf" migrate "$tmp/to014" >/dev/null 2>&1; ok $? "a database migrated to 014"
ev() {  # tx byte, log index, event, handle hash byte or NULL, agent id or NULL
	printf "(8453, UNHEX(REPEAT('%s', 32)), %s, UNHEX(REPEAT('aa', 20)), 10, UNHEX(REPEAT('bb', 32)), 1700000000, '%s', NULL, %s, %s, NULL, NULL, NULL, NULL, NULL, NULL, NULL)" \
		"$1" "$2" "$3" "$4" "$5"
}
root "INSERT INTO $db2.tip_events (chain_id, tx_hash, log_index, contract, block_number, block_hash, block_time,
	event, tip_id, handle_hash, agent_id, actor, wallet, usdc_amount, mint_attestation, display_handle, note,
	private_commitment) VALUES $(ev 01 0 Linked "UNHEX(REPEAT('c1', 32))" NULL), $(ev 01 1 Relinked "UNHEX(REPEAT('c1', 32))" NULL),
	$(ev 02 0 Linked "UNHEX(REPEAT('c2', 32))" NULL), $(ev 03 0 AgentRegistered NULL "'7'"),
	$(ev 03 1 AgentWalletSet NULL "'7'"), $(ev 04 0 TipAgent "UNHEX(REPEAT('c3', 32))" "'7'"),
	$(ev 05 0 Tip "UNHEX(REPEAT('c1', 32))" NULL)"; ok $? "seven tip events stored under 014"
out=$(WAYMARK_DB_NAME=$db2 "$tool" -c "$conf" migrate "$top/sql" 2>&1); ok $? "the rest applies"
is "$(root "SELECT GROUP_CONCAT(CONCAT(LEFT(HEX(handle_hash), 2), ':', LEFT(HEX(tx_hash), 2), ':', log_index)
	ORDER BY handle_hash, tx_hash, log_index) FROM $db2.tip_link_keys")" "C1:01:0,C1:01:1,C2:02:0" \
	"015 keyed the three link events by handle"
is "$(root "SELECT GROUP_CONCAT(CONCAT(agent_id, ':', LEFT(HEX(tx_hash), 2), ':', log_index)
	ORDER BY tx_hash, log_index) FROM $db2.tip_agent_keys")" "7:03:0,7:03:1" \
	"015 keyed the two registry events by agent, not the agent tip"
is "$(root "SELECT COUNT(*) FROM information_schema.statistics WHERE table_schema = '$db2'
	AND table_name = 'tip_events' AND index_name IN ('by_handle', 'by_agent')")" 0 \
	"tip_events has no by-handle or by-agent index any more"
root "DROP DATABASE $db2"
done_testing
