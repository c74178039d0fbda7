#!/usr/bin/env bash
# The workers' caches on, as a production stack runs them (every other
# stack of the suite runs without them: tools/stack, WAYMARK_TEST_STACK):
# /health's database check (health_ttl_ms), the discovery corpus's check of
# its sources (discovery_check_ms) and the board (board_ttl_ms), each at
# the default INSTALL documents. One worker process with one thread, so
# every request meets the same cache. A change in the database is not seen
# while the cache is younger than its TTL, and is seen once it is older:
# never before the TTL has passed since the cache was filled, and soon
# after it.
. "$(dirname "$0")/lib/tap.sh"
top=$(cd "$(dirname "$0")/.." && pwd)
: "${WAYMARK_TEST_PORT_BASE:?run through make test}"
export WAYMARK_VAR=$WAYMARK_VAR-caches
export WAYMARK_LISTEN=127.0.0.1:$((WAYMARK_TEST_PORT_BASE + 5))
export WAYMARK_CHAIN=none WAYMARK_SEED=0
export WAYMARK_WORKERS=1 WAYMARK_WORKER_THREADS=1 WAYMARK_REMOTE_WORKERS=1 WAYMARK_REMOTE_THREADS=1
WAYMARK_TEST_URL=http://$WAYMARK_LISTEN
. "$(dirname "$0")/lib/http.sh"

# The default of KEY in INSTALL's configuration table.
documented() { sed -n "s/^| \`$1\` | \`[A-Z_]*\` | \`\([0-9]*\)\` |.*/\1/p" "$top/INSTALL"; }
ttl_health=$(documented health_ttl_ms)
ttl_discovery=$(documented discovery_check_ms)
ttl_board=$(documented board_ttl_ms)
like "$ttl_health,$ttl_discovery,$ttl_board" '^[1-9][0-9]*,[1-9][0-9]*,[1-9][0-9]*$' \
	"INSTALL documents each cache's time: $ttl_health, $ttl_discovery and $ttl_board ms"
# The environment wins over the file tools/stack writes with the caches off.
export WAYMARK_HEALTH_TTL_MS=$ttl_health WAYMARK_DISCOVERY_CHECK_MS=$ttl_discovery \
	WAYMARK_BOARD_TTL_MS=$ttl_board

rm -rf "$WAYMARK_VAR"
trap 'rm -rf "$http_tmp"; "$top/tools/stack" stop >/dev/null 2>&1' EXIT
"$top/tools/stack" start >/dev/null
ok $? "a stack of its own starts, with the caches on"

sql() { db_query "$WAYMARK_VAR/my.cnf" "$1"; }
now_ms() { date +%s%3N; }
# What each read shows of the change made below.
health() { req GET /health; jqr .database.schemaVersion; }
discovery() { req GET "/api/v1/x402/discovery?q=forecast"; jqr .coverage.reviews.available; }
board() { req GET /api/v1/board; jqr .stats.tipCount; }

# ---- each cache in turn: fill it, change what it holds, read it again at once
declare -A filled changed
# cached NAME TTL FIRST SQL: reads NAME until it shows FIRST, which only a
# read that fills the cache can show (filled[NAME]: when that read began);
# after SQL, a read within TTL of the fill must still show FIRST. A machine
# too slow to read twice within the TTL skips that check rather than fail it.
cached() {
	local got
	while :; do
		filled[$1]=$(now_ms)
		got=$($1)
		[ "$got" = "$3" ] || [ $(($(now_ms) - filled[$1])) -gt $(($2 + 5000)) ] && break
		sleep 0.05
	done
	is "$got" "$3" "$1: a read fills the cache with $3"
	sql "$4"
	changed[$1]=$(now_ms)
	got=$($1)
	if [ $(($(now_ms) - filled[$1])) -lt "$2" ]; then
		is "$got" "$3" "$1: read again within its $2 ms, the cached answer"
	else
		ok 0 "$1: read again within its $2 ms # skip this machine took longer than that"
	fi
}
# tools/stack start has read /health: its cache may hold an older check, so
# health's first value is one no earlier check saw. Nothing has read
# discovery or the board yet.
sql "INSERT INTO schema_migrations (version, name, sha256) VALUES (9998, 'cache test', REPEAT('0', 64))"
cached health "$ttl_health" 9998 \
	"INSERT INTO schema_migrations (version, name, sha256) VALUES (9999, 'cache test', REPEAT('0', 64))"
cached discovery "$ttl_discovery" true "RENAME TABLE reviews TO reviews_away"
cached board "$ttl_board" 0 "INSERT INTO tip_chain_stats (chain_id, tips, private_tips, tippers,
	recipients, total_usdc, pushed_usdc, escrowed_usdc, claimed_usdc, refunded_usdc, attestations,
	linked_handles, agents) VALUES (8453, 7, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)"

# ---- the fresh read: poll (no idle wait beyond the TTLs themselves)
# fresh NAME WANT TTL: poll NAME until it shows WANT; then it must have been
# at least TTL after the fill and at most TTL + 5 s after the change.
fresh() {
	local got t
	while :; do
		got=$($1); t=$(now_ms)
		[ "$got" = "$2" ] && break
		[ $((t - changed[$1])) -gt $(($3 + 5000)) ] && break
		sleep 0.05
	done
	is "$got" "$2" "$1: the change is seen within $3 ms + 5 s of it"
	ok $((t - filled[$1] >= $3 ? 0 : 1)) \
		"$1: and not before its $3 ms had passed ($((t - changed[$1])) ms after the change)"
}
fresh health 9999 "$ttl_health"
fresh discovery false "$ttl_discovery"
fresh board 7 "$ttl_board"

sql "RENAME TABLE reviews_away TO reviews; DELETE FROM schema_migrations WHERE version >= 9998;
	DELETE FROM tip_chain_stats WHERE chain_id = 8453"
done_testing
