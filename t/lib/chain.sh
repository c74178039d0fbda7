# t/lib/chain.sh: a stack of the test's own with a local chain.
#   chain_stack NAME OFFSET   start it (WAYMARK_* overrides may be exported first)
#   rpc METHOD PARAMS         JSON-RPC to its anvil; prints .result
#   sql QUERY                 one query against its MariaDB, tab-separated
#   send ARGS...              chain/send.mjs against it (prints JSON lines)
#   wait_indexed BLOCK        until the checkpoint reaches BLOCK (10 s at most)
top=$(cd "$(dirname "$0")/.." && pwd)
: "${WAYMARK_TEST_PORT_BASE:?run through make test}"

chain_stack() {
	export WAYMARK_VAR=$WAYMARK_VAR-$1
	export WAYMARK_LISTEN=127.0.0.1:$((WAYMARK_TEST_PORT_BASE + $2))
	export WAYMARK_ANVIL_PORT=$((WAYMARK_TEST_PORT_BASE + 465 + $2))
	RPC=http://127.0.0.1:$WAYMARK_ANVIL_PORT
	URL=http://$WAYMARK_LISTEN
	STATE=$WAYMARK_VAR/chain.json
	rm -rf "$WAYMARK_VAR"
	trap '"$top/tools/stack" stop >/dev/null 2>&1' EXIT
	"$top/tools/stack" start >/dev/null
}

rpc() {
	curl -s -H 'Content-Type: application/json' \
		-d "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"$1\",\"params\":$2}" "$RPC" | jq -c .result
}

sql() { mariadb --defaults-file="$WAYMARK_VAR/my.cnf" -uroot -N -B waymark -e "$1"; }

send() { node "$top/chain/send.mjs" --rpc "$RPC" --state "$STATE" "$@"; }

checkpoint() { sql "SELECT MIN(block_number) FROM indexer_checkpoints"; }

wait_indexed() {
	local n=0
	until [ "$(checkpoint)" -ge "$1" ] 2>/dev/null || [ $n -ge 100 ]; do n=$((n + 1)); sleep 0.1; done
	[ "$(checkpoint)" -ge "$1" ] 2>/dev/null
}

head_block() { printf '%d' "$(rpc eth_blockNumber '[]' | tr -d '"')"; }

# Anvil's public test keys #7 and #8, and two payTo wallets, for tippers.
KEY7=0x4bbbf85ce3377467afe5d46f804f221813b2bb87f24d81f60f1fcdbf7cbf4356
KEY8=0xdbda1821b80551c9d65939329250298aa3472ba22feea921c0cf5d620ea67b97
PAY_A=0x1111111111111111111111111111111111111111
PAY_B=0x2222222222222222222222222222222222222222
NET_C=0x3333333333333333333333333333333333333333
ROUTE_1=0xe93032e57fafbea0f07da4a8cf9aff93d7c63835c1caba6f6d5958572ec34f73
ROUTE_2=0x35ca36eb3066899ffbe2cd47c08d312b6276ebc87a2027a8f06096c1199734e7

# SQL that recomputes the aggregates from the rows and diffs them with the
# stored ones: prints nothing when they agree.
aggregate_diff() {
	sql "SELECT HEX(s.route_id) FROM route_recognition_stats s LEFT JOIN (
		SELECT chain_id, route_id, COUNT(*) c, COUNT(DISTINCT tipper) t, SUM(endpoint_usdc) e,
		       SUM(network_usdc) n, SUM(boon_burned) b, MIN(block_time) f, MAX(block_time) l,
		       MAX(block_number) lb FROM routed_boons GROUP BY chain_id, route_id) r
		ON r.chain_id = s.chain_id AND r.route_id = s.route_id
		WHERE r.route_id IS NULL OR s.recognition_count <> r.c OR s.tipper_count <> r.t
		   OR s.endpoint_usdc <> r.e OR s.network_usdc <> r.n OR s.total_usdc <> r.e + r.n
		   OR s.boon_burned <> r.b OR s.first_block_time <> r.f OR s.latest_block_time <> r.l
		   OR s.latest_block_number <> r.lb
		UNION ALL SELECT HEX(route_id) FROM routed_boons b WHERE NOT EXISTS (
		   SELECT 1 FROM route_recognition_stats s WHERE s.chain_id = b.chain_id AND s.route_id = b.route_id)
		UNION ALL SELECT CONCAT('wallet ', HEX(w.wallet), ' ', w.role) FROM wallet_roles w WHERE w.recognition_count <> (
		   SELECT COUNT(*) FROM routed_boons b WHERE b.chain_id = w.chain_id AND (
		     (w.role = 'tipper' AND b.tipper = w.wallet) OR
		     (w.role = 'endpoint' AND b.endpoint_pay_to = w.wallet AND b.endpoint_usdc > 0) OR
		     (w.role = 'network' AND b.network_pay_to = w.wallet AND b.network_usdc > 0)))
		UNION ALL SELECT CONCAT('missing tipper role ', HEX(b.tipper)) FROM routed_boons b WHERE NOT EXISTS (
		   SELECT 1 FROM wallet_roles w WHERE w.wallet = b.tipper AND w.role = 'tipper')"
}
